// Quick match in the client, the part without a page: the ticket this tab waits on (sessionStorage, so that
// a reload or a reconnect resumes polling the same ticket), the table type last chosen (localStorage), the
// waiting page's clock between two answers, and how soon to poll again.

import type { QuickMatch, TableType } from './wire';

/** The table types quick match offers, in the order of the hall's tiles. */
export const QUICK_TABLES: readonly TableType[] = ['house', 'no_shuffle', 'two_player'];

/** The ticket this tab waits on, with what it joined as (to join again where the ticket is gone). */
export interface Waiting {
  ticket: string;
  name: string;
  table: TableType;
}

const TICKET_KEY = 'ddz.quick';
const TABLE_KEY = 'ddz.quickTable';

/** How often the waiting page polls its ticket (the server drops a ticket not polled for 15 s). */
export const POLL_MS = 500;
/** The longest wait between two polls after failures, well inside the server's 15 s. */
export const MAX_RETRY_MS = 4000;

function isTable(table: unknown): table is TableType {
  return typeof table === 'string' && (QUICK_TABLES as readonly string[]).includes(table);
}

export function saveTicket(waiting: Waiting, storage: Storage = sessionStorage) {
  storage.setItem(TICKET_KEY, JSON.stringify(waiting));
}

/** The ticket this tab waits on, if any (anything malformed counts as none). */
export function loadTicket(storage: Storage = sessionStorage): Waiting | null {
  try {
    const w = JSON.parse(storage.getItem(TICKET_KEY) ?? 'null');
    if (typeof w?.ticket === 'string' && w.ticket && typeof w.name === 'string' && w.name && isTable(w.table))
      return { ticket: w.ticket, name: w.name, table: w.table };
  } catch {
    // Malformed: none.
  }
  return null;
}

export function forgetTicket(storage: Storage = sessionStorage) {
  storage.removeItem(TICKET_KEY);
}

/** The table type last chosen for quick match (the hall marks its tile); none before the first. */
export function lastTable(storage: Storage = localStorage): TableType | null {
  const table = storage.getItem(TABLE_KEY);
  return isTable(table) ? table : null;
}

export function chooseTable(table: TableType, storage: Storage = localStorage) {
  storage.setItem(TABLE_KEY, table);
}

/**
 * The waiting page's clock at `now`: the last answer (received at `receivedAt`) moved on by the time since,
 * in whole seconds: the seconds waited (rounded down) and the seconds until bots fill the empty seats
 * (rounded up, never below 0).
 */
export function clockAt(
  match: Pick<QuickMatch, 'waited_ms' | 'fill_in_ms'>,
  receivedAt: number,
  now: number,
): { waited: number; fillIn: number } {
  const since = Math.max(0, now - receivedAt);
  return {
    waited: Math.floor((match.waited_ms + since) / 1000),
    fillIn: Math.ceil(Math.max(0, match.fill_in_ms - since) / 1000),
  };
}

/** How long to wait before the next poll after `failures` failed polls in a row (0: the usual pace). */
export function pollDelay(failures: number): number {
  return Math.min(POLL_MS * 2 ** Math.max(0, failures), MAX_RETRY_MS);
}
