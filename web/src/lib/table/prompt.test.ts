import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n.svelte';
import { dealView } from '../test-fixtures';
import type { Auction } from '../types';
import { promptChoices, typedAnswer, type Choice, type TypedAt } from './prompt';

afterEach(() => {
  i18n.lang = 'en';
});

/** No Shuffle's and Two Player's auction before anyone called. */
const calling: Extract<Auction, { type: 'call_and_rob' }> = {
  type: 'call_and_rob',
  holder: null,
  declined: [false, false],
  robs: 0,
  asked: 0,
};

/** The prompt's answers on the player's turn in this auction. */
const auctionChoices = (auction: Auction): Choice[] =>
  promptChoices({ deal: dealView({ phase: 'auction', auction }), mustSee: false, myTurn: true });

describe('promptChoices', () => {
  const labels = (choices: Choice[]) => choices.map((c) => c.label);

  it('offers take or pass, and only take to the third seat after two passes', () => {
    expect(labels(auctionChoices({ type: 'take_or_pass', passes: 1 }))).toEqual(['Take the middle cards', 'Pass']);
    expect(labels(auctionChoices({ type: 'take_or_pass', passes: 2 }))).toEqual(['Take the middle cards']);
  });

  it('offers the bids above the highest so far, and no bid', () => {
    expect(labels(auctionChoices({ type: 'bidding', bids: [1, 0] }))).toEqual(['Bid 2', 'Bid 3', 'No bid']);
  });

  it('offers call or decline, then rob or not', () => {
    expect(labels(auctionChoices(calling))).toEqual(['Call landlord', 'Decline']);
    expect(labels(auctionChoices({ ...calling, holder: 0, asked: 1 }))).toEqual(['Rob', "Don't rob"]);
  });

  it('offers Seen while the middle cards wait, and nothing off turn', () => {
    const reveal = dealView({ phase: 'reveal' });
    expect(labels(promptChoices({ deal: reveal, mustSee: true, myTurn: false }))).toEqual(['Seen']);
    expect(promptChoices({ deal: dealView({ phase: 'auction' }), mustSee: false, myTurn: false })).toEqual([]);
  });
});

