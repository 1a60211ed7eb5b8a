// The server's JSON shapes (docs/protocol.md, docs/moves.md). Most are generated from the Rust types into
// `wire.ts` (a test keeps it up to date); this module names them for the client, and describes the answers
// the server builds by hand.

import type { Action, DealResult, RallyResult, ReplayStep } from './wire';

export type {
  Action,
  Auction,
  BoardRow,
  Card,
  ChallengeKind,
  ChallengeView,
  ClientAction,
  Decision,
  Command,
  DealResult,
  DealView,
  End,
  ErrorCode,
  Event,
  HintPlay,
  LastMove,
  LogLine,
  Occupant,
  RallyResult,
  Reading,
  ReplayStep,
  Refusal,
  Review,
  RoomView,
  ScoreLine,
  SeatView,
  StatLine,
  Summary as LobbyTable,
} from './wire';

/** `GET /api/rallies/DATE/compare/NAME`, built with `json!` on the server. */
export interface RallyComparison {
  date: string;
  you: RallyResult;
  best: RallyResult;
}

/** A finished deal's record as the server stores it (docs/deal-record.md): the fields the client reads. */
export interface DealRecord {
  seats: string[];
  rules: string;
  actions: Action[];
  result: DealResult | null;
  /** Deals committed to before play (docs/fair-deals.md); absent on older records. */
  commitment?: string;
  seed: string;
  salt?: string;
}

/** `GET /api/rooms/CODE/deals/N`: deal N of a room, step by step (`steps[0]` as dealt, the last one finished). */
export interface Replay {
  code: string;
  number: number;
  seats: string[];
  record: DealRecord;
  steps: ReplayStep[];
}
