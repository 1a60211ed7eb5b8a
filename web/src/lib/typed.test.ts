import { describe, expect, it } from 'vitest';
import { cardsFor, readTyped } from './typed';

const cards = (...ranks: string[]) => ({ kind: 'cards', ranks });
const word = (word: string) => ({ kind: 'word', word });

describe('readTyped', () => {
  it('reads nothing from an empty line', () => {
    expect(readTyped('', false)).toBeNull();
    expect(readTyped('   ', true)).toBeNull();
  });

  it('reads ranks together or apart', () => {
    expect(readTyped('33344', false)).toEqual(cards('3', '3', '3', '4', '4'));
    expect(readTyped('3 3 3 4 4', false)).toEqual(cards('3', '3', '3', '4', '4'));
    expect(readTyped('3,3,3-4-4', false)).toEqual(cards('3', '3', '3', '4', '4'));
    expect(readTyped('jqk A 2', false)).toEqual(cards('J', 'Q', 'K', 'A', '2'));
  });

  it('reads a ten as 10, T or 0', () => {
    expect(readTyped('10 10 10', false)).toEqual(cards('T', 'T', 'T'));
    expect(readTyped('TTT', false)).toEqual(cards('T', 'T', 'T'));
    expect(readTyped('000', false)).toEqual(cards('T', 'T', 'T'));
    expect(readTyped('10JQKA', false)).toEqual(cards('T', 'J', 'Q', 'K', 'A'));
  });

  it('reads the jokers and the Wild by letter or Chinese name', () => {
    expect(readTyped('br', false)).toEqual(cards('BJ', 'RJ'));
    expect(readTyped('B R', false)).toEqual(cards('BJ', 'RJ'));
    expect(readTyped('小王大王', false)).toEqual(cards('BJ', 'RJ'));
    expect(readTyped('w', false)).toEqual(cards('W'));
    expect(readTyped('555百搭', false)).toEqual(cards('5', '5', '5', 'W'));
  });

  it('reads pass in English and Chinese, any case, with spaces around', () => {
    for (const text of ['pass', 'PASS', '  Pass ', 'no', '过', '不要', '不出'])
      expect(readTyped(text, false)).toEqual(word('no'));
  });

  it("reads the auction's words", () => {
    expect(readTyped('take', false)).toEqual(word('take'));
    expect(readTyped('拿底牌', false)).toEqual(word('take'));
    expect(readTyped('call', false)).toEqual(word('call'));
    expect(readTyped('叫地主', false)).toEqual(word('call'));
    expect(readTyped('rob', false)).toEqual(word('rob'));
    expect(readTyped('抢地主', false)).toEqual(word('rob'));
    expect(readTyped('seen', false)).toEqual(word('seen'));
    expect(readTyped('看过了', false)).toEqual(word('seen'));
    for (const text of ['no bid', 'No  bid', "don't rob", 'decline', '不叫', '不抢'])
      expect(readTyped(text, true)).toEqual(word('no'));
  });

  it('reads a lone 0-3 as a bid only while a bid is asked for', () => {
    expect(readTyped('1', true)).toEqual({ kind: 'bid', bid: 1 });
    expect(readTyped('3', true)).toEqual({ kind: 'bid', bid: 3 });
    expect(readTyped('0', true)).toEqual({ kind: 'bid', bid: 0 });
    expect(readTyped('3', false)).toEqual(cards('3'));
    expect(readTyped('0', false)).toEqual(cards('T'));
    expect(readTyped('33', true)).toEqual(cards('3', '3'));
    expect(readTyped('10', true)).toEqual(cards('T'));
  });

  it('reads "bid n" as a bid at any time', () => {
    expect(readTyped('bid 2', false)).toEqual({ kind: 'bid', bid: 2 });
    expect(readTyped('BID2', false)).toEqual({ kind: 'bid', bid: 2 });
  });

  it('names the first part it cannot read', () => {
    expect(readTyped('33x4', false)).toEqual({ kind: 'unreadable', part: 'x' });
    expect(readTyped('1', false)).toEqual({ kind: 'unreadable', part: '1' });
    expect(readTyped('bid 4', false)).toEqual({ kind: 'unreadable', part: 'i' });
  });
});

describe('cardsFor', () => {
  const hand = ['2S', 'AH', '9C', '4S', '4D', '3S', '3H', '3D', 'BJ'];

  it('takes cards of those ranks from the hand, any suit, each once', () => {
    expect(cardsFor(hand, ['3', '3', '3', '4', '4'])).toEqual({ cards: ['3S', '3H', '3D', '4S', '4D'], missing: [] });
    expect(cardsFor(hand, ['BJ', '2'])).toEqual({ cards: ['BJ', '2S'], missing: [] });
  });

  it('names the ranks the hand has too few of, in the typed order', () => {
    expect(cardsFor(hand, ['4', '4', '4', '5', 'RJ'])).toEqual({ cards: ['4S', '4D'], missing: ['4', '5', 'RJ'] });
    expect(cardsFor([], ['T'])).toEqual({ cards: [], missing: ['T'] });
  });
});
