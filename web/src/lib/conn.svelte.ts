// Every WebSocket the client opens: a room's connection (hello, state snapshots, actions), the hall
// watcher and a tournament's follower, all on `Socket`, the one place that opens a socket, parses the server's messages and reconnects.
//
// A socket comes back after every recoverable loss (a network change, a server restart, the old socket still
// counted as connected): it waits 0.3 s, doubling up to 5 s, and never gives up. When the browser says it went
// offline the socket is dropped at once (it may otherwise sit silent without closing) and no new one is tried
// until the browser is online again, which reconnects at once. The resume token the server
// gives on each hello is kept per room and name, so that a new connection replaces one the server has not yet
// noticed is dead. A room's connection stops only when the room or the name is refused for good, or when the
// same name connected again elsewhere.
//
// Before each deal a seated player's connection adds a random nonce to it (docs/fair-deals.md): once per
// offered deal, remembered by its commitment so that the replay's Verify can show that it went in.

import { browserId } from './browser';
import { errorText } from './errors';
import { newNonce, rememberNonce, sentNonce } from './fair';
import { t } from './i18n.svelte';
import { forgetKey, nameKey } from './keys.svelte';
import { hall as hallNow, tournamentFollow } from './api';
import type { Chat, ClientAction, Command, Event, RoomView } from './types';
import type { Hall, TournamentFollow } from './wire';

/**
 * The WebSocket address; a room's socket names its room (`/ws?room=CODE`) so that a balancer in front of a
 * cluster can send every player of a room to the same node, the one that comes to own it (docs/scaling.md).
 */
export function wsUrl(at: { protocol: string; host: string }, room: string | null): string {
  const query = room === null ? '' : `?room=${encodeURIComponent(room.toUpperCase())}`;
  return `${at.protocol === 'https:' ? 'wss' : 'ws'}://${at.host}/ws${query}`;
}

/** A WebSocket to the server that says its greeting on every open and reconnects with backoff until closed. */
class Socket {
  status = $state<'connecting' | 'open' | 'closed'>('connecting');
  private ws: WebSocket | null = null;
  private stopped = false;
  private retry = 0;

  /**
   * `room` is the room the socket is for (none for the hall's); `greeting` is sent first on every
   * connection; `onMessage` gets each message; `mayRetry` is asked after a loss (a refusal for good says no).
   */
  constructor(
    private readonly room: string | null,
    private readonly greeting: () => Command,
    private readonly onMessage: (msg: Event) => void,
    private readonly mayRetry: () => boolean = () => true,
  ) {
    addEventListener('offline', this.wentOffline);
    addEventListener('online', this.cameOnline);
    this.open();
  }

  private readonly wentOffline = () => {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.status = 'closed';
  };

  private readonly cameOnline = () => {
    if (this.stopped || this.status === 'open' || !this.mayRetry()) return;
    this.retry = 0;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.open();
  };

  private open() {
    if (!navigator.onLine) return this.wentOffline();
    this.status = 'connecting';
    const ws = new WebSocket(wsUrl(location, this.room));
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(this.greeting()));
    // A socket this client has moved on from (a `replaced` it was sent is not about the current one).
    ws.onmessage = (e) => this.ws === ws && this.onMessage(JSON.parse(e.data));
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.status = 'closed';
      if (this.stopped || !this.mayRetry()) return;
      this.retry += 1;
      setTimeout(() => !this.stopped && this.open(), Math.min(5000, 300 * 2 ** this.retry));
    };
  }

  /** The server answered the greeting: the connection is open, and the next loss waits the shortest time. */
  answered() {
    this.status = 'open';
    this.retry = 0;
  }

  send(command: Command) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(command));
  }

  close() {
    this.stopped = true;
    removeEventListener('offline', this.wentOffline);
    removeEventListener('online', this.cameOnline);
    this.ws?.close();
  }
}

/** Refusals of a hello that trying again cannot change. */
const FINAL: readonly string[] = [
  'unknown_room',
  'bad_name',
  'rally_open',
  'name_protected',
  'too_many_guesses',
  'superseded',
];

