// The hall's pure part: which open events it offers, what an event's and a challenge's tiles say.
import { describe, expect, it } from 'vitest';
import { eventFacts, eventName, eventStarts, nextEvents, quickLine, standingWords } from './hall';
import type { Hall, TournamentSummary } from './wire';

function event(id: string, table: TournamentSummary['table'], format: TournamentSummary['format'], more: Partial<TournamentSummary> = {}): TournamentSummary {
  return { id, title: '', host: 'Organiser', recurring: true, table, format, phase: 'registering', created_at: 0, entrants: 0, left: 0, podium: [], ...more };
}

const sng = (id: string, table: TournamentSummary['table'], more: Partial<TournamentSummary> = {}) =>
  event(id, table, { kind: 'sit_and_go', size: table === 'two_player' ? 8 : 9 }, more);
const scheduled = (id: string, at: number) => event(id, 'house', { kind: 'scheduled', starts_at: at, bots_fill: true }, { starts_at: at });

describe('nextEvents', () => {
  it('offers the next sit-and-go of each table type in quick match order, then the next scheduled event', () => {
    const open = [scheduled('s1', 10), sng('b', 'two_player'), scheduled('s2', 20), sng('a', 'house'), sng('c', 'no_shuffle'), sng('a2', 'house')];
    expect(nextEvents(open).map((e) => e.id)).toEqual(['a', 'c', 'b', 's1']);
  });

  it('leaves out a kind with no open event', () => {
    expect(nextEvents([sng('a', 'house')]).map((e) => e.id)).toEqual(['a']);
    expect(nextEvents([])).toEqual([]);
  });
});

describe("an event's tile", () => {
  it('names an untitled event by its table type, a titled one by its title (with the table type among its facts)', () => {
    expect(eventName(sng('a', 'no_shuffle'))).toBe('No Shuffle');
    expect(eventName(sng('a', 'house', { title: 'Friday night' }))).toBe('Friday night');
    expect(eventFacts(sng('a', 'house', { entrants: 3 }))).toBe('Sit-and-go · 3/9');
    expect(eventFacts(sng('a', 'house', { title: 'Friday night', entrants: 3 }))).toBe('House · Sit-and-go · 3/9');
    expect(eventFacts({ ...scheduled('s', Date.UTC(2026, 11, 6, 17, 0)), entrants: 12 })).toMatch(/^\d{1,2}:00( [AP]M)? · 12 registered$/);
  });

  it('counts down to the start at the server clock; a sit-and-go nobody joined starts when full', () => {
    expect(eventStarts(sng('a', 'house', { starts_at: 100_000 }), 40_000)).toBe('starts in 1:00');
    expect(eventStarts(scheduled('s', 3_600_000), 0)).toBe('starts in 1:00:00');
    expect(eventStarts(sng('a', 'two_player'), 0)).toBe('starts when full');
  });
});

describe("a challenge's standing", () => {
  const placing = { score: 120, deals: 20, date: '2026-12-06', listed: true, needs_deals: 0, needs_opponents: 0, protected: false };
  it('says not played, resume, or the best with its rank', () => {
    expect(standingWords(undefined)).toBe('Not played yet');
    expect(standingWords({ kind: 'buster', running: false })).toBe('Not played yet');
    expect(standingWords({ kind: 'rally', running: false })).toBe('Not played today');
    expect(standingWords({ kind: 'buster', running: true, best: { ...placing, rank: 3 } })).toBe('Resume your run');
    expect(standingWords({ kind: 'buster', running: false, best: { ...placing, rank: 3 } })).toBe('Best +$120 · #3');
    expect(standingWords({ kind: 'buster', running: false, best: { ...placing, score: -40 } })).toBe('Best −$40');
    expect(standingWords({ kind: 'bomber', running: false, best: { ...placing, rank: 1 } })).toBe('Best $120 · #1');
    expect(standingWords({ kind: 'rally', running: false, best: { ...placing, rank: 12 } })).toBe('Today +$120 · #12');
  });
});

describe('quickLine', () => {
  it("reads a table type's line, none yet as nobody waiting or playing", () => {
    const hall = { quick: [{ table: 'no_shuffle', waiting: 2, playing: 6 }] } as unknown as Hall;
    expect(quickLine(hall, 'no_shuffle')).toEqual({ table: 'no_shuffle', waiting: 2, playing: 6 });
    expect(quickLine(hall, 'house')).toEqual({ table: 'house', waiting: 0, playing: 0 });
    expect(quickLine(null, 'house')).toEqual({ table: 'house', waiting: 0, playing: 0 });
  });
});
