// @vitest-environment happy-dom
// A room's connection adds the player's nonce to an offered deal: once per offer, never as a spectator, and on
// a new connection only where the server says it never arrived (the same nonce, kept by commitment).
// It puts continued states back together, and asks for the whole room (`sync`) where a state never arrived.
// The hall's watcher shows the hall the server pushes, and the server's clock against this one's; a tournament's
// follower shows the page pushed with the reader's place, and stops at an unknown tournament.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Connection, HallWatcher, TournamentFollower } from './conn.svelte';
import { sentNonce } from './fair';
import type { Command, RoomView } from './types';
import type { Hall, TournamentFollow } from './wire';

/** A WebSocket that records what the client sends; the test says what the server does. */
class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Command[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  state(room: Partial<RoomView>) {
    this.onmessage?.({ data: JSON.stringify({ type: 'state', n: 1, room: { you: 1, closed: false, deal: null, ...room } }) });
  }
  nonces(): string[] {
    return this.sent.flatMap((c) => (c.type === 'nonce' ? [c.nonce] : []));
  }
}

const COMMITMENT = 'ab'.repeat(32);
const offer = (received = [false, false, false], commitment = COMMITMENT) => ({
  offer: { commitment, awaited: [0, 1], received, deadline: Date.now() + 2000 },
});

beforeEach(() => {
  FakeSocket.all = [];
  sessionStorage.clear();
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the socket address', () => {
  it("names a room's room, so that a balancer sends all its players to one node, and the hall's nothing", () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    const conn = new Connection('abcd', 'Ann');
    const hall = new HallWatcher();
    const [room, watching] = FakeSocket.all.map((ws) => new URL(ws.url));
    expect(room.pathname).toBe('/ws');
    expect(room.searchParams.get('room')).toBe('ABCD');
    expect(watching.pathname).toBe('/ws');
    expect(watching.search).toBe('');
    // A reconnection asks for the same node.
    FakeSocket.all[0].open();
    FakeSocket.all[0].close();
    vi.runOnlyPendingTimers();
    expect(new URL(FakeSocket.all[2].url).searchParams.get('room')).toBe('ABCD');
    conn.close();
    hall.close();
  });
});

describe("the hall's watcher", () => {
  const HALL: Hall = { now: 0, online: 12, playing: 3, quick: [], tournaments: [], running: [], tables: [], today: '2026-12-06' };
  const push = (ws: FakeSocket, hall: Hall) => ws.onmessage?.({ data: JSON.stringify({ type: 'hall', hall }) });

  it('asks for the hall and shows each one pushed, with the server clock ahead of or behind this one', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    const watcher = new HallWatcher();
    const ws = FakeSocket.all[0];
    ws.open();
    expect(ws.sent).toEqual([{ type: 'watch_hall' }]);
    push(ws, { ...HALL, now: Date.now() + 5000 });
    expect(watcher.hall?.online).toBe(12);
    expect(watcher.skew).toBe(5000);
    push(ws, { ...HALL, online: 13, now: Date.now() - 2000 });
    expect(watcher.hall?.online).toBe(13);
    expect(watcher.skew).toBe(-2000);
    watcher.close();
  });

  it("paints the hall GET /api/hall answers until the socket's first, and never over a pushed one", async () => {
    let answer: (hall: Hall) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise((resolve) => (answer = (hall) => resolve(new Response(JSON.stringify(hall))))));
    const first = new HallWatcher();
    answer({ ...HALL, online: 7 });
    await vi.waitFor(() => expect(first.hall?.online).toBe(7));
    first.close();

    const second = new HallWatcher();
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    push(ws, { ...HALL, online: 9 });
    answer({ ...HALL, online: 7 });
    await vi.advanceTimersByTimeAsync(10);
    expect(second.hall?.online).toBe(9);
    second.close();
  });
});

