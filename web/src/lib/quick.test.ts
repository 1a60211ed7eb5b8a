// Quick match's pure part: the stored ticket and table choice, the waiting clock, the polling pace.
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_MS, POLL_MS, chooseTable, clockAt, forgetTicket, lastTable, loadTicket, pollDelay, saveTicket } from './quick';

/** A Storage in memory. */
function memory(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

describe('the stored ticket', () => {
  it('round-trips and is forgotten', () => {
    const s = memory();
    expect(loadTicket(s)).toBeNull();
    saveTicket({ ticket: 'abc', name: 'Ann', table: 'no_shuffle' }, s);
    expect(loadTicket(s)).toEqual({ ticket: 'abc', name: 'Ann', table: 'no_shuffle' });
    forgetTicket(s);
    expect(loadTicket(s)).toBeNull();
  });

  it('counts anything malformed as no ticket', () => {
    const s = memory();
    for (const text of ['{', '"abc"', '{"ticket":"abc","name":"Ann"}', '{"ticket":"","name":"Ann","table":"house"}',
      '{"ticket":"abc","name":"Ann","table":"poker"}', '{"ticket":1,"name":"Ann","table":"house"}']) {
      s.setItem('ddz.quick', text);
      expect(loadTicket(s), text).toBeNull();
    }
  });
});

describe('the table choice', () => {
  it('is none at first and remembers a quick-match table type', () => {
    const s = memory();
    expect(lastTable(s)).toBe(null);
    chooseTable('two_player', s);
    expect(lastTable(s)).toBe('two_player');
    s.setItem('ddz.quickTable', 'poker');
    expect(lastTable(s)).toBe(null);
  });
});

describe('the waiting clock', () => {
  it('moves the last answer on by the time since it came', () => {
    const match = { waited_ms: 2300, fill_in_ms: 7700 };
    expect(clockAt(match, 1000, 1000)).toEqual({ waited: 2, fillIn: 8 });
    expect(clockAt(match, 1000, 1700)).toEqual({ waited: 3, fillIn: 7 });
    expect(clockAt(match, 1000, 8700)).toEqual({ waited: 10, fillIn: 0 });
    expect(clockAt(match, 1000, 60_000)).toEqual({ waited: 61, fillIn: 0 });
  });

  it('never runs backwards when the clock reads earlier than the answer', () => {
    expect(clockAt({ waited_ms: 0, fill_in_ms: 10_000 }, 5000, 4000)).toEqual({ waited: 0, fillIn: 10 });
  });
});

describe('the polling pace', () => {
  it('polls every half second, backing off after failures but well inside the server’s 15 s', () => {
    expect(pollDelay(0)).toBe(POLL_MS);
    expect(pollDelay(1)).toBe(2 * POLL_MS);
    expect(pollDelay(2)).toBe(4 * POLL_MS);
    expect(pollDelay(10)).toBe(MAX_RETRY_MS);
    expect(MAX_RETRY_MS).toBeLessThan(15_000 / 2);
  });
});