describe('typedAnswer', () => {
  const hand = ['2S', 'AH', 'TD', 'TC', '5S', '4S', '4D', '3S', '3H', '3D', 'BJ'];
  const playing: TypedAt = { choices: [], playing: true, canPass: true, hand };
  const inAuction = (auction: Auction): TypedAt => ({
    choices: auctionChoices(auction),
    playing: false,
    canPass: false,
    hand,
  });

  it("plays the hand's cards of the typed ranks", () => {
    expect(typedAnswer('33344', playing)).toEqual({ kind: 'play', cards: ['3S', '3H', '3D', '4S', '4D'] });
    expect(typedAnswer('10 10', playing)).toEqual({ kind: 'play', cards: ['TD', 'TC'] });
    expect(typedAnswer('b', playing)).toEqual({ kind: 'play', cards: ['BJ'] });
  });

  it('refuses cards the hand does not hold, naming the ranks it lacks', () => {
    expect(typedAnswer('555', playing)).toEqual({ kind: 'refused', reason: 'Not in your hand: 5 5.' });
    expect(typedAnswer('br', playing)).toEqual({ kind: 'refused', reason: 'Not in your hand: RJ.' });
    expect(typedAnswer('TTT', playing)).toEqual({ kind: 'refused', reason: 'Not in your hand: 10.' });
    i18n.lang = 'zh';
    expect(typedAnswer('555', playing)).toEqual({ kind: 'refused', reason: '你手里没有：5 5。' });
  });

  it('refuses a line it cannot read, saying which part', () => {
    expect(typedAnswer('33y', playing)).toEqual({
      kind: 'refused',
      reason: 'Cannot read “y”: type ranks (3-9, 10, J Q K A 2, b r w) or a word such as pass.',
    });
  });

  it('sends nothing for a line without cards or words', () => {
    expect(typedAnswer('', playing)).toBeNull();
    expect(typedAnswer(' , - ', playing)).toBeNull();
  });

  it('passes on a trick, but refuses to pass on a lead', () => {
    expect(typedAnswer('pass', playing)).toEqual({ kind: 'pass' });
    expect(typedAnswer('过', playing)).toEqual({ kind: 'pass' });
    expect(typedAnswer('pass', { ...playing, canPass: false })).toEqual({
      kind: 'refused',
      reason: 'You lead this trick: you must play.',
    });
  });

  it("answers House's auction: take, pass, and a forced take", () => {
    const take = { kind: 'act', action: { action: 'take' } };
    expect(typedAnswer('take', inAuction({ type: 'take_or_pass', passes: 0 }))).toEqual(take);
    expect(typedAnswer('拿', inAuction({ type: 'take_or_pass', passes: 0 }))).toEqual(take);
    expect(typedAnswer('pass', inAuction({ type: 'take_or_pass', passes: 1 }))).toEqual({
      kind: 'act',
      action: { action: 'pass' },
    });
    expect(typedAnswer('pass', inAuction({ type: 'take_or_pass', passes: 2 }))).toEqual({
      kind: 'refused',
      reason: 'You must take the middle cards.',
    });
  });

  it('answers the bidding with 1-3 or no bid, refusing a bid not above the highest', () => {
    const bidding = inAuction({ type: 'bidding', bids: [1] });
    expect(typedAnswer('2', bidding)).toEqual({ kind: 'act', action: { action: 'bid', bid: 2 } });
    expect(typedAnswer('bid 3', bidding)).toEqual({ kind: 'act', action: { action: 'bid', bid: 3 } });
    expect(typedAnswer('no bid', bidding)).toEqual({ kind: 'act', action: { action: 'bid', bid: 0 } });
    expect(typedAnswer('0', bidding)).toEqual({ kind: 'act', action: { action: 'bid', bid: 0 } });
    expect(typedAnswer('1', bidding)).toEqual({
      kind: 'refused',
      reason: 'Your bid must be higher than the current bid.',
    });
  });

  it('answers call and rob in English and Chinese', () => {
    expect(typedAnswer('call', inAuction(calling))).toEqual({ kind: 'act', action: { action: 'call', call: true } });
    expect(typedAnswer('不叫', inAuction(calling))).toEqual({ kind: 'act', action: { action: 'call', call: false } });
    const robbing = inAuction({ ...calling, holder: 1, asked: 1 });
    expect(typedAnswer('抢地主', robbing)).toEqual({ kind: 'act', action: { action: 'rob', rob: true } });
    expect(typedAnswer("don't rob", robbing)).toEqual({ kind: 'act', action: { action: 'rob', rob: false } });
    expect(typedAnswer('take', robbing)).toEqual({
      kind: 'refused',
      reason: 'That is not possible at this point of the deal.',
    });
  });

  it('acknowledges the middle cards with seen', () => {
    const seen: Choice = { action: { action: 'seen' }, label: 'Seen', primary: true };
    const seeing: TypedAt = { choices: [seen], playing: false, canPass: false, hand };
    expect(typedAnswer('seen', seeing)).toEqual({ kind: 'act', action: { action: 'seen' } });
    expect(typedAnswer('看过了', seeing)).toEqual({ kind: 'act', action: { action: 'seen' } });
  });

  it('refuses cards outside the play, and anything off turn', () => {
    expect(typedAnswer('33', inAuction({ type: 'take_or_pass', passes: 0 }))).toEqual({
      kind: 'refused',
      reason: 'That is not possible at this point of the deal.',
    });
    const waiting: TypedAt = { choices: [], playing: false, canPass: false, hand };
    expect(typedAnswer('33', waiting)).toEqual({ kind: 'refused', reason: 'It is not your turn.' });
    expect(typedAnswer('pass', waiting)).toEqual({ kind: 'refused', reason: 'It is not your turn.' });
  });
});
