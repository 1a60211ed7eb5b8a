// The client's addresses, built and read in one place: a room (`/?room=CODE`, the invite link; `#/room/CODE`
// is still read), the boards (`#/boards/KIND`) and a player's stats (`#/stats/NAME`). The server and the
// browser tests use these addresses: they must not change.

/** What an address shows. */
export type Address =
  | { view: 'home' }
  | { view: 'room'; code: string }
  | { view: 'boards'; board: string }
  | { view: 'stats'; player: string };

/** The current address: a boards or stats page first (their hash may follow a room's query), then a room. */
export function currentAddress(): Address {
  const boards = location.hash.match(/^#\/boards(?:\/(\w+))?/);
  if (boards) return { view: 'boards', board: boards[1] ?? 'overall' };
  const stats = location.hash.match(/^#\/stats\/(.+)$/);
  if (stats) return { view: 'stats', player: decodeURIComponent(stats[1]) };
  const query = new URLSearchParams(location.search).get('room');
  const hash = location.hash.match(/^#\/room\/([A-Za-z0-9]+)/)?.[1];
  const code = (query ?? hash)?.toUpperCase();
  return code ? { view: 'room', code } : { view: 'home' };
}

export const HOME_PATH = '/';

/** A room's address on this site; `roomLink` is the same, whole, to share. */
export function roomPath(code: string): string {
  return `/?room=${code}`;
}

export function roomLink(code: string): string {
  return location.origin + roomPath(code);
}

/** A board (`overall`, `lobby`, `buster`, `bomber`, `rally`); without one, the overall board. */
export function boardsHash(board?: string): string {
  return board ? `#/boards/${board}` : '#/boards';
}

export function statsHash(player: string): string {
  return `#/stats/${encodeURIComponent(player)}`;
}
