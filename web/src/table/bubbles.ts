// What each seat did last, for the bubble beside it: its action in the current trick or the auction, else its
// last play, dimmed.

import { t } from '../lib/i18n.svelte';
import { readingText } from '../lib/reading';
import type { Action, DealView } from '../lib/types';

export type Bubble = { pass: true } | { cards: string[]; text: string; old: boolean } | { say: string };

export function lastActions(deal: DealView, players: number): Record<number, Bubble> {
  const out: Record<number, Bubble> = {};
  let passes = 0;
  let started = false;
  for (const a of deal.actions) {
    if (a.seat === undefined) continue;
    if (a.action === 'play') {
      if (!started || passes >= players - 1) {
        // A new trick: earlier plays stay as each seat's last play; passes and auction words go.
        for (const [seat, b] of Object.entries(out)) {
          if ('cards' in b) b.old = true;
          else delete out[+seat];
        }
      }
      started = true;
      passes = 0;
      out[a.seat] = { cards: a.cards, text: readingText(a.play), old: false };
    } else if (a.action === 'pass' && started) {
      passes += 1;
      out[a.seat] = { pass: true };
    } else if (!started && a.action !== 'seen') {
      out[a.seat] = { say: auctionWords(a) };
    }
  }
  if (deal.phase !== 'auction' && !started) for (const k in out) delete out[k];
  return out;
}

function auctionWords(a: Action): string {
  switch (a.action) {
    case 'take':
      return t('landlord');
    case 'pass':
      return t('pass');
    case 'bid':
      return a.bid === 0 ? t('noBid') : t('bid', { n: a.bid });
    case 'call':
      return a.call ? t('call') : t('decline');
    case 'rob':
      return a.rob ? t('rob') : t('noRob');
    default:
      return '';
  }
}
