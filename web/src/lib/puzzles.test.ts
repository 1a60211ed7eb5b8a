import { describe, expect, it } from 'vitest';
import { OFFLINE_PUZZLES, cardsOfMove, handCards, movesOfCards, offlinePuzzle, sameMove, solversToMove } from './puzzles';
import type { Endgame, Reading } from './wire';

const reading = (type: Reading['type'], main: string, ranks: string, wild_as?: string): Reading =>
  ({ type, main, length: 1, attach: 'none', attach_count: 0, ranks, wild_as, text: '' }) as Reading;

describe('a puzzle in the page', () => {
  it('shows a hand of ranks as cards, suits given in turn', () => {
    expect(handCards('3345BRW')).toEqual(['3S', '3H', '4S', '5S', 'BJ', 'RJ', 'W']);
  });

  it('finds the moves that play exactly the cards selected, in any order', () => {
    const pair = reading('pair', '3', '33');
    const single = reading('single', '3', '3');
    expect(movesOfCards([single, pair, null], ['3H', '3S'])).toEqual([pair]);
    expect(movesOfCards([single, pair, null], ['4S'])).toEqual([]);
  });

  it('tells moves apart by their cards and their reading, a pass by itself', () => {
    expect(sameMove(reading('pair', '3', '33'), reading('pair', '3', '33'))).toBe(true);
    expect(sameMove(reading('pair', '3', '3W', '3'), reading('pair', '3', 'W3', '3'))).toBe(true);
    expect(sameMove(reading('pair', '4', '4W', '4'), reading('pair', '3', '3W', '3'))).toBe(false);
    expect(sameMove(null, null)).toBe(true);
    expect(sameMove(null, reading('single', '3', '3'))).toBe(false);
  });

  it('marks the cards of the hinted move', () => {
    const hand = handCards('3345');
    expect([...cardsOfMove(hand, reading('pair', '3', '33'))]).toEqual(['3S', '3H']);
  });

  it('knows whose side is to move', () => {
    const start = { landlord: 0, turn: 1 } as Endgame;
    expect(solversToMove(start, { landlord: 0, turn: 2 } as Endgame)).toBe(true);
    expect(solversToMove(start, { landlord: 0, turn: 0 } as Endgame)).toBe(false);
  });

  it('keeps puzzles for offline play and goes round them', () => {
    expect(OFFLINE_PUZZLES.length).toBeGreaterThan(40);
    expect(offlinePuzzle(null).id).toBe(OFFLINE_PUZZLES[0].id);
    expect(offlinePuzzle(OFFLINE_PUZZLES[OFFLINE_PUZZLES.length - 1].id).id).toBe(OFFLINE_PUZZLES[0].id);
  });
});
