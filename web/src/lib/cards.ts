import { tableRules } from './tables';
import type { Card } from './types';
import type { Rules } from './wire';
import { t } from './i18n.svelte';
import type { Key } from './lang';

const ORDER = '3456789TJQKA2';

/** Sort key: rank (jokers and the Wild highest), then suit. */
export function cardKey(card: Card): number {
  if (card === 'W') return 100;
  if (card === 'RJ') return 99;
  if (card === 'BJ') return 98;
  return ORDER.indexOf(card[0]) * 4 + 'CDHS'.indexOf(card[1]);
}

/** High cards first, as most Dou Dizhu tables show a hand. */
export function sortHand(cards: Card[]): Card[] {
  return [...cards].sort((a, b) => cardKey(b) - cardKey(a));
}

export const SUIT: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

/** A rank (`rankOf`) as the cards show it: `10`, not `T`; the jokers and the Wild in short. */
export function rankText(rank: string): string {
  if (rank === 'BJ') return t('bjShort');
  if (rank === 'RJ') return t('rjShort');
  if (rank === 'W') return t('wildShort');
  return rank === 'T' ? '10' : rank;
}

export function isRed(card: Card): boolean {
  return card === 'RJ' || card[1] === 'H' || card[1] === 'D';
}

const SUIT_NAME: Record<string, Key> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
/** The court cards' and the ace's names in the player's language (红桃A, not 红桃Ace). */
const RANK_NAME: Record<string, Key> = { J: 'rankJack', Q: 'rankQueen', K: 'rankKing', A: 'rankAce' };

/** The card in words, for screen readers and the joker labels. */
export function cardName(card: Card): string {
  if (card === 'W') return t('wild');
  if (card === 'BJ') return t('blackJoker');
  if (card === 'RJ') return t('redJoker');
  const court = RANK_NAME[card[0]];
  const rank = court ? t(court) : card[0] === 'T' ? '10' : card[0];
  return t('cardName', { rank, suit: t(SUIT_NAME[card[1]]) });
}

/** A card's rank for counting and typing: `3`..`2` (`T` for 10), `BJ`, `RJ` or `W`. */
export function rankOf(card: Card): string {
  return card.length === 2 && card !== 'BJ' && card !== 'RJ' ? card[0] : card;
}

/**
 * The keyboard's ranks: `3`-`9`, `0` or `T` for 10 (a typed `1` is skipped, so `10` works too), `J Q K A 2`,
 * `B` the Black Joker, `R` the Red Joker, `W` the Wild. Case does not matter. Null for any other key.
 */
export function keyRank(key: string): string | null {
  const k = key.toUpperCase();
  if (k.length !== 1) return null;
  if ('3456789JQKA2'.includes(k)) return k;
  if (k === '0' || k === 'T') return 'T';
  return { B: 'BJ', R: 'RJ', W: 'W' }[k] ?? null;
}

/** Every card of the table's deck (`DealView.rules`): Two Player has no 3s and 4s, only House has the Wild. */
export function deckOf(rules: Rules): Card[] {
  const table = tableRules(rules);
  const ranks = table.table === 'two_player' ? '56789TJQKA2' : ORDER;
  const cards = [...ranks].flatMap((r) => [...'SHDC'].map((s) => r + s));
  cards.push('BJ', 'RJ');
  if (table.wild) cards.push('W');
  return cards;
}

/**
 * The card counter: how many cards of each rank this player has not seen, from public information only
 * (the deck minus the own hand, the cards played and the revealed middle or bottom cards). High ranks first.
 */
export function unseenRanks(rules: Rules, hand: Card[], played: Card[], revealed: Card[]): [string, number][] {
  const seen = new Set([...hand, ...played, ...revealed]);
  const counts = new Map<string, number>();
  for (const card of [...deckOf(rules)].sort((a, b) => cardKey(b) - cardKey(a))) {
    const rank = rankOf(card);
    counts.set(rank, (counts.get(rank) ?? 0) + (seen.has(card) ? 0 : 1));
  }
  return [...counts];
}
