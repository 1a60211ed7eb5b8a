// Tournaments' pure part: sizes and default settings, the lists' order, a stage of the path and a running event
// in words, the countdown, the remembered tournament.
import { describe, expect, it } from 'vitest';
import {
  builtInFirst,
  countdown,
  enterOnce,
  hostWords,
  lastTournament,
  pathStageWords,
  rememberTournament,
  runningWords,
  tournamentPath,
} from './tournaments';
import type { PathStage, TournamentSummary } from './wire';

function summary(id: string, host: string, phase: TournamentSummary['phase'] = 'registering'): TournamentSummary {
  const recurring = host === 'Organiser';
  return { id, title: '', host, recurring, table: 'house', format: { kind: 'sit_and_go', size: 9 }, phase, created_at: 0, entrants: 9, left: 6, podium: [] };
}

describe('the lists', () => {
  it("put the site's own events first: a sit-and-go of each table type in order, then the scheduled", () => {
    const scheduled = { ...summary('hourly-house-1', 'Organiser'), format: { kind: 'scheduled' as const, starts_at: 0, bots_fill: true } };
    const events = [
      summary('soon', 'Ann'),
      scheduled,
      { ...summary('two-player-sit-and-go-2', 'Organiser'), table: 'two_player' as const },
      summary('later', 'Bob'),
      { ...summary('no-shuffle-sit-and-go-1', 'Organiser'), table: 'no_shuffle' as const },
      summary('house-sit-and-go-3', 'Organiser'),
    ];
    expect(builtInFirst(events).map((e) => e.id)).toEqual([
      'house-sit-and-go-3',
      'no-shuffle-sit-and-go-1',
      'two-player-sit-and-go-2',
      'hourly-house-1',
      'soon',
      'later',
    ]);
  });
  it("name the site as the host of its own events", () => {
    expect(hostWords(summary('a', 'Organiser'))).toBe('Hosted by the site');
    expect(hostWords(summary('a', 'Ann'))).toBe('Host: Ann');
  });
});

describe("a stage of the event's path in words", () => {
  const stage = (s: Partial<PathStage>): PathStage => ({ stage: 'chips', rounds: 0, planned: 3, players: 27, state: 'ahead', ...s });
  it('says the round in play of those planned, the rounds played, or those to come', () => {
    expect(pathStageWords(stage({ state: 'now', rounds: 2 }))).toEqual({ name: 'Chip rounds', progress: 'Round 2 of 3' });
    // A stage may run past its plan (the chip rounds end at a field size, not a count).
    expect(pathStageWords(stage({ stage: 'fixed', state: 'now', rounds: 3, planned: 2 })).progress).toBe('Round 3 of 3');
    expect(pathStageWords(stage({ state: 'done', rounds: 1 })).progress).toBe('1 round');
    expect(pathStageWords(stage({ state: 'done', rounds: 3 })).progress).toBe('3 rounds');
    expect(pathStageWords(stage({ stage: 'fixed', planned: 2 }))).toEqual({ name: 'Fixed-deal rounds', progress: 'Up to 2 rounds' });
  });
  it('says a stage the field skips, and the final once played', () => {
    expect(pathStageWords(stage({ stage: 'fixed', planned: 0 })).progress).toBe('Skipped');
    expect(pathStageWords(stage({ stage: 'final', planned: 1, state: 'done', rounds: 1 }))).toEqual({ name: 'Final table', progress: 'Played' });
    expect(pathStageWords(stage({ stage: 'final', planned: 1 })).progress).toBe('');
  });
});

describe('a running tournament in words', () => {
  it('says who is left, the round and its stage', () => {
    const running = { ...summary('abc', 'Ann', 'running'), round: 2, stage: 'final' as const };
    expect(runningWords(running)).toBe('6 of 9 left · Round 2 · final table');
    expect(runningWords({ ...running, round: undefined, stage: undefined })).toBe('6 of 9 left');
  });
});

describe('the countdown', () => {
  it('reads as a clock, rounded up to the second, never below 0', () => {
    expect(countdown(0)).toBe('0:00');
    expect(countdown(-5000)).toBe('0:00');
    expect(countdown(9_001)).toBe('0:10');
    expect(countdown(125_000)).toBe('2:05');
    expect(countdown(3_600_000 + 61_000)).toBe('1:01:01');
    expect(countdown(50 * 3_600_000)).toBe('50:00:00');
  });
});

function memory(): Storage {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) } as Storage;
}

describe('the remembered tournament', () => {
  it('is the one last opened', () => {
    const storage = memory();
    expect(lastTournament(storage)).toBeNull();
    expect(tournamentPath(storage)).toBe('/#/tournaments');
    rememberTournament('abc', storage);
    rememberTournament('def', storage);
    expect(lastTournament(storage)).toBe('def');
    expect(tournamentPath(storage)).toBe('/#/tournaments/def');
  });
});

describe('going to the table by itself', () => {
  it('happens once for each table', () => {
    const storage = memory();
    expect(enterOnce('AAAA', storage)).toBe(true);
    expect(enterOnce('AAAA', storage)).toBe(false);
    expect(enterOnce('BBBB', storage)).toBe(true);
  });
});
