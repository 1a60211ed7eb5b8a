// The player's name, remembered across visits (localStorage): Home and an invite link's page fill their name
// field with it, the table joins under it, the boards mark the player's own row and a replay's review asks
// about their seat by default.

const KEY = 'ddz.name';

export const player = $state({ name: localStorage.getItem(KEY) ?? '' });

/** Remembers `name`, trimmed, as the player's. */
export function rememberName(name: string) {
  player.name = name.trim();
  localStorage.setItem(KEY, player.name);
}
