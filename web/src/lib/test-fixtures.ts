// The server's shapes as the unit tests (`*.test.ts`) need them: a field a test does not name has a plain
// value. Not part of the client: nothing outside the tests imports this.

import type { Action, DealResult, DealView, Reading } from './types';

/** A reading; by default a single 3. */
export function reading(fields: Partial<Reading> = {}): Reading {
  return {
    type: 'single',
    main: '3',
    length: 1,
    attach: 'none',
    attach_count: 0,
    strength: null,
    ranks: fields.main ?? '3',
    wild_as: null,
    text: '',
    ...fields,
  };
}

/** A play action of `seat` with these cards, read as `play`. */
export function play(seat: number, cards: string[], fields: Partial<Reading>): Action {
  return { action: 'play', seat, cards, play: reading(fields) };
}

/** A finished deal's result; by default the landlord (seat 0) went out and won. */
export function result(fields: Partial<DealResult> = {}): DealResult {
  return {
    end: 'out',
    winner: 0,
    landlord_won: true,
    spring: false,
    bombs: 0,
    multiplier: 1,
    auction_value: 1,
    score: [2, -1, -1],
    ...fields,
  };
}

/** A deal as a seat sees it; by default a House deal of three, in its play, with nothing done yet. */
export function dealView(fields: Partial<DealView> = {}): DealView {
  return {
    rules: 'house',
    wild_rank: null,
    seat: 0,
    phase: 'play',
    first: 0,
    priority_draws: [],
    auction: { type: 'take_or_pass', passes: 0 },
    landlord: null,
    waiting_for: [],
    hand: [],
    hand_sizes: [17, 17, 17],
    bottom: null,
    seen: [false, false, false],
    trick: null,
    actions: [],
    paid: [0, 0, 0],
    pot: 0,
    ante: 0,
    multiplier: 1,
    auction_value: 1,
    allowance: null,
    bombs: 0,
    result: null,
    last_moves: [null, null, null],
    hands_at_end: null,
    score_lines: [],
    fairness: null,
    ...fields,
  };
}
