// The player's name, remembered across visits (localStorage): Home and an invite link's page fill their name
// field with it, the table joins under it, and a replay's review asks about their seat by default. With it, the
// name's key as the server reads it (`GET /api/names/NAME`): the page compares keys the server gave (a seat's, a
// replay's seats'), never names, so that it agrees with the server on every spelling of a name.

import { nameCard } from './api';

const KEY = 'ddz.name';
const NAME_KEY = 'ddz.nameKey';

export const player = $state<{ name: string; key: string | null }>({
  name: localStorage.getItem(KEY) ?? '',
  key: localStorage.getItem(NAME_KEY),
});

/** Remembers `name`, trimmed, as the player's, and asks the server for its key. */
export function rememberName(name: string) {
  const trimmed = name.trim();
  if (trimmed !== player.name) {
    player.key = null;
    localStorage.removeItem(NAME_KEY);
  }
  player.name = trimmed;
  localStorage.setItem(KEY, player.name);
  void learnKey();
}

/** Asks the server for the player's name's key once (offline: when the page is next online). */
async function learnKey() {
  const asked = player.name;
  if (!asked || player.key) return;
  try {
    const card = await nameCard(asked);
    if (player.name !== asked) return;
    player.key = card.key;
    localStorage.setItem(NAME_KEY, card.key);
  } catch {
    // No server, or no name the server reads: the key stays unknown, and nothing is marked as the player's.
  }
}

void learnKey();
