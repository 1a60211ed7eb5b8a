// The client's addresses, built and read in one place: a room (`/?room=CODE`, the invite link; `#/room/CODE`
// is still read), a room watched without a name (`/watch/CODE`), a finished deal's replay (`/replay/CODE/N`, a real path: the server serves the page for
// any path outside /api), the boards (`#/boards/KIND`) and a player's page (`/@/NAME`). The server and
// the browser tests use these addresses: they must not change. A player's page has a clean address to share,
// `/@/NAME` (a real path, as a replay's: Me and every name link there); `#/stats/NAME` is still read. Quick match's waiting page is `#/quick` (the
// ticket it waits on is in sessionStorage, `lib/quick.ts`); Play vs 2 Bots without the server is `#/offline`.
// The tournaments are listed at `#/tournaments`, and one tournament's page is `#/tournaments/ID` (ids may hold
// dashes: `house-sit-and-go-3`). Puzzles are at `#/puzzles` (today's) and each at `#/puzzles/ID`; the bot game a
// built-in puzzle came from is replayed at `#/puzzles/ID/deal`.

/** What an address shows. */
export type Address =
  | { view: 'home' }
  | { view: 'room'; code: string }
  | { view: 'watch'; code: string }
  | { view: 'replay'; code: string; deal: number }
  | { view: 'boards'; board: string }
  | { view: 'stats'; player: string }
  | { view: 'quick' }
  | { view: 'offline' }
  | { view: 'tournaments' }
  | { view: 'tournament'; id: string }
  | { view: 'puzzle'; id: string | null }
  | { view: 'puzzleDeal'; id: string };

/** What a replay shows: a room's finished deal, or the bot game a puzzle came from. */
export type ReplaySource = { code: string; deal: number } | { puzzle: string };

/** The current address: a watched room, a replay, a boards or stats page (their hash may follow a room's
 * query), then a room. */
export function currentAddress(): Address {
  const watch = location.pathname.match(/^\/watch\/([A-Za-z0-9]+)\/?$/);
  if (watch) return { view: 'watch', code: watch[1].toUpperCase() };
  const replay = location.pathname.match(/^\/replay\/([A-Za-z0-9]+)\/(\d+)\/?$/);
  if (replay) return { view: 'replay', code: replay[1].toUpperCase(), deal: Number(replay[2]) };
  const page = location.pathname.match(/^\/@\/([^/]+)\/?$/);
  if (page && !location.hash) return { view: 'stats', player: decodeURIComponent(page[1]) };
  const boards = location.hash.match(/^#\/boards(?:\/(\w+))?/);
  if (boards) return { view: 'boards', board: boards[1] ?? 'overall' };
  const stats = location.hash.match(/^#\/stats\/(.+)$/);
  if (stats) return { view: 'stats', player: decodeURIComponent(stats[1]) };
  if (/^#\/quick\/?$/.test(location.hash)) return { view: 'quick' };
  // A recurring event's id is its slug and run (`hourly-house-29942280`).
  const tournament = location.hash.match(/^#\/tournaments(?:\/([A-Za-z0-9-]+))?\/?$/);
  if (tournament) return tournament[1] ? { view: 'tournament', id: tournament[1] } : { view: 'tournaments' };
  if (/^#\/offline\/?$/.test(location.hash)) return { view: 'offline' };
  const puzzleDeal = location.hash.match(/^#\/puzzles\/([a-f0-9]+)\/deal\/?$/);
  if (puzzleDeal) return { view: 'puzzleDeal', id: puzzleDeal[1] };
  const puzzle = location.hash.match(/^#\/puzzles(?:\/([a-f0-9]+))?\/?$/);
  if (puzzle) return { view: 'puzzle', id: puzzle[1] ?? null };
  const query = new URLSearchParams(location.search).get('room');
  const hash = location.hash.match(/^#\/room\/([A-Za-z0-9]+)/)?.[1];
  const code = (query ?? hash)?.toUpperCase();
  return code ? { view: 'room', code } : { view: 'home' };
}

export const HOME_PATH = '/';

/** Quick match's waiting page. */
export const QUICK_PATH = '/#/quick';

/** Play vs 2 Bots in this browser, without the server (`lib/offline.svelte.ts`). */
export const OFFLINE_PATH = '/#/offline';

/** A room's address on this site; `roomLink` is the same, whole, to share. */
export function roomPath(code: string): string {
  return `/?room=${code}`;
}

export function roomLink(code: string): string {
  return location.origin + roomPath(code);
}

/** A room to watch as a spectator, without a name; `watchLink` is the same, whole, to share. */
export function watchPath(code: string): string {
  return `/watch/${code}`;
}

export function watchLink(code: string): string {
  return location.origin + watchPath(code);
}

/** Deal `deal` (1-based) of a room, replayed step by step; `replayLink` is the same, whole, to share. */
export function replayPath(code: string, deal: number): string {
  return `/replay/${code}/${deal}`;
}

export function replayLink(code: string, deal: number): string {
  return location.origin + replayPath(code, deal);
}

/** A board (`overall`, `lobby`, `buster`, `bomber`, `rally`); without one, the overall board. */
export function boardsHash(board?: string): string {
  return board ? `#/boards/${board}` : '#/boards';
}

/**
 * Follows a link to a path of the app (a player's page, a replay) in place, as the shell's tabs change the page:
 * the app reads the new address as it does after Back (`popstate`). A click meant for a new tab or window is
 * left to the browser.
 */
export function openInPlace(e: MouseEvent) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  history.pushState(null, '', (e.currentTarget as HTMLAnchorElement).href);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A player's page (`pages/Stats.svelte`); `playerLink` is the same, whole, to share. */
export function playerPath(player: string): string {
  return `/@/${encodeURIComponent(player)}`;
}

export function playerLink(player: string): string {
  return location.origin + playerPath(player);
}

/** The tournaments' lists; with an id, that tournament's page. */
export function tournamentsHash(id?: string): string {
  return id ? `#/tournaments/${id}` : '#/tournaments';
}

/** The puzzles: today's, or with an id that puzzle's own address. */
export function puzzlesHash(id?: string): string {
  return id ? `#/puzzles/${id}` : '#/puzzles';
}

/** The bot game puzzle `id` came from, replayed from the puzzle's position. */
export function puzzleDealHash(id: string): string {
  return `#/puzzles/${id}/deal`;
}

/** The shell's tabs (`components/shell/Shell.svelte`): the hall, the tournaments, the boards, the player's own page. */
export type Tab = 'play' | 'tournaments' | 'boards' | 'me';
