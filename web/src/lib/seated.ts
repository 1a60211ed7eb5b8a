// The table the player last sat at, and under which name, remembered across tabs (localStorage), so that Home
// can offer the way back and a reopened link rejoins without asking for the name.

import type { RoomView } from './types';

const KEY = 'ddz.table';

export interface SeatedAt {
  code: string;
  name: string;
}

export function rememberTable(code: string, name: string) {
  localStorage.setItem(KEY, JSON.stringify({ code, name }));
}

export function rememberedTable(): SeatedAt | null {
  try {
    const seated = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return typeof seated?.code === 'string' && typeof seated?.name === 'string' ? seated : null;
  } catch {
    return null;
  }
}

export function forgetTable() {
  localStorage.removeItem(KEY);
}

/** Whether the name of key `key` (as the server gives it) holds a seat of the room. */
export function seatedIn(room: RoomView, key: string): boolean {
  return room.seats.some((s) => s.occupant?.type === 'human' && s.key === key);
}
