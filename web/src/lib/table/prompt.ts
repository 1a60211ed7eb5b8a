// The answers the prompt offers outside the play (Seen, take or pass, the bids, call and rob): the buttons
// of `components/table/Controls.svelte` and what a typed word may say (`TypedPlay.svelte`), from one list.

import { t } from '../i18n.svelte';
import type { Word } from '../typed';
import type { ClientAction } from '../types';
import type { TableState } from './table.svelte';

export interface Choice {
  action: ClientAction;
  label: string;
  primary: boolean;
}

/** Seen while the middle cards wait for this player, else the auction's answers on their turn; else none. */
export function promptChoices(table: TableState): Choice[] {
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
