// The hall's shapes from issue 58's API contract, until the server's types reach `wire.ts` on main (then this
// file goes and the hall imports them from `wire.ts`).

import type { ChallengeKind, PlayerStats, Summary, TableType, TournamentSummary } from './wire';

export type QuickLine = { table: TableType; waiting: number; playing: number };

export type Hall = {
  now: number;
  online: number;
  playing: number;
  quick: QuickLine[];
  tournaments: TournamentSummary[];
  running: TournamentSummary[];
  tables: Summary[];
  today: string;
};

export type Placing = { rank?: number; score: number; deals: number; date: string; listed: boolean };

export type ChallengeStanding = { kind: ChallengeKind; best?: Placing; running: boolean };

export type PlayerPage = PlayerStats & { challenges: ChallengeStanding[] };

export type WatchHall = { type: 'watch_hall' };
export type HallEvent = { type: 'hall'; hall: Hall };
