// One WebSocket to a room: hello, state snapshots, reconnects with the same name.
//
// The connection comes back after every recoverable loss (a network change, a server restart, the old
// socket still counted as connected): it waits 0.3 s, doubling up to 5 s, and never gives up. The
// resume token the server gives on each hello is kept per room and name, so that a new connection
// replaces one the server has not yet noticed is dead. It stops only when the room or the name is
// refused for good, or when the same name connected again elsewhere.

import { wsUrl } from './api';
import { errorText } from './errors';
import { t } from './i18n.svelte';
import type { RoomView } from './types';

/** Refusals of a hello that trying again cannot change. */
const FINAL: readonly string[] = ['unknown_room', 'bad_name'];

function tokenKey(code: string, name: string): string {
  return `ddz-token:${code.toUpperCase()}:${name.toLowerCase()}`;
}

/**
 * A state that continues this connection's previous one carries only the deal's new actions, after the
 * first `actions_from` the client already has: put the list back together.
 */
function continuing(room: RoomView, previous: RoomView | null): RoomView {
  const from = room.actions_from;
  if (from == null || !room.deal) return room;
  const known = previous?.deal?.actions.slice(0, from) ?? [];
  return { ...room, actions_from: undefined, deal: { ...room.deal, actions: known.concat(room.deal.actions) } };
}

let lastSeq = 0;
/** Action numbers must rise across reloads too (the server ignores a repeated `seq`): use the clock. */
function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now());
  return lastSeq;
}

export class Connection {
  room = $state<RoomView | null>(null);
  status = $state<'connecting' | 'open' | 'closed'>('connecting');
  error = $state<string | null>(null);
  /** Set when the server refused the hello: no reconnecting then. */
  fatal = $state<string | null>(null);
  private ws: WebSocket | null = null;
  private stopped = false;
  private retry = 0;
  private sitOnJoin: boolean;

  constructor(
    readonly code: string,
    readonly name: string,
    sit = false,
  ) {
    this.sitOnJoin = sit;
    this.open();
  }

  private open() {
    this.status = 'connecting';
    const ws = new WebSocket(wsUrl());
    this.ws = ws;
    ws.onopen = () => {
      const token = localStorage.getItem(tokenKey(this.code, this.name));
      ws.send(JSON.stringify({ type: 'hello', room: this.code, name: this.name, token }));
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'session') {
        localStorage.setItem(tokenKey(this.code, this.name), msg.token);
      } else if (msg.type === 'replaced') {
        this.fatal = t('replaced');
      } else if (msg.type === 'state') {
        this.room = continuing(msg.room, this.room);
        this.status = 'open';
        this.retry = 0;
        if (this.sitOnJoin && msg.room.you === null && !msg.room.closed) this.send({ type: 'sit' });
        this.sitOnJoin = false;
      } else if (msg.type === 'error') {
        const text = errorText(msg.code, msg.message);
        if (this.status !== 'open' && FINAL.includes(msg.code)) this.fatal = text;
        this.error = text;
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.status = 'closed';
      if (this.stopped || this.fatal) return;
      this.retry += 1;
      setTimeout(() => !this.stopped && this.open(), Math.min(5000, 300 * 2 ** this.retry));
    };
  }

  send(command: object) {
    this.error = null;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(command));
  }

  act(action: object) {
    this.send({ type: 'act', seq: nextSeq(), action });
  }

  close() {
    this.stopped = true;
    this.ws?.close();
  }
}
