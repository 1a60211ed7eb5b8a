// The server's JSON shapes (docs/protocol.md, docs/moves.md).

export type Card = string; // "3S", "TH", "BJ", "RJ", "W"

export interface Reading {
  type: string;
  main: string;
  length: number;
  attach: string;
  attach_count: number;
  strength?: string;
  ranks: string;
  wild_as?: string;
  text: string;
}

/** Why a selection cannot be played now (`POST /api/readings`). */
export type Refusal =
  | {
      kind:
        | 'nothing_selected'
        | 'not_in_hand'
        | 'not_a_play'
        | 'wild_alone'
        | 'wild_with_both_jokers'
        | 'four_in_a_row'
        | 'two_or_joker_in_run'
        | 'not_in_deck';
    }
  | { kind: 'does_not_beat'; reading: Reading; prior: Reading };

export interface HintPlay extends Reading {
  cards: Card[];
}

export type Action =
  | { action: 'take' | 'pass' | 'seen'; seat: number }
  | { action: 'bid'; seat: number; bid: number }
  | { action: 'call'; seat: number; call: boolean }
  | { action: 'rob'; seat: number; rob: boolean }
  | { action: 'play'; seat: number; cards: Card[]; play: Reading }
  | { action: 'deal_limit' | 'abandon'; seat?: undefined };

export type Auction =
  | { type: 'take_or_pass'; passes: number }
  | { type: 'bidding'; bids: number[] }
  | { type: 'call_and_rob'; holder: number | null; declined: boolean[]; robs: number; asked: number };

export interface DealResult {
  end: End;
  winner: number | null;
  landlord_won: boolean | null;
  spring: boolean;
  bombs: number;
  multiplier: number;
  auction_value: number;
  score: number[];
}

export interface DealView {
  rules: string;
  wild_rank: string | null;
  seat: number | null;
  phase: 'auction' | 'reveal' | 'play' | 'over';
  first: number;
  auction: Auction;
  landlord: number | null;
  waiting_for: number[];
  hand: Card[] | null;
  hand_sizes: number[];
  bottom: Card[] | null;
  seen: boolean[];
  trick: { seat: number; cards: Card[]; play: Reading } | null;
  actions: Action[];
  paid: number[];
  pot: number;
  ante: number;
  multiplier: number;
  auction_value: number;
  allowance: number | null;
  bombs: number;
  result: DealResult | null;
  /** House, deal 1: the priority draws, one card per seat per round (null: the seat no longer draws). */
  priority_draws: (Card | null)[][];
  /** What each seat did last, as the table shows it beside the seat. */
  last_moves: (LastMove | null)[];
  /** Once the deal is over: every seat's remaining cards, face up. */
  hands_at_end: Card[][] | null;
  /** Once the deal is over: how its amount came about, line by line. */
  score_lines: ScoreLine[];
}

/** A seat's last move: its word in the auction, a pass, or its last play (`in_trick: false`: an earlier trick's). */
export type LastMove =
  | { move: 'auction'; action: Action }
  | { move: 'passed' }
  | { move: 'played'; cards: Card[]; play: Reading; in_trick: boolean };

export type End = 'out' | 'allowance' | 'deal_limit' | 'abandoned';

/** One line of a finished deal's amount explained (RULES.md 6). */
export type ScoreLine =
  | { line: 'ante'; landlord: number; tenant: number }
  | { line: 'bomb_collected'; seat: number; landlord: number; tenant: number }
  | { line: 'bomb_free'; seat: number }
  | { line: 'pot_won'; pot: number; won: number[] }
  | { line: 'auction_value'; value: number; robs: number }
  | { line: 'multiplied'; seat: number; factor: number; multiplier: number }
  | { line: 'spring'; multiplier: number }
  | { line: 'capped'; cap: number }
  | { line: 'allowance'; seat: number; allowance: number }
  | { line: 'shares'; share: number; farmers: number }
  | { line: 'no_score'; end: End };

export interface Occupant {
  type: 'human' | 'bot';
  name: string;
  level?: string;
}

export interface SeatView {
  seat: number;
  occupant: Occupant | null;
  connected: boolean;
  balance: number | null;
  /** The player handed their turns to the bot. */
  auto_play: boolean;
}

export interface RoomView {
  code: string;
  mode: 'invite' | 'public' | 'bots' | 'challenge';
  rules: string;
  host: string;
  you: number | null;
  seats: SeatView[];
  deals_played: number;
  deal: DealView | null;
  turn_deadline: number | null;
  deal_deadline: number | null;
  log: LogLine[];
  closed: boolean;
  settlement: { from: string; to: string; amount: number }[];
  /** Indexes in `deal.actions` of the actions the clock had the bot play for a human. */
  timed_out: number[];
  challenge?: ChallengeView;
  /** On a continuing state: `deal.actions` holds only the actions after this many (`conn.svelte.ts`). */
  actions_from?: number;
}

/** A line of the table log; the client words it in the player's language (`lib/log.ts`). */
export type LogLine =
  | { event: 'sat'; name: string }
  | { event: 'bot_sat'; name: string; level: string }
  | { event: 'deal_started'; number: number; rules: string }
  | { event: 'timed_out'; name: string }
  | { event: 'went_out'; name: string }
  | { event: 'no_winner' }
  | { event: 'wild_set'; host: string; on: boolean; rank: boolean }
  | { event: 'auto_play'; name: string; on: boolean }
  | { event: 'host_changed'; from: string; to: string }
  | { event: 'closed' }
  | { event: 'run_over'; name: string; net: number }
  | { event: 'run_abandoned'; name: string; net: number };

export type ChallengeKind = 'buster' | 'bomber' | 'rally';

/** A challenge room's run (Bot Buster, Bot Bomber, a Bang rally). */
export interface ChallengeView {
  kind: ChallengeKind;
  rally: string | null;
  max_deals: number;
  ends_at_zero: boolean;
  /** The player's money in each finished deal. */
  nets: number[];
  best_pot: number;
  over: boolean;
}

export interface BoardRow {
  rank: number;
  name: string;
  score: number;
  deals: number;
  date: string;
}

export interface RallyResult {
  name: string;
  net: number;
  nets: number[];
}

export interface RallyComparison {
  date: string;
  you: RallyResult;
  best: RallyResult;
}

export interface StatLine {
  name: string;
  table: 'house' | 'noshuffle' | 'twoplayer';
  public: boolean;
  deals: number;
  landlord_deals: number;
  landlord_wins: number;
  farmer_deals: number;
  farmer_wins: number;
  money: number;
  points: number;
  bombs: number;
  springs: number;
}

export interface LobbyTable {
  code: string;
  mode: string;
  rules: string;
  seats: (string | null)[];
  deals_played: number;
  in_deal: boolean;
  closed: boolean;
}
