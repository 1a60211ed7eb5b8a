// The answers the prompt offers outside the play (Seen, take or pass, the bids, call and rob): the buttons
// of `components/table/Controls.svelte` and what a typed word may say (`TypedPlay.svelte`), from one list;
// and what a line typed in the play field comes to (`typedAnswer`).

import { rankText } from '../cards';
import { errorText } from '../errors';
import { t } from '../i18n.svelte';
import { cardsFor, readTyped, type Word } from '../typed';
import type { Card, ClientAction } from '../types';
import type { TableState } from './table.svelte';

export interface Choice {
  action: ClientAction;
  label: string;
  primary: boolean;
}

/** Seen while the middle cards wait for this player, else the auction's answers on their turn; else none. */
export function promptChoices(table: Pick<TableState, 'deal' | 'mustSee' | 'myTurn'>): Choice[] {
  const deal = table.deal;
  if (table.mustSee) return [{ action: { action: 'seen' }, label: t('seen'), primary: true }];
  if (!deal || !table.myTurn || deal.phase !== 'auction') return [];
  const auction = deal.auction;
  const yes = (action: ClientAction, label: string): Choice => ({ action, label, primary: true });
  const no = (action: ClientAction, label: string): Choice => ({ action, label, primary: false });
  switch (auction.type) {
    case 'take_or_pass':
      // The third seat must take when both others passed.
      return [yes({ action: 'take' }, t('take')), ...(auction.passes < 2 ? [no({ action: 'pass' }, t('pass'))] : [])];
    case 'bidding': {
      const max = Math.max(0, ...auction.bids);
      const bids = [1, 2, 3].filter((n) => n > max).map((n) => yes({ action: 'bid', bid: n }, t('bid', { n })));
      return [...bids, no({ action: 'bid', bid: 0 }, t('noBid'))];
    }
    case 'call_and_rob':
      return auction.holder === null
        ? [yes({ action: 'call', call: true }, t('call')), no({ action: 'call', call: false }, t('decline'))]
        : [yes({ action: 'rob', rob: true }, t('rob')), no({ action: 'rob', rob: false }, t('noRob'))];
  }
}

/** Whether `action` is the answer a typed word or bid gives. */
export function answers(action: ClientAction, said: Word | number): boolean {
  switch (action.action) {
    case 'bid':
      return said === action.bid || (said === 'no' && action.bid === 0);
    case 'pass':
      return said === 'no';
    case 'call':
      return said === (action.call ? 'call' : 'no');
    case 'rob':
      return said === (action.rob ? 'rob' : 'no');
    default:
      return said === action.action;
  }
}

/** What a typed line comes to: one of the prompt's answers, a pass, the hand's cards to play, or why not. */
export type TypedAnswer =
  | { kind: 'act'; action: ClientAction }
  | { kind: 'pass' }
  | { kind: 'play'; cards: Card[] }
  | { kind: 'refused'; reason: string };

/** Where the player stands as they type: the prompt's answers, their turn to play, a trick to pass on, the hand. */
export interface TypedAt {
  choices: Choice[];
  playing: boolean;
  canPass: boolean;
  hand: Card[];
}

/**
 * A line typed in the play field, read (`readTyped`) and answered as the prompt would: a word or bid by the
 * choice it names, cards by the hand's cards of those ranks. A refusal says why in the player's language, as
 * the server would. Null when the line names nothing.
 */
export function typedAnswer(text: string, at: TypedAt): TypedAnswer | null {
  const typed = readTyped(text, at.choices.some((c) => c.action.action === 'bid'));
  if (!typed) return null;
  const refused = (reason: string): TypedAnswer => ({ kind: 'refused', reason });
  if (typed.kind === 'unreadable') return refused(t('typedUnreadable', { part: typed.part }));
  if (typed.kind === 'cards') {
    if (!at.playing) return refused(errorText(at.choices.length > 0 ? 'wrong_phase' : 'not_your_turn', undefined));
    const { cards, missing } = cardsFor(at.hand, typed.ranks);
    if (missing.length > 0) return refused(t('typedNotInHand', { cards: missing.map(rankText).join(' ') }));
    return cards.length > 0 ? { kind: 'play', cards } : null;
  }
  const said = typed.kind === 'bid' ? typed.bid : typed.word;
  const choice = at.choices.find((c) => answers(c.action, said));
  if (choice) return { kind: 'act', action: choice.action };
  if (at.playing && said === 'no' && at.canPass) return { kind: 'pass' };
  return refused(errorText(refusal(said, at), undefined));
}

/** Why a word or bid is not an answer now, as the server would say it. */
function refusal(said: Word | number, at: TypedAt): string {
  if (at.playing) return said === 'no' ? 'cannot_pass_on_lead' : 'wrong_phase';
  if (at.choices.length === 0) return 'not_your_turn';
  if (typeof said === 'number' && said > 0 && at.choices.some((c) => c.action.action === 'bid')) return 'bid_too_low';
  return said === 'no' && at.choices.every((c) => c.action.action === 'take') ? 'must_take' : 'wrong_phase';
}
