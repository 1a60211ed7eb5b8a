// A play typed at the table (`components/table/TypedPlay.svelte`), read into what it asks for: a word of the prompt
// (pass, take, call, rob, seen, a bid) or the ranks of the cards to play. Only reading: which cards these
// are and whether they are a play is the hand's and the server's business (`Selection`).

import { keyRank, rankOf } from './cards';
import type { Card } from './types';

/** The prompt's answers a word can give: `no` is pass, no bid, decline or don't rob, whichever is asked. */
export type Word = 'no' | 'take' | 'call' | 'rob' | 'seen';

export type Typed =
  | { kind: 'word'; word: Word }
  | { kind: 'bid'; bid: number }
  | { kind: 'cards'; ranks: string[] }
  /** `part`: the first thing that is neither a word nor a rank. */
  | { kind: 'unreadable'; part: string };

// English and Chinese words alike, whatever the page's language: a player types what comes to mind.
const WORDS: Record<string, Word> = {
  pass: 'no',
  no: 'no',
  decline: 'no',
  'no bid': 'no',
  'no rob': 'no',
  "don't rob": 'no',
  过: 'no',
  不要: 'no',
  不出: 'no',
  不叫: 'no',
  不抢: 'no',
  take: 'take',
  拿: 'take',
  拿底牌: 'take',
  call: 'call',
  叫: 'call',
  叫地主: 'call',
  rob: 'rob',
  抢: 'rob',
  抢地主: 'rob',
  seen: 'seen',
  看过: 'seen',
  看过了: 'seen',
};

/** The jokers and the Wild by their Chinese names, as the letters the keyboard gives them. */
const NAMES: [RegExp, string][] = [
  [/小王/g, 'b'],
  [/大王/g, 'r'],
  [/百搭/g, 'w'],
];

/**
 * Reads a typed line. `bidding`: a lone 0-3 is a bid (while a bid is asked for; else it is a card). Cards
 * are ranks as the keyboard types them (`keyRank`), with `10` for a ten and spaces, commas and dashes
 * between them allowed: `33344`, `3 3 3 4 4`, `10 10 10`, `TTT`, `b r`. Null for an empty line.
 */
export function readTyped(text: string, bidding: boolean): Typed | null {
  const line = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!line) return null;
  if (Object.hasOwn(WORDS, line)) return { kind: 'word', word: WORDS[line] };
  const bid = /^(?:bid ?)?([0-3])$/.exec(line);
  if (bid && (bidding || line.startsWith('bid'))) return { kind: 'bid', bid: Number(bid[1]) };
  const letters = NAMES.reduce((s, [name, letter]) => s.replace(name, letter), line).replace(/[\s,-]+/g, '');
  const ranks: string[] = [];
  for (let i = 0; i < letters.length; i++) {
    // `10` is a ten: its 1 is skipped and its 0 read, as the keyboard does.
    if (letters[i] === '1' && letters[i + 1] === '0') continue;
    const rank = keyRank(letters[i]);
    if (!rank) return { kind: 'unreadable', part: letters[i] };
    ranks.push(rank);
  }
  return { kind: 'cards', ranks };
}

/**
 * The cards of the hand with these ranks, any suit, each card once; `missing` the ranks the hand has too
 * few of (in the typed order).
 */
export function cardsFor(hand: Card[], ranks: string[]): { cards: Card[]; missing: string[] } {
  const cards: Card[] = [];
  const missing: string[] = [];
  for (const rank of ranks) {
    const card = hand.find((c) => rankOf(c) === rank && !cards.includes(c));
    if (card) cards.push(card);
    else missing.push(rank);
  }
  return { cards, missing };
}
