// The HTTP API (docs/protocol.md, "HTTP"): every request and answer body is a type generated from the
// server's Rust types (`wire.ts`).

import { errorText } from './errors';
import { forgetKey, nameKey } from './keys.svelte';
import { t } from './i18n.svelte';
import type {
  Board,
  BoardName,
  BotKind,
  ChallengeKind,
  ChallengeStarted,
  CreateRoom,
  CreateTournament,
  DealRecord,
  DealReview,
  Hall,
  HintPlay,
  Hints,
  JoinQuickMatch,
  NameCard,
  PuzzleBoard,
  PuzzleDeal,
  PuzzleResult,
  PuzzleView,
  Reading,
  NameSecrets,
  PlayerStats,
  PlayedDeals,
  PlayVsBots,
  Position,
  ProtectName,
  QuickMatch,
  Rallies,
  RallyComparison,
  RatingBoard,
  ReadingsAnswer,
  RecoverName,
  Replay,
  RoomCreated,
  RoomDeals,
  RoomView,
  StartChallenge,
  TableType,
  TournamentCreated,
  TournamentEntry,
  TournamentRules,
  TournamentFollow,
  TournamentFormat,
  Tournaments,
  TournamentSettings,
  TournamentView,
} from './wire';

export type { Position };

/** A refused request: the server's error in the player's language, with the HTTP status and error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Whether a failed request means that the server cannot be reached (no network, nothing answering, or a
 * balancer in front with no server behind it), rather than a refusal: Play vs 2 Bots then plays offline.
 */
export function unreachable(e: unknown): boolean {
  return !(e instanceof ApiError) || [502, 503, 504].includes(e.status);
}

/** `fetch`, with a failure to reach the server worded for the player, never the browser's own message. */
async function request(path: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new Error(t(navigator.onLine ? 'serverUnreachable' : 'networkOffline'));
  }
}

async function send<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await request(path, init);
  if (res.status === 204) return undefined as T;
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, json.code, errorText(json.code, json.message ?? `HTTP ${res.status}`));
  return json as T;
}

