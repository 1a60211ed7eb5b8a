// The HTTP API (docs/protocol.md, "HTTP"): every request and answer body is a type generated from the
// server's Rust types (`wire.ts`).

import { errorText } from './errors';
import { t } from './i18n.svelte';
import type {
  Board,
  BoardRow,
  ChallengeKind,
  ChallengeStarted,
  CreateRoom,
  DealRecord,
  DealReview,
  HintPlay,
  Hints,
  PlayerStats,
  PlayVsBots,
  Position,
  Rallies,
  RallyComparison,
  ReadingsAnswer,
  Replay,
  RoomCreated,
  RoomDeals,
  RoomView,
  StartChallenge,
  StatLine,
  TableType,
} from './wire';

export type { Position };

/** `fetch`, with a failure to reach the server worded for the player, never the browser's own message. */
async function request(path: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new Error(t(navigator.onLine ? 'serverUnreachable' : 'networkOffline'));
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorText(json.code, json.message ?? `HTTP ${res.status}`));
  return json as T;
}

async function get<T>(path: string): Promise<T> {
  const res = await request(path);
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorText(json.code, json.message ?? `HTTP ${res.status}`));
  return json as T;
}

export function playVsBots(name: string, wild: boolean): Promise<RoomCreated> {
  const body: PlayVsBots = { name, table: 'house', wild, level: 'hard' };
  return post('/api/play-vs-bots', body);
}

export function createRoom(name: string, table: TableType, wild: boolean, open = false): Promise<RoomCreated> {
  const body: CreateRoom = { name, table, wild, public: open };
  return post('/api/rooms', body);
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
  const body: StartChallenge = { name, kind };
  return post('/api/challenges', body);
}

export async function board(name: string, date?: string): Promise<BoardRow[]> {
  const query = date ? `?date=${encodeURIComponent(date)}` : '';
  return (await get<Board>(`/api/boards/${name}${query}`)).rows;
}

export function rallies(): Promise<Rallies> {
  return get('/api/rallies');
}

export function compareRally(date: string, name: string): Promise<RallyComparison> {
  return get(`/api/rallies/${date}/compare/${encodeURIComponent(name)}`);
}

export async function playerStats(name: string): Promise<StatLine[]> {
  return (await get<PlayerStats>(`/api/players/${encodeURIComponent(name)}`)).stats;
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
