import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from './i18n.svelte';
import { actionText, auctionWords, dealLog, dealLogEntries, outcomeText, priorityDrawLines, scoreLineTexts } from './story';
import { dealView, play, result } from './test-fixtures';
import type { Action, ScoreLine } from './types';

const NAMES = ['Ann', 'Bo', 'Cy'];
const name = (seat: number) => NAMES[seat];

afterEach(() => {
  i18n.lang = 'en';
});

describe('auctionWords', () => {
  it("words a seat's answer in the auction", () => {
    const said = (a: Action) => auctionWords(a);
    expect(said({ action: 'take', seat: 0 })).toBe('Landlord');
    expect(said({ action: 'pass', seat: 0 })).toBe('Pass');
    expect(said({ action: 'bid', seat: 0, bid: 0 })).toBe('No bid');
    expect(said({ action: 'bid', seat: 0, bid: 2 })).toBe('Bid 2');
    expect(said({ action: 'call', seat: 0, call: true })).toBe('Call landlord');
    expect(said({ action: 'call', seat: 0, call: false })).toBe('Decline');
    expect(said({ action: 'rob', seat: 0, rob: true })).toBe('Rob');
    expect(said({ action: 'rob', seat: 0, rob: false })).toBe("Don't rob");
    i18n.lang = 'zh';
    expect(said({ action: 'bid', seat: 0, bid: 2 })).toBe('2 分');
    expect(said({ action: 'call', seat: 0, call: true })).toBe('叫地主');
    expect(said({ action: 'rob', seat: 0, rob: false })).toBe('不抢');
  });

  it('has no word for what is not an answer in the auction', () => {
    expect(auctionWords({ action: 'seen', seat: 0 })).toBe('');
    expect(auctionWords(play(0, ['3S'], {}))).toBe('');
  });
});

describe('actionText', () => {
  it('tells each auction step with the seat its name', () => {
    expect(actionText({ action: 'take', seat: 0 }, name)).toBe('Ann took the middle cards');
    expect(actionText({ action: 'pass', seat: 1 }, name)).toBe('Bo passed');
    expect(actionText({ action: 'bid', seat: 2, bid: 3 }, name)).toBe('Cy bid 3');
    expect(actionText({ action: 'bid', seat: 2, bid: 0 }, name)).toBe('Cy did not bid');
    expect(actionText({ action: 'call', seat: 0, call: false }, name)).toBe('Ann declined to call');
    expect(actionText({ action: 'rob', seat: 1, rob: true }, name)).toBe('Bo robbed');
    expect(actionText({ action: 'rob', seat: 1, rob: false }, name)).toBe('Bo did not rob');
  });

  it('tells a play with its reading, and a bomb or rocket as a bomb', () => {
    expect(actionText(play(0, ['4S', '4H'], { type: 'pair', main: '4' }), name)).toBe('Ann: pair of 4s');
    expect(actionText(play(1, ['9S', '9H', '9D', '9C'], { type: 'bomb', main: '9' }), name)).toBe(
      'Bo bombed: bomb of 9s',
    );
    expect(actionText(play(2, ['BJ', 'RJ'], { type: 'rocket', main: 'R' }), name)).toBe('Cy bombed: rocket');
    i18n.lang = 'zh';
    expect(actionText(play(0, ['4S', '4H'], { type: 'pair', main: '4' }), name)).toBe('Ann：对 4');
    expect(actionText({ action: 'take', seat: 0 }, name)).toBe('Ann 拿了底牌');
  });

  it('tells nothing of a Seen, and the ends without a seat', () => {
    expect(actionText({ action: 'seen', seat: 0 }, name)).toBeNull();
    expect(actionText({ action: 'deal_limit' }, name)).toBe('The deal limit was reached');
    expect(actionText({ action: 'abandon' }, name)).toBe('The room closed during the deal');
  });
});

