// Quick chat at the table: the phrases and emotes a seated player may send (`{"type":"chat"}`), the bubbles
// by the speakers' seats, the client's own rate limit (the server's: one every 3 s) and the players this
// browser muted, remembered by name.

import type { RoomLink } from './conn.svelte';
import type { Chat } from './types';

/** Each chat's words in English and Chinese, or its emote (an emoji, the same in every language). */
export const CHATS: Record<Chat, { en: string; zh: string; emote?: string }> = {
  hello: { en: 'Hello!', zh: '你好！' },
  good_luck: { en: 'Good luck!', zh: '祝你好运！' },
  well_played: { en: 'Well played!', zh: '打得好！' },
  nice_bomb: { en: 'Nice bomb!', zh: '好炸！' },
  thanks: { en: 'Thanks!', zh: '谢谢！' },
  sorry: { en: 'Sorry!', zh: '抱歉！' },
  hurry_up: { en: 'Hurry up!', zh: '快点吧！' },
  oops: { en: 'Oops!', zh: '哎呀！' },
  laugh: { en: 'Haha', zh: '哈哈', emote: '😂' },
  cry: { en: 'Crying', zh: '哭', emote: '😭' },
  angry: { en: 'Angry', zh: '生气', emote: '😠' },
  thumbs_up: { en: 'Thumbs up', zh: '赞', emote: '👍' },
};

export const PHRASES = (Object.keys(CHATS) as Chat[]).filter((c) => !CHATS[c].emote);
export const EMOTES = (Object.keys(CHATS) as Chat[]).filter((c) => CHATS[c].emote);

/** How long a bubble shows, and the least time between two chats of this player. */
export const BUBBLE_MS = 3000;
export const CHAT_GAP_MS = 3000;

const MUTED_KEY = 'ddz.chatMuted';

function loadMuted(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((n) => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

/** The chats of one room: the bubbles showing now by seat, sending, and muting. */
export class ChatState {
  /** The bubble showing by each seat (a new `id` for each chat, so that a repeated one shows again). */
  bubbles = $state<Record<number, { chat: Chat; id: number }>>({});
  /** The keys of the names (as the server gives them) whose chats this browser does not show. */
  muted = $state<string[]>(loadMuted());
  /** This player sent a chat less than `CHAT_GAP_MS` ago. */
  resting = $state(false);
  private said = 0;
  private timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly conn: RoomLink,
    /** The name key of who sits at a seat now (a person's, as the server gives it). */
    private readonly keyAt: (seat: number) => string | null,
    /** Called with every chat shown (the sound and the spoken phrase). */
    private readonly onShown: (chat: Chat) => void,
  ) {
    conn.onChat = (seat, chat) => this.heard(seat, chat);
  }

  isMuted(key: string): boolean {
    return this.muted.includes(key);
  }

  setMuted(key: string, mute: boolean) {
    this.muted = mute ? [...this.muted.filter((k) => k !== key), key] : this.muted.filter((k) => k !== key);
    localStorage.setItem(MUTED_KEY, JSON.stringify(this.muted));
    if (mute) for (const [seat] of Object.entries(this.bubbles)) if (this.keyAt(+seat) === key) this.hide(+seat);
  }

  send(chat: Chat) {
    if (this.resting) return;
    this.conn.send({ type: 'chat', chat });
    this.resting = true;
    setTimeout(() => (this.resting = false), CHAT_GAP_MS);
  }

  private heard(seat: number, chat: Chat) {
    const key = this.keyAt(seat);
    if (key && this.isMuted(key)) return;
    this.bubbles = { ...this.bubbles, [seat]: { chat, id: ++this.said } };
    clearTimeout(this.timers.get(seat));
    this.timers.set(seat, setTimeout(() => this.hide(seat), BUBBLE_MS));
    this.onShown(chat);
  }

  private hide(seat: number) {
    const { [seat]: _, ...rest } = this.bubbles;
    this.bubbles = rest;
  }

  close() {
    for (const timer of this.timers.values()) clearTimeout(timer);
  }
}