function tokenKey(code: string, name: string): string {
  return `ddz-token:${code.toUpperCase()}:${name.toLowerCase()}`;
}

/**
 * A state that continues this connection's previous one carries only the deal's new actions, after the
 * first `actions_from` the client already has: put the list back together. `null` where the client cannot:
 * a state between never arrived (it has fewer actions than the server counts), or its last state is of
 * another deal. It then keeps what it has and asks for the whole room again (`sync`).
 */
export function continuing(room: RoomView, previous: RoomView | null): RoomView | null {
  const from = room.actions_from;
  if (from == null || !room.deal) return room;
  const known = previous?.deal;
  if (!known || known.actions.length < from || known.fairness?.commitment !== room.deal.fairness?.commitment) return null;
  const actions = known.actions.slice(0, from).concat(room.deal.actions);
  return { ...room, actions_from: undefined, deal: { ...room.deal, actions } };
}

let lastSeq = 0;
/** Action numbers must rise across reloads too (the server ignores a repeated `seq`): use the clock. */
function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now());
  return lastSeq;
}

/**
 * What a table needs of its room: the latest state, refusals, and the way to act. A server's room through a
 * `Connection`, or the page's own offline table (`lib/offline.svelte.ts`).
 */
export interface RoomLink {
  readonly room: RoomView | null;
  readonly error: string | null;
  /** Set when the room cannot be played at all (refused for good). */
  readonly fatal: string | null;
  readonly status: 'connecting' | 'open' | 'closed';
  /** The table is played in this browser, without the server: not rated, kept here only. */
  readonly offline: boolean;
  onChat: ((seat: number, chat: Chat) => void) | null;
  send(command: Command): void;
  act(action: ClientAction): void;
  close(): void;
}

/** A room's connection under a name, or a spectator's without one (`name` null): its latest state, and the way
 * to send commands and actions. */
export class Connection implements RoomLink {
  readonly offline = false;
  room = $state<RoomView | null>(null);
  error = $state<string | null>(null);
  /** Set when the server refused the hello: no reconnecting then. */
  fatal = $state<string | null>(null);
  private sitOnJoin: boolean;
  private socket: Socket;
  /** Called with each quick chat said in the room (the server keeps none: they are not replayed). */
  onChat: ((seat: number, chat: Chat) => void) | null = null;
  /** The commitment of the offered deal whose nonce this connection sent: each offer gets one per connection. */
  private nonceSentFor: string | null = null;
  /** A `sync` was sent for a gap in the states, and the whole room has not come back yet. */
  private syncing = false;

  constructor(
    readonly code: string,
    readonly name: string | null,
    sit = false,
  ) {
    this.sitOnJoin = sit;
    this.socket = new Socket(
      code,
      () => {
        // A new connection: the server's next state says whether the nonce sent on the old one arrived,
        // and is the whole room.
        this.nonceSentFor = null;
        this.syncing = false;
        return name === null
          ? { type: 'watch', room: code }
          : {
              type: 'hello',
              room: code,
              name,
              token: localStorage.getItem(tokenKey(code, name)),
              key: nameKey(name),
              browser: browserId(),
            };
      },
      (msg) => this.receive(msg),
      () => !this.fatal,
    );
  }

  get status() {
    return this.socket.status;
  }

  private receive(msg: Event) {
    if (msg.type === 'session') {
      if (this.name !== null) localStorage.setItem(tokenKey(this.code, this.name), msg.token);
    } else if (msg.type === 'replaced') {
      this.fatal = t('replaced');
    } else if (msg.type === 'state') {
      this.socket.answered();
      const room = continuing(msg.room, this.room);
      if (room === null) {
        if (!this.syncing) this.socket.send({ type: 'sync' });
        this.syncing = true;
        return;
      }
      this.syncing = false;
      this.room = room;
      if (this.sitOnJoin && msg.room.you === null && !msg.room.closed) this.send({ type: 'sit', seat: null });
      this.sitOnJoin = false;
      this.addNonce(msg.room);
    } else if (msg.type === 'chat') {
      this.onChat?.(msg.seat, msg.chat);
    } else if (msg.type === 'error') {
      // A nonce that came after the deal stopped waiting (or crossed a reconnection): nothing for the player.
      if (msg.code === 'no_nonce_wanted') return;
      const text = errorText(msg.code, msg.message);
      if (this.status !== 'open' && FINAL.includes(msg.code)) this.fatal = text;
      // The key was refused: the name was recovered on another device (`lib/api.ts` does the same).
      if (msg.code === 'name_protected' && this.name !== null) forgetKey(this.name);
      this.error = text;
    }
  }

