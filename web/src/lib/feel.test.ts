import { describe, expect, it } from 'vitest';
import { actionSound, actionSpeech, playEffect } from './feel';
import { play, reading } from './test-fixtures';
import type { Action } from './types';

const airplane = play(0, ['3S', '3H', '3D', '4S', '4H', '4D'], { type: 'triples', main: '4', length: 2 });
const bomb = play(1, ['9S', '9H', '9D', '9C'], { type: 'bomb', main: '9' });
const rocket = play(2, ['BJ', 'RJ'], { type: 'rocket', main: 'RJ' });
const pair = play(0, ['QS', 'QH'], { type: 'pair', main: 'Q' });
const pass: Action = { action: 'pass', seat: 1 };

describe('the sound of each action', () => {
  it('gives bombs, rockets and airplanes their own sound and effect', () => {
    expect(actionSound(bomb)).toBe('bomb');
    expect(actionSound(rocket)).toBe('rocket');
    expect(actionSound(airplane)).toBe('airplane');
    expect(playEffect(reading({ type: 'bomb' }))).toBe('bomb');
  });

  it('plays the plain sound for other plays and the auction, the pass sound for a pass', () => {
    expect(actionSound(pair)).toBe('play');
    expect(playEffect(reading({ type: 'triples', length: 1, attach: 'singles', attach_count: 1 }))).toBeNull();
    expect(actionSound({ action: 'bid', seat: 0, bid: 2 })).toBe('play');
    expect(actionSound(pass)).toBe('pass');
    expect(actionSound({ action: 'seen', seat: 0 })).toBeNull();
  });
});

describe('the spoken call of each action', () => {
  it('names plays in Chinese as the games call them', () => {
    expect(actionSpeech(bomb, 'zh')).toBe('炸弹');
    expect(actionSpeech(rocket, 'zh')).toBe('王炸');
    expect(actionSpeech(airplane, 'zh')).toBe('飞机');
    expect(actionSpeech(pair, 'zh')).toBe('对Q');
    expect(actionSpeech(play(0, ['2S'], { main: '2' }), 'zh')).toBe('二');
    expect(actionSpeech(play(0, ['5S', '5H', '5D', '7C'], { type: 'triples', main: '5', attach: 'singles', attach_count: 1 }), 'zh')).toBe('三带一');
    expect(actionSpeech(pass, 'zh')).toBe('要不起');
  });

  it('names plays in English', () => {
    expect(actionSpeech(bomb, 'en')).toBe('Bomb');
    expect(actionSpeech(pair, 'en')).toBe('Pair of Queens');
    expect(actionSpeech(play(0, ['TS'], { main: 'T' }), 'en')).toBe('10');
    expect(actionSpeech(pass, 'en')).toBe('Pass');
  });

  it('says the auction in both languages, and nothing for Seen', () => {
    expect(actionSpeech({ action: 'bid', seat: 0, bid: 0 }, 'zh')).toBe('不叫');
    expect(actionSpeech({ action: 'bid', seat: 0, bid: 3 }, 'zh')).toBe('3分');
    expect(actionSpeech({ action: 'bid', seat: 0, bid: 3 }, 'en')).toBe('Bid 3');
    expect(actionSpeech({ action: 'call', seat: 0, call: true }, 'zh')).toBe('叫地主');
    expect(actionSpeech({ action: 'rob', seat: 0, rob: true }, 'zh')).toBe('抢地主');
    expect(actionSpeech({ action: 'rob', seat: 0, rob: false }, 'en')).toBe('No rob');
    expect(actionSpeech({ action: 'seen', seat: 0 }, 'en')).toBeNull();
  });
});
