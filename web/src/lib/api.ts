import type { Card, HintPlay, Reading } from './types';

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(json.error ?? `HTTP ${res.status}`);
  return json as T;
}

export function playVsBots(name: string, wild: boolean): Promise<{ code: string }> {
  return post('/api/play-vs-bots', { name, table: 'house', wild, level: 'hard' });
}

export function createRoom(name: string, table: string, wild: boolean): Promise<{ code: string }> {
  return post('/api/rooms', { name, table, wild, public: false });
}

export interface Position {
  rules: string;
  wild_rank: string | null;
  hand: Card[];
  prior: Reading | null;
}

export function readings(pos: Position, cards: Card[]): Promise<{ readings: Reading[]; error?: string }> {
  return post('/api/readings', { ...pos, cards });
}

export async function hints(pos: Position): Promise<HintPlay[]> {
  return (await post<{ plays: HintPlay[] }>('/api/hints', pos)).plays;
}

export function wsUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}
