// What the table tells the player outside the page's content: a beep when the turn comes to them, a short one
// for every play, the tab's title while the table waits for them (Home sets it back), and for screen readers
// a polite live region (`Spoken`, in `pages/Table.svelte`) that says every seat's action, who is the landlord, the
// player's turn and the deal's result, in the player's language.

import { t } from '../i18n.svelte';
import { beep } from '../sound.svelte';
import { actionText, outcomeText } from '../story';
import type { TableState } from './table.svelte';

/** The live region's latest lines: a screen reader reads each line as it is added. */
export class Spoken {
  lines = $state.raw<{ id: number; text: string }[]>([]);
  private said = 0;

  say(text: string) {
    // Old lines go: they were read when they came, and the region stays small.
    this.lines = [...this.lines.slice(-9), { id: ++this.said, text }];
  }
}

/** Call while a component initialises: the effects follow the table from then on. */
export function announce(table: TableState): Spoken {
  const spoken = new Spoken();
  let wasMyTurn = false;
  let playsHeard = -1;
  $effect(() => {
    const turn = table.myTurn && !table.mustSee;
    if (turn && !wasMyTurn) beep('turn');
    wasMyTurn = turn;
  });
  $effect(() => {
    const plays = (table.deal?.actions ?? []).filter((a) => a.action === 'play').length;
    if (playsHeard >= 0 && plays > playsHeard) beep('play');
    playsHeard = plays;
  });
  $effect(() => {
    document.title = table.myTurn ? t('turnTitle') : t('title');
  });

  // Speech follows one deal (its commitment) from the state the page first found: a page opened mid-deal
  // does not read the deal's story back; a deal that starts later is told from its start.
  let dealId: string | null = null;
  let heard = 0;
  let landlordSaid = false;
  let turnSaid = false;
  let resultSaid = false;
  $effect(() => {
    const deal = table.deal;
    if (!deal) {
      // A room seen between deals: its next deal is new.
      if (table.room) dealId ??= '';
      return;
    }
    const id = deal.fairness?.commitment ?? '';
    const name = (seat: number) => table.seatName(seat);
    if (dealId === null || id !== dealId || deal.actions.length < heard) {
      const firstSight = dealId === null;
      dealId = id;
      heard = firstSight ? deal.actions.length : 0;
      landlordSaid = firstSight && deal.landlord !== null;
      turnSaid = false;
      resultSaid = firstSight && !!deal.result;
    }
    for (const action of deal.actions.slice(heard)) {
      const text = actionText(action, name);
      if (text) spoken.say(text);
    }
    heard = deal.actions.length;
    if (!landlordSaid && deal.landlord !== null) {
      // At House the take said it already.
      if (!deal.actions.some((a) => a.action === 'take')) spoken.say(t('actLandlord', { name: name(deal.landlord) }));
      landlordSaid = true;
    }
    const turn = table.myTurn && !table.mustSee;
    if (turn && !turnSaid) spoken.say(t('yourTurn'));
    turnSaid = turn;
    if (deal.result && !resultSaid) {
      const me = table.me;
      const score = me === null ? null : deal.result.score[me];
      const mine =
        score === null ? '' : ` ${t(score >= 0 ? 'youWon' : 'youLost', { amount: table.scoreText(Math.abs(score)) })}`;
      spoken.say(outcomeText(deal) + mine);
      resultSaid = true;
    }
  });
  return spoken;
}