  /**
   * The player's nonce for an offered deal that awaits this seat and has none from it yet: 32 random bytes,
   * sent once per offer on this connection. The same nonce is sent again only on a new connection to which
   * the server says it never arrived; it is kept by the deal's commitment (sessionStorage) for the replay.
   */
  private addNonce(room: RoomView) {
    const offer = room.offer;
    const seat = room.you;
    if (this.name === null || !offer || seat === null) return;
    if (!offer.awaited.includes(seat) || offer.received[seat] || this.nonceSentFor === offer.commitment) return;
    const nonce = sentNonce(offer.commitment) ?? newNonce();
    rememberNonce(offer.commitment, nonce);
    this.nonceSentFor = offer.commitment;
    this.socket.send({ type: 'nonce', nonce });
  }

  send(command: Command) {
    this.error = null;
    this.socket.send(command);
  }

  act(action: ClientAction) {
    this.send({ type: 'act', seq: nextSeq(), action });
  }

  close() {
    this.socket.close();
  }
}

/**
 * The hall's live state (`watch_hall`): the counts, quick match's lines, the open tournaments and the public
 * tables, pushed by the server as they change; `GET /api/hall` paints it first where it answers before the
 * socket does. `skew` is the server's clock minus this one's, for countdowns.
 */
export class HallWatcher {
  hall = $state<Hall | null>(null);
  skew = $state(0);
  private pushed = false;
  private socket = new Socket(
    null,
    () => ({ type: 'watch_hall' }),
    (msg) => {
      if (msg.type !== 'hall') return;
      this.pushed = true;
      this.show(msg.hall);
      this.socket.answered();
    },
  );

  constructor() {
    hallNow().then(
      (hall) => this.pushed || this.show(hall),
      () => {},
    );
  }

  private show(hall: Hall) {
    this.hall = hall;
    this.skew = hall.now - Date.now();
  }

  close() {
    this.socket.close();
  }
}

/**
 * A tournament's page as the server pushes it (`follow_tournament`): its path, rounds, leaders and the round in
 * play's tables, with the reader's own place and table (`you`), sent at once and again after every change; `GET
 * /api/tournaments/ID/page` paints it first where it answers before the socket does. `skew` is the server's
 * clock minus this one's, for the countdown. An unknown tournament is an `error`, and nothing is tried again.
 */
export class TournamentFollower {
  follow = $state<TournamentFollow | null>(null);
  skew = $state(0);
  error = $state<string | null>(null);
  private pushed = false;
  private socket: Socket;

  /** Follows tournament `id` as `name` reads it (empty: a reader without a name, who has no place). */
  constructor(
    readonly id: string,
    readonly name: string,
  ) {
    this.socket = new Socket(
      null,
      () => ({ type: 'follow_tournament', id, name: name || null }),
      (msg) => {
        if (msg.type === 'tournament') {
          this.pushed = true;
          this.error = null;
          this.show({ now: msg.now, page: msg.page, you: msg.you });
          this.socket.answered();
        } else if (msg.type === 'error') {
          this.error = errorText(msg.code, msg.message);
          if (msg.code === 'no_such_tournament') this.socket.close();
        }
      },
    );
    tournamentFollow(id, name).then(
      (follow) => this.pushed || this.show(follow),
      (e: Error) => this.pushed || (this.error = e.message),
    );
  }

  get status() {
    return this.socket.status;
  }

  private show(follow: TournamentFollow) {
    this.follow = follow;
    this.skew = follow.now - Date.now();
  }

  close() {
    this.socket.close();
  }
}