function post<T>(path: string, body: unknown): Promise<T> {
  return send(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

function get<T>(path: string): Promise<T> {
  return send(path);
}

/**
 * A request that acts as `name`, sent with the name's key if this browser keeps one. A key the server refuses
 * is forgotten: the name was recovered on another device, and only its new code takes it back.
 */
async function asName<T, B extends { name: string; key: string | null } = { name: string; key: string | null }>(
  path: string,
  body: B,
): Promise<T> {
  try {
    return await post<T>(path, body);
  } catch (e) {
    if (body.key && e instanceof ApiError && e.code === 'name_protected') forgetKey(body.name);
    throw e;
  }
}

export function playVsBots(name: string, wild: boolean, level: BotKind): Promise<RoomCreated> {
  const body: PlayVsBots = { name, key: nameKey(name), table: 'house', wild, level };
  return asName('/api/play-vs-bots', body);
}

export function createRoom(name: string, table: TableType, wild: boolean, open = false): Promise<RoomCreated> {
  const body: CreateRoom = { name, key: nameKey(name), table, wild, public: open };
  return asName('/api/rooms', body);
}

/** Quick match: joins the queue for a table type (a name already waiting gets its own ticket back). */
export function joinQuickMatch(name: string, table: TableType): Promise<QuickMatch> {
  const body: JoinQuickMatch = { name, key: nameKey(name), table };
  return asName('/api/quick-match', body);
}

/** How a quick-match ticket stands (polling keeps it in the queue); null once it is gone (left or expired). */
export async function pollQuickMatch(ticket: string): Promise<QuickMatch | null> {
  try {
    return await get<QuickMatch>(`/api/quick-match/${encodeURIComponent(ticket)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** Leaves the quick-match queue; false where the ticket was no longer waiting (left, expired or matched). */
export async function leaveQuickMatch(ticket: string): Promise<boolean> {
  try {
    await send(`/api/quick-match/${encodeURIComponent(ticket)}`, { method: 'DELETE' });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
}

/** A room as a spectator sees it (closed rooms too). */
export function roomView(code: string): Promise<RoomView> {
  return get(`/api/rooms/${encodeURIComponent(code)}`);
}

/** Deal `deal` (1-based) of a room, step by step, every hand face up. */
export function replay(code: string, deal: number): Promise<Replay> {
  return get(`/api/rooms/${encodeURIComponent(code)}/deals/${deal}`);
}

/** A room's finished deals' records, deal 1 first. */
export async function roomDeals(code: string): Promise<DealRecord[]> {
  return (await get<RoomDeals>(`/api/rooms/${encodeURIComponent(code)}/deals`)).deals;
}

/** Starts a Bot Buster or Bot Bomber run or today's rally, or resumes the name's unfinished one. */
export function startChallenge(name: string, kind: ChallengeKind): Promise<ChallengeStarted> {
  const body: StartChallenge = { name, key: nameKey(name), kind };
  return asName('/api/challenges', body);
}

/** `?name=READER` where there is a reader: the answer adds their own row, wherever it stands. */
function readerQuery(reader: string): string {
  return reader ? `name=${encodeURIComponent(reader)}` : '';
}

/** A board (of a day, for the rally), with the reader's own row (`you`) wherever it stands. */
export function board(name: BoardName, date: string | undefined, reader: string): Promise<Board> {
  const query = [date ? `date=${encodeURIComponent(date)}` : '', readerQuery(reader)].filter(Boolean).join('&');
  return get(`/api/boards/${name}${query ? `?${query}` : ''}`);
}

export function rallies(): Promise<Rallies> {
  return get('/api/rallies');
}

export function compareRally(date: string, name: string): Promise<RallyComparison> {
  return get(`/api/rallies/${date}/compare/${encodeURIComponent(name)}`);
}

/** A player's stat lines, whether the name is protected, their rating in each table family with its history, and
 * where they stand in each challenge. */
/** A name as the server reads it, with its key: what the page compares instead of names. */
export function nameCard(name: string): Promise<NameCard> {
  return get(`/api/names/${encodeURIComponent(name)}`);
}

export function playerStats(name: string): Promise<PlayerStats> {
  return get(`/api/players/${encodeURIComponent(name)}`);
}

/** A table type's ratings board, with the reader's own row (`you`) wherever it stands. */
export function ratingBoard(table: TableType, reader: string): Promise<RatingBoard> {
  const query = readerQuery(reader);
  return get(`/api/ratings/${table}${query ? `?${query}` : ''}`);
}

/** The deals `name` played, newest first, a page at a time: `before` is the last page's `next`. */
export function playedDeals(name: string, before?: string, limit = 20): Promise<PlayedDeals> {
  const query = `limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
  return get(`/api/players/${encodeURIComponent(name)}/deals?${query}`);
}

/** Protects `name` (docs/names.md): its key, to keep, and its recovery code, to show once. */
export function protectName(name: string): Promise<NameSecrets> {
  const body: ProtectName = { name };
  return post('/api/names/protect', body);
}

/** A protected name's recovery code for a new key and a new code (the old ones stop working). */
export function recoverName(name: string, code: string): Promise<NameSecrets> {
  const body: RecoverName = { name, code };
  return post('/api/names/recover', body);
}

export function readings(pos: Position): Promise<ReadingsAnswer> {
  return post('/api/readings', pos);
}

export async function hints(pos: Position): Promise<HintPlay[]> {
  return (await post<Hints>('/api/hints', pos)).plays;
}

/** The `hard` bot's review of one seat's trick play in deal `deal` (worked out on first asking, then kept). */
export function review(code: string, deal: number, seat: number): Promise<DealReview> {
  return get(`/api/rooms/${encodeURIComponent(code)}/deals/${deal}/reviews/${seat}`);
}

/** The hall's live state (the `watch_hall` socket keeps it up to date). */
export function hall(): Promise<Hall> {
  return get('/api/hall');
}

/** The tournaments: upcoming, running and finished. */
/** Today's puzzle (UTC), the same for everyone. */
export function dailyPuzzle(): Promise<PuzzleView> {
  return get('/api/puzzles/daily');
}

/** A puzzle `name` has not attempted, near their puzzle rating. */
export function nextPuzzle(name: string): Promise<PuzzleView> {
  return get(`/api/puzzles/next${name ? `?name=${encodeURIComponent(name)}` : ''}`);
}

export function puzzle(id: string): Promise<PuzzleView> {
  return get(`/api/puzzles/${encodeURIComponent(id)}`);
}

/** The bot game a built-in puzzle came from, played again, step by step from its position. */
export function puzzleDeal(id: string): Promise<PuzzleDeal> {
  return get(`/api/puzzles/${encodeURIComponent(id)}/deal`);
}

/** The solving side's moves of an attempt, checked (and rated once) by the server. */
export function attemptPuzzle(id: string, name: string, moves: (Reading | null)[]): Promise<PuzzleResult> {
  return asName(`/api/puzzles/${encodeURIComponent(id)}/attempt`, { name, key: nameKey(name), moves });
}

/** The puzzle board, with the reader's own rating. */
export function puzzleBoard(reader: string): Promise<PuzzleBoard> {
  const query = readerQuery(reader);
  return get(`/api/puzzles/board${query ? `?${query}` : ''}`);
}

/** What a host may choose: each table type's sizes and default settings, the bounds (the server's own rules). */
export function tournamentRules(): Promise<TournamentRules> {
  return get('/api/tournaments/rules');
}

export function tournaments(): Promise<Tournaments> {
  return get('/api/tournaments');
}

/** A tournament's page as `name` reads it: `you` says where the name stands, once registered (the
 * `follow_tournament` socket, `TournamentFollower`, pushes the same as it changes). */
export function tournamentFollow(id: string, name: string): Promise<TournamentFollow> {
  const query = readerQuery(name);
  return get(`/api/tournaments/${encodeURIComponent(id)}/page${query ? `?${query}` : ''}`);
}

/** A new sit-and-go or scheduled event hosted by `name` (the host is not registered by it). */
export async function createTournament(
  name: string,
  table: TableType,
  format: TournamentFormat,
  settings?: TournamentSettings,
): Promise<string> {
  const body: CreateTournament = { name, key: nameKey(name), title: null, table, format, settings };
  return (await asName<TournamentCreated>('/api/tournaments', body)).id;
}

/** Registers `name` for a tournament, or withdraws them: the server answers the whole event as it stands after
 * (a follower of its page is pushed the change anyway). */
export function enterTournament(id: string, name: string, withdraw = false): Promise<void> {
  const body: TournamentEntry = { name, key: nameKey(name) };
  return asName(`/api/tournaments/${encodeURIComponent(id)}/${withdraw ? 'withdraw' : 'register'}`, body);
}
