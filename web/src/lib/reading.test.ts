import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './i18n.svelte';
import { readingText, refusalText } from './reading';
import { reading } from './test-fixtures';

afterEach(() => {
  i18n.lang = 'en';
});

describe('readingText', () => {
  it('writes a ten as 10 and the jokers by name', () => {
    expect(readingText(reading({ main: 'T' }))).toBe('single 10');
    expect(readingText(reading({ main: 'B' }))).toBe('single Black Joker');
    expect(readingText(reading({ type: 'pair', main: 'Q' }))).toBe('pair of Qs');
    i18n.lang = 'zh';
    expect(readingText(reading({ main: 'T' }))).toBe('单张 10');
    expect(readingText(reading({ main: 'R' }))).toBe('单张 大王');
  });

  it('writes a run from its lowest rank to its main one', () => {
    expect(readingText(reading({ type: 'straight', main: 'A', length: 5 }))).toBe('straight 10-A');
    expect(readingText(reading({ type: 'pair_run', main: '5', length: 3 }))).toBe('pair run 3-5');
    i18n.lang = 'zh';
    expect(readingText(reading({ type: 'straight', main: '7', length: 5 }))).toBe('顺子 3-7');
  });

  it('tells a triple from a triple run, with their attachments', () => {
    expect(readingText(reading({ type: 'triples', main: '3' }))).toBe('triple of 3s');
    expect(readingText(reading({ type: 'triples', main: '3', attach: 'singles', attach_count: 1 }))).toBe(
      'triple of 3s + single',
    );
    expect(readingText(reading({ type: 'triples', main: '9', attach: 'pairs', attach_count: 1 }))).toBe(
      'triple of 9s + pair',
    );
    expect(readingText(reading({ type: 'triples', main: '4', length: 2, attach: 'singles', attach_count: 2 }))).toBe(
      'triple run 3-4 + 2 singles',
    );
    expect(readingText(reading({ type: 'triples', main: 'K', length: 2, attach: 'pairs', attach_count: 2 }))).toBe(
      'triple run Q-K + 2 pairs',
    );
    i18n.lang = 'zh';
    expect(readingText(reading({ type: 'triples', main: '4', length: 2, attach: 'singles', attach_count: 2 }))).toBe(
      '飞机 3-4 带 2 张单牌',
    );
    expect(readingText(reading({ type: 'triples', main: '9', attach: 'pairs', attach_count: 1 }))).toBe(
      '三个 9 带一对',
    );
  });

  it('says how strong a bomb is', () => {
    expect(readingText(reading({ type: 'bomb', main: '9', strength: 'natural' }))).toBe('bomb of 9s');
    expect(readingText(reading({ type: 'bomb', main: '9', strength: 'soft' }))).toBe('bomb of 9s (soft)');
    expect(readingText(reading({ type: 'bomb', main: '5', strength: 'pure_wild' }))).toBe('bomb of 5s (pure wild)');
    expect(readingText(reading({ type: 'rocket', main: 'R', length: 1 }))).toBe('rocket');
    expect(readingText(reading({ type: 'four_with_two', main: '5', attach: 'singles', attach_count: 2 }))).toBe(
      'four 5s with two + 2 singles',
    );
    i18n.lang = 'zh';
    expect(readingText(reading({ type: 'bomb', main: '9', strength: 'soft' }))).toBe('炸弹 9（软炸）');
    expect(readingText(reading({ type: 'rocket', main: 'R' }))).toBe('王炸');
  });

  it('says what the wild cards stand for: the Wild itself, or wild-rank cards', () => {
    expect(readingText(reading({ type: 'triples', main: '5', ranks: '55W', wild_as: '5' }))).toBe(
      'triple of 5s (W as 5)',
    );
    expect(readingText(reading({ type: 'pair', main: 'T', ranks: 'T7', wild_as: 'T' }))).toBe(
      'pair of 10s (wild as 10)',
    );
    expect(readingText(reading({ type: 'triples', main: '3', ranks: '333W', wild_as: '' }))).toBe('triple of 3s');
    i18n.lang = 'zh';
    expect(readingText(reading({ type: 'triples', main: '5', ranks: '55W', wild_as: '5' }))).toBe('三个 5（百搭当 5）');
    expect(readingText(reading({ type: 'straight', main: '7', length: 5, ranks: '34577', wild_as: '6' }))).toBe(
      '顺子 3-7（癞子当 6）',
    );
  });
});

describe('refusalText', () => {
  it("says the server's words only without a refusal", () => {
    expect(refusalText(undefined, 'HTTP 500')).toBe('HTTP 500');
    expect(refusalText(undefined, undefined)).toBeNull();
    expect(refusalText({ kind: 'not_a_play' }, 'ignored')).toBe('Those cards are not a play.');
  });

  it('words a refusal in the current language', () => {
    i18n.lang = 'zh';
    expect(refusalText({ kind: 'four_in_a_row' }, undefined)).toBe('四张连牌不是顺子：顺子至少五张');
  });

  it('words what does not beat what from both readings', () => {
    const refusal = {
      kind: 'does_not_beat' as const,
      reading: reading({ type: 'pair', main: '4' }),
      prior: reading({ type: 'pair', main: 'T' }),
    };
    expect(refusalText(refusal, undefined)).toBe('pair of 4s does not beat pair of 10s');
    i18n.lang = 'zh';
    expect(refusalText(refusal, undefined)).toBe('对 4 压不过 对 10');
  });
});