describe("a tournament's follower", () => {
  const FOLLOW = {
    now: 0,
    page: { summary: { id: 'house-sit-and-go-3', entrants: 1 }, leaders: [], tables: [], path: [], rounds: [] },
  } as unknown as TournamentFollow;
  const push = (ws: FakeSocket, follow: TournamentFollow) => ws.onmessage?.({ data: JSON.stringify({ type: 'tournament', ...follow }) });
  const entrants = (follower: TournamentFollower) => follower.follow?.page.summary.entrants;

  it('follows the event under the reader\'s name and shows each page pushed, with the reader\'s place', () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => (asked.push(url), new Promise(() => {})));
    const follower = new TournamentFollower('house-sit-and-go-3', 'Ann Lee');
    const ws = FakeSocket.all[0];
    ws.open();
    expect(ws.sent).toEqual([{ type: 'follow_tournament', id: 'house-sit-and-go-3', name: 'Ann Lee' }]);
    expect(asked).toEqual(['/api/tournaments/house-sit-and-go-3/page?name=Ann%20Lee']);
    const you = { entrant: { place: 2, name: 'Ann Lee', bot: false, chips: 10000 }, rounds: [] };
    push(ws, { ...FOLLOW, now: Date.now() + 3000, you });
    expect(follower.follow?.you?.entrant.place).toBe(2);
    expect(follower.skew).toBe(3000);
    push(ws, { ...FOLLOW, page: { ...FOLLOW.page, summary: { ...FOLLOW.page.summary, entrants: 2 } }, now: Date.now() });
    expect(entrants(follower)).toBe(2);
    expect(follower.follow?.you).toBeUndefined();
    expect(follower.status).toBe('open');
    follower.close();
  });

  it('follows without a name as a reader with no place', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    const follower = new TournamentFollower('abc', '');
    FakeSocket.all[0].open();
    expect(FakeSocket.all[0].sent).toEqual([{ type: 'follow_tournament', id: 'abc', name: null }]);
    follower.close();
  });

  it("paints the GET's page until the socket's first, never over a pushed one", async () => {
    let answer: (follow: TournamentFollow) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise((resolve) => (answer = (f) => resolve(new Response(JSON.stringify(f))))));
    const follower = new TournamentFollower('abc', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    push(ws, { ...FOLLOW, page: { ...FOLLOW.page, summary: { ...FOLLOW.page.summary, entrants: 5 } } });
    answer(FOLLOW);
    await vi.advanceTimersByTimeAsync(10);
    expect(entrants(follower)).toBe(5);
    follower.close();
  });

  it('says an unknown tournament once and stops trying', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    const follower = new TournamentFollower('nope', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.onmessage?.({ data: JSON.stringify({ type: 'error', code: 'no_such_tournament', message: 'no such tournament', seq: null }) });
    expect(follower.error).toBe('There is no such tournament.');
    vi.runOnlyPendingTimers();
    expect(FakeSocket.all).toHaveLength(1);
    follower.close();
  });

  it('follows again after a lost connection', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    const follower = new TournamentFollower('abc', 'Ann');
    FakeSocket.all[0].open();
    push(FakeSocket.all[0], FOLLOW);
    FakeSocket.all[0].close();
    expect(follower.status).toBe('closed');
    vi.runOnlyPendingTimers();
    FakeSocket.all[1].open();
    expect(FakeSocket.all[1].sent).toEqual([{ type: 'follow_tournament', id: 'abc', name: 'Ann' }]);
    follower.close();
  });
});

