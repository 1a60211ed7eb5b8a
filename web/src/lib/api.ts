import { errorText } from './errors';
import type {
  BoardRow,
  Card,
  ChallengeKind,
  DealRecord,
  HintPlay,
  RallyComparison,
  Reading,
  Refusal,
  Replay,
  Review,
  RoomView,
  StatLine,
} from './types';

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorText(json.code, json.message ?? `HTTP ${res.status}`));
  return json as T;
}

export function playVsBots(name: string, wild: boolean): Promise<{ code: string }> {
  return post('/api/play-vs-bots', { name, table: 'house', wild, level: 'hard' });
}

export function createRoom(name: string, table: string, wild: boolean, open = false): Promise<{ code: string }> {
  return post('/api/rooms', { name, table, wild, public: open });
}

async function get<T>(path: string): Promise<T> {
  const res = await fetch(path);
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(errorText(json.code, json.message ?? `HTTP ${res.status}`));
  return json as T;
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
  return (await get<{ deals: DealRecord[] }>(`/api/rooms/${encodeURIComponent(code)}/deals`)).deals;
}

/** Starts a Bot Buster or Bot Bomber run or today's rally, or resumes the name's unfinished one. */
export function startChallenge(name: string, kind: ChallengeKind): Promise<{ code: string; resumed: boolean }> {
  return post('/api/challenges', { name, kind });
}

export async function board(name: string, date?: string): Promise<BoardRow[]> {
  const query = date ? `?date=${encodeURIComponent(date)}` : '';
  return (await get<{ rows: BoardRow[] }>(`/api/boards/${name}${query}`)).rows;
}

export function rallies(): Promise<{ today: string; dates: string[] }> {
  return get('/api/rallies');
}

export function compareRally(date: string, name: string): Promise<RallyComparison> {
  return get(`/api/rallies/${date}/compare/${encodeURIComponent(name)}`);
}

export async function playerStats(name: string): Promise<StatLine[]> {
  return (await get<{ stats: StatLine[] }>(`/api/players/${encodeURIComponent(name)}`)).stats;
}

export interface Position {
  rules: string;
  wild_rank: string | null;
  hand: Card[];
  prior: Reading | null;
}

export function readings(
  pos: Position,
  cards: Card[],
): Promise<{ readings: Reading[]; error?: string; refusal?: Refusal }> {
  return post('/api/readings', { ...pos, cards });
}

export async function hints(pos: Position): Promise<HintPlay[]> {
  return (await post<{ plays: HintPlay[] }>('/api/hints', pos)).plays;
}

/** The `hard` bot's review of one seat's trick play in deal `deal` (worked out on first asking, then kept). */
export function review(code: string, deal: number, seat: number): Promise<{ review: Review }> {
  return get(`/api/rooms/${encodeURIComponent(code)}/deals/${deal}/reviews/${seat}`);
}