describe('outcomeText', () => {
  it('says who won; a Two Player table has one farmer', () => {
    expect(outcomeText(dealView({ result: result({ landlord_won: true }) }))).toBe('The landlord wins!');
    expect(outcomeText(dealView({ result: result({ landlord_won: false }) }))).toBe('The farmers win!');
    expect(outcomeText(dealView({ hand_sizes: [3, 0], result: result({ landlord_won: false }) }))).toBe(
      'The farmer wins!',
    );
    expect(outcomeText(dealView({ result: result({ landlord_won: null, winner: null }) }))).toBe('No winner');
    i18n.lang = 'zh';
    expect(outcomeText(dealView({ result: result({ landlord_won: true }) }))).toBe('地主赢了！');
  });
});

describe('scoreLineTexts', () => {
  const lines = (score_lines: ScoreLine[], fields = {}) => scoreLineTexts(dealView({ score_lines, ...fields }), name);

  it("explains House's ante, bombs and pot, each bomb by its kind in the deal's order", () => {
    const actions = [
      play(1, ['9S', '9H', '9D', '9C'], { type: 'bomb', main: '9' }),
      play(0, ['5S'], {}),
      play(2, ['BJ', 'RJ'], { type: 'rocket', main: 'R' }),
    ];
    expect(
      lines(
        [
          { line: 'ante', landlord: 2, tenant: 1 },
          { line: 'bomb_collected', seat: 1, landlord: 4, tenant: 2 },
          { line: 'bomb_free', seat: 2 },
          { line: 'pot_won', pot: 12, won: [0, 0, 12] },
        ],
        { actions },
      ),
    ).toEqual([
      'Ante: landlord $2, each tenant $1',
      "Bo's bomb: the landlord pays $4 more, each tenant $2 more",
      "Cy's last-card rocket collects nothing",
      'Cy took the $12 pot',
    ]);
  });

  it('says how two winners split the pot, evenly or not', () => {
    expect(lines([{ line: 'pot_won', pot: 12, won: [0, 6, 6] }])).toEqual(['Bo and Cy split the $12 pot: $6 each']);
    expect(lines([{ line: 'pot_won', pot: 13, won: [0, 7, 6] }])).toEqual([
      'Bo and Cy split the $13 pot: Bo $7, Cy $6',
    ]);
  });

  it("explains No Shuffle's bid, multipliers and shares", () => {
    const actions = [play(1, ['9S', '9H', '9D', '9C'], { type: 'bomb', main: '9' })];
    expect(
      lines(
        [
          { line: 'auction_value', value: 3, robs: 0 },
          { line: 'multiplied', seat: 1, factor: 2, multiplier: 2 },
          { line: 'spring', multiplier: 4 },
          { line: 'capped', cap: 1024 },
          { line: 'shares', share: 12, farmers: 2 },
        ],
        { rules: 'noshuffle', actions, result: result({ landlord_won: true, auction_value: 3, multiplier: 4 }) },
      ),
    ).toEqual([
      'Bid: 3',
      "Bo's bomb ×2 → ×2",
      'Spring ×2 → ×4',
      'Capped at ×1024',
      'One share = 3 × 4 = 12 points; the landlord wins 2 shares',
    ]);
  });

  it("explains Two Player's call, robs, allowance and single share", () => {
    const twoPlayer = {
      rules: 'twoplayer',
      hand_sizes: [5, 0],
      result: result({ landlord_won: false, auction_value: 2 }),
    };
    expect(lines([{ line: 'auction_value', value: 1, robs: 0 }], twoPlayer)).toEqual(['Called: 1']);
    expect(lines([{ line: 'auction_value', value: 2, robs: 1 }], twoPlayer)).toEqual(['1 rob: ×2']);
    expect(lines([{ line: 'auction_value', value: 4, robs: 2 }], twoPlayer)).toEqual(['2 robs: ×4']);
    expect(lines([{ line: 'allowance', seat: 1, allowance: 1 }], twoPlayer)).toEqual([
      'Bo reached the allowance (1 card)',
    ]);
    expect(lines([{ line: 'allowance', seat: 1, allowance: 3 }], twoPlayer)).toEqual([
      'Bo reached the allowance (3 cards)',
    ]);
    expect(lines([{ line: 'shares', share: 2, farmers: 1 }], twoPlayer)).toEqual([
      'One share = 2 × 1 = 2 points; the landlord loses 1 share',
    ]);
  });

  it('says why a deal scored nothing, House refunding the pot', () => {
    expect(lines([{ line: 'no_score', end: 'deal_limit' }], { rules: 'noshuffle' })).toEqual([
      'Time ran out: no winner, no score',
    ]);
    expect(lines([{ line: 'no_score', end: 'abandoned' }], { rules: 'house-nowild' })).toEqual([
      'The room closed during the deal: everyone got back what they paid in',
    ]);
    expect(lines([{ line: 'no_score', end: 'abandoned' }], { rules: 'noshuffle' })).toEqual([
      'The room closed during the deal: no score',
    ]);
  });

  it('words the lines in Chinese', () => {
    i18n.lang = 'zh';
    const actions = [play(2, ['BJ', 'RJ'], { type: 'rocket', main: 'R' })];
    expect(
      lines(
        [
          { line: 'ante', landlord: 2, tenant: 1 },
          { line: 'bomb_collected', seat: 2, landlord: 4, tenant: 2 },
        ],
        { actions },
      ),
    ).toEqual(['底注：地主 $2，每位农民 $1', 'Cy 的王炸：地主再付 $4，每位农民再付 $2']);
  });
});

