// The server's JSON shapes (docs/protocol.md, docs/moves.md). All but one are generated from the Rust
// types into `wire.ts` (a test keeps it up to date); this module names them for the client.

import type { RallyResult } from './wire';

export type {
  Action,
  Auction,
  BoardRow,
  Card,
  ChallengeKind,
  ChallengeView,
  ClientAction,
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
  Refusal,
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
