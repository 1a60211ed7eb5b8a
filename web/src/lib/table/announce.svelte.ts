// What the table tells the player outside the page's content: a sound when the turn comes to them, one for
// every action (play, pass, bomb, rocket, airplane; `lib/feel.ts` says which) with its spoken call, ticks in
// the clock's last seconds, the deal's end (spring, win or loss), the tab's title while the table waits for
// them (Home sets it back), and for screen readers a polite live region (`Spoken`, in `pages/Table.svelte`)
// that says every seat's action, who is the landlord, the player's turn and the deal's result, in the
// player's language.

import { actionSound, actionSpeech } from '../feel';
import { i18n, language, t } from '../i18n.svelte';
import { playSound, speak } from '../sound.svelte';
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
  let actionsHeard = -1;
  /** Null until the room's first state: a result already there then is old news. */
  let resultHeard: boolean | null = null;
  $effect(() => {
    const turn = table.myTurn && !table.mustSee;
    if (turn && !wasMyTurn) playSound('turn');
    wasMyTurn = turn;
  });
  $effect(() => {
    const actions = table.deal?.actions ?? [];
    // Several actions in one state (a reconnection, quick bots): only the latest is heard.
    const latest = actions.slice(Math.max(0, actionsHeard)).reverse().find((a) => actionSound(a) !== null);
    if (actionsHeard >= 0 && actions.length > actionsHeard && latest) {
      playSound(actionSound(latest)!);
      const call = actionSpeech(latest, i18n.lang === 'zh' ? 'zh' : 'en');
      if (call) speak(call, language().tag);
    }
    actionsHeard = actions.length;
  });
  $effect(() => {
    if (!table.room) return;
    const result = table.deal?.result;
    if (result && resultHeard === false) {
      const score = table.me === null ? null : result.score[table.me];
      if (result.spring) playSound('spring');
      if (score !== null) setTimeout(() => playSound(score >= 0 ? 'win' : 'loss'), result.spring ? 450 : 0);
    }
    resultHeard = !!result;
  });
  // The clock's last five seconds of the player's turn tick.
  $effect(() => {
    const deadline = table.room?.turn_deadline;
    if (!deadline || !table.myTurn) return;
    let ticked = Infinity;
    const timer = setInterval(() => {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 5 && left >= 1 && left < ticked) playSound('clock');
      ticked = Math.min(ticked, left);
    }, 200);
    return () => clearInterval(timer);
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
