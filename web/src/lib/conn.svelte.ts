// One WebSocket to a room: hello, state snapshots, reconnects with the same name.

import { wsUrl } from './api';
import { errorText } from './errors';
import type { RoomView } from './types';

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
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', room: this.code, name: this.name }));
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === 'state') {
        this.room = msg.room;
        this.status = 'open';
        this.retry = 0;
        if (this.sitOnJoin && msg.room.you === null && !msg.room.closed) this.send({ type: 'sit' });
        this.sitOnJoin = false;
      } else if (msg.type === 'error') {
        const text = errorText(msg.code, msg.message);
        if (this.status !== 'open') this.fatal = text;
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