describe('priorityDrawLines', () => {
  it("tells a first deal's priority draw round by round, then who drew highest", () => {
    const deal = dealView({ priority_draws: [['8C', 'JH', 'JS'], [null, '4C', 'AS']], first: 2 });
    expect(priorityDrawLines(deal, name)).toEqual({
      rounds: ['Round 1: Ann 8♣ · Bo J♥ · Cy J♠', 'Round 2: Bo 4♣ · Cy A♠'],
      winner: 'Cy drew highest: the first option',
    });
    expect(dealLog(deal, [], name).slice(0, 3)).toEqual([
      'Round 1: Ann 8♣ · Bo J♥ · Cy J♠',
      'Round 2: Bo 4♣ · Cy A♠',
      'Cy drew highest: the first option',
    ]);
  });

  it('has nothing to tell of a deal without a draw', () => {
    expect(priorityDrawLines(dealView({ priority_draws: [] }), name)).toBeNull();
  });
});

describe('dealLogEntries', () => {
  const actions: Action[] = [
    { action: 'pass', seat: 0 },
    { action: 'take', seat: 1 },
    { action: 'seen', seat: 0 },
    { action: 'seen', seat: 2 },
    play(1, ['4S', '4H'], { type: 'pair', main: '4' }),
    { action: 'pass', seat: 2 },
  ];

  it('tells the deal step by step, naming the landlord once the auction is behind', () => {
    expect(dealLogEntries(dealView({ actions, landlord: 1 }), [], name)).toEqual([
      { text: 'Ann passed', step: 1 },
      { text: 'Bo took the middle cards', step: 2 },
      { text: 'Bo is the landlord', step: 2 },
      { text: 'Bo: pair of 4s', step: 5 },
      { text: 'Cy passed', step: 6 },
    ]);
  });

  it('marks the turns the clock had the bot play', () => {
    expect(dealLog(dealView({ actions, landlord: 1 }), [5], name).at(-1)).toBe(
      'Cy passed (the bot played: time ran out)',
    );
  });

  it("ends a finished deal with its outcome and score lines, at the deal's last step", () => {
    const deal = dealView({
      actions,
      landlord: 1,
      result: result({ winner: 1, landlord_won: true }),
      score_lines: [{ line: 'pot_won', pot: 6, won: [0, 6, 0] }],
    });
    expect(dealLogEntries(deal, [], name).slice(-2)).toEqual([
      { text: 'The landlord wins!', step: 6 },
      { text: 'Bo took the $6 pot', step: 6 },
    ]);
  });

  it('tells the deal in Chinese', () => {
    i18n.lang = 'zh';
    expect(dealLog(dealView({ actions, landlord: 1 }), [], name)).toEqual([
      'Ann 不出',
      'Bo 拿了底牌',
      'Bo 当地主',
      'Bo：对 4',
      'Cy 不出',
    ]);
  });
});
