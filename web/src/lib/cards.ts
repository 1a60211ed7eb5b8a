import type { Card } from './types';
import { t, type Key } from './i18n.svelte';

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

export function rankLabel(card: Card): string {
  if (card === 'W') return t('wildShort');
  if (card === 'BJ' || card === 'RJ') return t('jokerShort');
  return card[0] === 'T' ? '10' : card[0];
}

export function isRed(card: Card): boolean {
  return card === 'RJ' || card[1] === 'H' || card[1] === 'D';
}

const SUIT_NAME: Record<string, Key> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_NAME: Record<string, string> = { T: '10', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };

/** The card in words, for screen readers and the joker labels. */
export function cardName(card: Card): string {
  if (card === 'W') return t('wild');
  if (card === 'BJ') return t('blackJoker');
  if (card === 'RJ') return t('redJoker');
  const rank = RANK_NAME[card[0]] ?? card[0];
  return t('cardName', { rank, suit: t(SUIT_NAME[card[1]]) });
}
