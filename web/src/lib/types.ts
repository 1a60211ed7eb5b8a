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
  end: string;
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
}

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
}

export interface RoomView {
  code: string;
  mode: 'invite' | 'public' | 'bots';
  rules: string;
  host: string;
  you: number | null;
  seats: SeatView[];
  deals_played: number;
  deal: DealView | null;
  turn_deadline: number | null;
  deal_deadline: number | null;
  log: string[];
  closed: boolean;
  settlement: { from: string; to: string; amount: number }[];
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
