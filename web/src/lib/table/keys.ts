// The table's keyboard (the Keys help and docs/client.md): typed ranks select cards; Enter, Space and H play,
// pass and hint on the player's turn; the arrows choose a reading; Backspace and Esc unselect; `/` goes to
// the field to type a play in.

import { keyRank, rankOf } from '../cards';
import type { Selection } from './selection.svelte';
import type { TableState } from './table.svelte';

/** The window's keydown handler for a table. */
export function tableKeys(table: TableState, selection: Selection, typePlay: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || table.me === null || !table.inDeal) return;
    // Text fields and dialogs keep their keys.
    if ((e.target as Element).closest('input, select, textarea, [role=dialog]')) return;
    const playing = table.playing;
    if (e.key === '/') typePlay();
    else if (e.key === 'Escape') selection.clear();
    else if (e.key === 'Backspace') selection.dropLast();
    else if (e.key === 'Enter' && playing) selection.play();
    else if (e.key === ' ' && playing) {
      if (table.prior) selection.pass();
    } else if ((e.key === 'h' || e.key === 'H') && playing) void selection.hint();
    else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && selection.options.length > 1)
      selection.cycleReading(e.key === 'ArrowRight' ? 1 : -1);
    else {
      // A rank adds the next unselected card of that rank; a rank the hand has no more of is ignored.
      const rank = keyRank(e.key);
      if (!rank) return;
      const card = table.hand.find((c) => rankOf(c) === rank && !selection.selected.includes(c));
      if (card) selection.setCard(card, true);
    }
    e.preventDefault();
  };
}
