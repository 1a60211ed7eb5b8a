// Tournaments' pure part: sizes and default settings, a player's table and path, the countdown, the remembered
// tournament.
import { describe, expect, it } from 'vitest';
import {
  countdown,
  currentTable,
  defaultSettings,
  enterOnce,
  isEntrant,
  lastTournament,
  playerPath,
  rememberTournament,
  runningWords,
  tournamentPath,
  sitAndGoSizes,
} from './tournaments';
import type { TournamentView } from './wire';

function view(phase: TournamentView['summary']['phase'], closedLast: boolean): TournamentView {
  return {
    summary: {
      id: 'abc',
      title: 'House sit-and-go',
      host: 'Host',
      table: 'house',
      format: { kind: 'sit_and_go', size: 9 },
      phase,
      created_at: 0,
      entrants: 9,
      left: 6,
      podium: [],
    },
    settings: defaultSettings('house', 9),
    until: 3,
    commitment: 'ff',
    standings: [
      { place: 1, name: 'Ann', bot: false, chips: 12000 },
      { place: 2, name: 'Bob', bot: false, chips: 9000, out: 1 },
    ],
    byes: [],
    rounds: [
      {
        number: 1,
        stage: 'chips',
        deals: 3,
        line: 2000,
        closed: true,
        tables: [
          { code: 'AAAA', players: ['Bob', 'Normal1', 'ann'], counted: 3, won: [-1000, 0, 2000] },
          { code: 'BBBB', players: ['Cat', 'Dan', 'Eve'], counted: 3, won: [0, 0, 0] },
        ],
      },
      { number: 2, stage: 'final', deals: 6, closed: closedLast, tables: [{ code: 'CCCC', players: ['Cat', 'Ann', 'Eve'], counted: 2, won: [5, -500, 495] }] },
    ],
    now: 0,
  };
}

describe('the create form', () => {
  it('offers the sizes the server takes', () => {
    expect(sitAndGoSizes('house')).toEqual([9, 27]);
    expect(sitAndGoSizes('no_shuffle')).toEqual([9, 27]);
    expect(sitAndGoSizes('two_player')).toEqual([8, 16]);
  });
  it('ends the chip rounds at a third of the field in whole tables, as the server does', () => {
    expect(defaultSettings('house', 27).chip_rounds_until).toBe(9);
    expect(defaultSettings('house', 9).chip_rounds_until).toBe(3);
    expect(defaultSettings('two_player', 16).chip_rounds_until).toBe(4);
    expect(defaultSettings('two_player', 8).chip_rounds_until).toBe(2);
    expect(defaultSettings('no_shuffle').chip_rounds_until).toBe(9);
  });
});

describe("a player's place in a tournament", () => {
  it('finds their table in the round in play, whatever the case of their name', () => {
    expect(currentTable(view('running', false), 'ANN')).toBe('CCCC');
    expect(currentTable(view('running', false), 'Bob')).toBeNull();
    expect(currentTable(view('running', true), 'Ann')).toBeNull();
    expect(currentTable(view('finished', false), 'Ann')).toBeNull();
  });
  it('follows their path: each round their table, its deals and their chips won there', () => {
    expect(playerPath(view('running', false), 'Ann')).toEqual({
      steps: [
        { round: 1, stage: 'chips', code: 'AAAA', counted: 3, deals: 3, won: 2000, closed: true },
        { round: 2, stage: 'final', code: 'CCCC', counted: 2, deals: 6, won: -500, closed: false },
      ],
      out: null,
    });
    expect(playerPath(view('running', false), 'bob')).toEqual({
      steps: [{ round: 1, stage: 'chips', code: 'AAAA', counted: 3, deals: 3, won: -1000, closed: true }],
      out: 1,
    });
    expect(playerPath(view('running', false), 'Zed')).toEqual({ steps: [], out: null });
  });
  it('knows the entrants', () => {
    expect(isEntrant(view('running', false), 'ann')).toBe(true);
    expect(isEntrant(view('running', false), 'Zed')).toBe(false);
  });
});

describe('a running tournament in words', () => {
  it('says who is left, the round and its stage', () => {
    const summary = { ...view('running', false).summary, round: 2, stage: 'final' as const };
    expect(runningWords(summary)).toBe('6 of 9 left · Round 2 · final table');
    expect(runningWords({ ...summary, round: undefined, stage: undefined })).toBe('6 of 9 left');
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
