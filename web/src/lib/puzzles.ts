// Puzzles in the page (docs/puzzles.md), the part without a page: a position's hands as cards to show, the move a
// selection of cards makes, who is to move and on which side, and the set kept for playing offline. The solver
// is the engine's (`engine.puzzle`, the same code the server checks attempts with); nothing here judges a move.

import type { Card } from './types';
import type { Endgame, PuzzleView, Reading } from './wire';
import offlineSet from './puzzles-offline.json';

/** A move: a reading, or `null` for a pass. */
export type Move = Reading | null;

/** The rank order the engine counts cards in: a move's cards and a selection compare in it. */
const SLOTS = '3456789TJQKA2BRW';
const SUITS = 'SHDC';

/** A hand's ranks (`"334BR"`) as cards to show: suits given in turn (a puzzle's hands are counted by rank,
 * and suits never decide a play); `B` and `R` the jokers, `W` the Wild. */
export function handCards(ranks: string): Card[] {
  const seen: Record<string, number> = {};
  return [...ranks].map((rank) => {
    if (rank === 'B') return 'BJ';
    if (rank === 'R') return 'RJ';
    if (rank === 'W') return 'W';
    const n = (seen[rank] = (seen[rank] ?? 0) + 1);
    return `${rank}${SUITS[(n - 1) % 4]}`;
  });
}

/** A card's rank as the engine writes it. */
function rankLetter(card: Card): string {
  if (card === 'BJ') return 'B';
  if (card === 'RJ') return 'R';
  return card === 'W' ? 'W' : card[0];
}

/** Ranks in the engine's order, for comparing. */
function canonical(ranks: string): string {
  return [...ranks].sort((a, b) => SLOTS.indexOf(a) - SLOTS.indexOf(b)).join('');
}

/** The moves (not passes) that play exactly the cards selected. */
export function movesOfCards(moves: Move[], cards: Card[]): Reading[] {
  const chosen = canonical(cards.map(rankLetter).join(''));
  return moves.filter((m): m is Reading => m !== null && canonical(m.ranks) === chosen);
}

/** Whether two moves are the same move (the same cards read the same way). */
export function sameMove(a: Move, b: Move): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.type === b.type &&
    a.main === b.main &&
    a.length === b.length &&
    canonical(a.ranks) === canonical(b.ranks) &&
    canonical(a.wild_as ?? '') === canonical(b.wild_as ?? '')
  );
}

/** Whether the seat to move plays on the side that solves the puzzle. */
export function solversToMove(start: Endgame, at: Endgame): boolean {
  return (start.turn === start.landlord) === (at.turn === at.landlord);
}

/** The cards of a move to highlight in the hand (the hint): which cards of `hand` it plays. */
export function cardsOfMove(hand: Card[], move: Reading): Set<Card> {
  const wanted = [...move.ranks];
  const chosen = new Set<Card>();
  for (const card of hand) {
    const at = wanted.indexOf(rankLetter(card));
    if (at >= 0) {
      wanted.splice(at, 1);
      chosen.add(card);
    }
  }
  return chosen;
}

/** The puzzles this page keeps for playing without the server (the first of the built-in set; a server test
 * keeps them the same). */
export const OFFLINE_PUZZLES = offlineSet as PuzzleView[];

/** An offline puzzle: the one after `last`, round the set. */
export function offlinePuzzle(last: string | null): PuzzleView {
  const at = OFFLINE_PUZZLES.findIndex((p) => p.id === last);
  return OFFLINE_PUZZLES[(at + 1) % OFFLINE_PUZZLES.length];
}