describe("a seated player's nonce", () => {
  it('is sent once per offer and kept by its commitment', () => {
    const conn = new Connection('ABCD', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.state(offer());
    ws.state(offer([true, false, false])); // another seat's nonce came; this one is on its way
    const [nonce] = ws.nonces();
    expect(ws.nonces()).toEqual([nonce]);
    expect(nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(sentNonce(COMMITMENT)).toBe(nonce);
    ws.state(offer([true, true, false]));
    ws.state({});
    // The next deal's offer gets a new one.
    ws.state(offer(undefined, 'cd'.repeat(32)));
    expect(ws.nonces()).toHaveLength(2);
    expect(ws.nonces()[1]).not.toBe(nonce);
    conn.close();
  });

  it('is sent again, the same, on a new connection only where the server never got it', () => {
    const conn = new Connection('ABCD', 'Ann');
    const first = FakeSocket.all[0];
    first.open();
    first.state(offer());
    const [nonce] = first.nonces();
    first.close();
    vi.runOnlyPendingTimers();
    const second = FakeSocket.all[1];
    second.open();
    second.state(offer());
    expect(second.nonces()).toEqual([nonce]);
    second.close();
    vi.runOnlyPendingTimers();
    const third = FakeSocket.all[2];
    third.open();
    third.state(offer([false, true, false]));
    expect(third.nonces()).toEqual([]);
    conn.close();
  });

  it('is not sent for a seat the offer does not await, nor by a spectator', () => {
    const seated = new Connection('ABCD', 'Cy');
    FakeSocket.all[0].open();
    FakeSocket.all[0].state({ you: 2, ...offer() });
    expect(FakeSocket.all[0].nonces()).toEqual([]);
    seated.close();
    const spectator = new Connection('ABCD', null);
    FakeSocket.all[1].open();
    FakeSocket.all[1].state({ you: null, ...offer() });
    expect(FakeSocket.all[1].sent.map((c) => c.type)).toEqual(['watch']);
    spectator.close();
  });

  it('arriving too late is no error for the player', () => {
    const conn = new Connection('ABCD', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.onmessage?.({ data: JSON.stringify({ type: 'error', code: 'no_nonce_wanted', message: 'no nonce is wanted', seq: null }) });
    expect(conn.error).toBeNull();
    conn.close();
  });
});

describe('a gap in the states', () => {
  /** A deal's view with `n` actions (passes stand in for any action) under the deal's commitment. */
  const deal = (n: number, commitment = COMMITMENT, from: number | null = null) => ({
    actions_from: from,
    deal: {
      actions: Array.from({ length: n }, (_, i) => ({ action: 'pass', seat: i % 3 })),
      fairness: { commitment },
    },
  });
  const syncs = (ws: FakeSocket) => ws.sent.filter((c) => c.type === 'sync').length;
  const actions = (conn: Connection) => conn.room?.deal?.actions.length;

  it('continues the deal from the actions the client has', () => {
    const conn = new Connection('ABCD', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.state(deal(3) as unknown as Partial<RoomView>);
    ws.state(deal(2, COMMITMENT, 3) as unknown as Partial<RoomView>);
    expect(actions(conn)).toBe(5);
    expect(syncs(ws)).toBe(0);
    conn.close();
  });

  it('asks for the whole room once when a state never arrived, and keeps its last state until it comes', () => {
    const conn = new Connection('ABCD', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.state(deal(3) as unknown as Partial<RoomView>);
    // The state that brought actions 4 and 5 was lost: the next continues from 5.
    ws.state(deal(1, COMMITMENT, 5) as unknown as Partial<RoomView>);
    ws.state(deal(1, COMMITMENT, 6) as unknown as Partial<RoomView>);
    expect(actions(conn)).toBe(3);
    expect(syncs(ws)).toBe(1);
    ws.state(deal(7) as unknown as Partial<RoomView>);
    expect(actions(conn)).toBe(7);
    ws.state(deal(1, COMMITMENT, 7) as unknown as Partial<RoomView>);
    expect(actions(conn)).toBe(8);
    // A later gap asks again.
    ws.state(deal(1, COMMITMENT, 9) as unknown as Partial<RoomView>);
    expect(syncs(ws)).toBe(2);
    conn.close();
  });

  it('asks for the whole room when a continued state is of a deal whose start never arrived', () => {
    const conn = new Connection('ABCD', 'Ann');
    const ws = FakeSocket.all[0];
    ws.open();
    ws.state(deal(40) as unknown as Partial<RoomView>);
    ws.state(deal(1, 'cd'.repeat(32), 2) as unknown as Partial<RoomView>);
    expect(actions(conn)).toBe(40);
    expect(conn.room?.deal?.fairness?.commitment).toBe(COMMITMENT);
    expect(syncs(ws)).toBe(1);
    conn.close();
  });
});
