// What the table tells the player outside the page's content: a beep when the turn comes to them, a short one
// for every play, and the tab's title while the table waits for them (Home sets it back).

import { t } from '../lib/i18n.svelte';
import { beep } from '../lib/sound.svelte';
import type { TableState } from './table.svelte';

/** Call while a component initialises: the effects follow the table from then on. */
export function announceTurns(table: TableState) {
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
}
