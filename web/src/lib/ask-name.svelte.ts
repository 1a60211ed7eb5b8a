// The name, asked once: an action that needs a name (play, register, create a room) awaits `withName()`, which
// answers the remembered name at once, or opens the name dialog (`components/NameDialog.svelte`, one for the
// whole app) and answers what the player typed there, or null if they cancelled. The tapped action then goes on.

import { player, rememberName } from './name.svelte';

export const nameDialog = $state({ open: false });

let waiting: ((name: string | null) => void) | null = null;

export function withName(): Promise<string | null> {
  if (player.name) return Promise.resolve(player.name);
  // A second tap while the dialog is open waits on the same answer.
  waiting?.(null);
  nameDialog.open = true;
  return new Promise((resolve) => (waiting = resolve));
}

/** The dialog's answer: a name (remembered), or null when the player cancelled. */
export function answerName(name: string | null) {
  const typed = name?.trim() || null;
  if (typed) rememberName(typed);
  nameDialog.open = false;
  const resolve = waiting;
  waiting = null;
  resolve?.(typed);
}
