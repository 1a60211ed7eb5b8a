// Generated from the server's Rust types by `crates/ddz-server/src/wire/typescript.rs` (ts-rs). Do not edit:
// run `DDZ_BLESS=1 cargo test -p ddz-server --test server wire_types` after changing a wire type.

export type Card = string;

export type CardSet = Array<Card>;

export type Rank = string;

export type Rules = "house" | "house-nowild" | "noshuffle" | "noshuffle-wildrank" | "twoplayer" | "twoplayer-wildrank";

export type Kind = "single" | "pair" | "triples" | "straight" | "pair_run" | "four_with_two" | "bomb" | "rocket";

export type Strength = "soft" | "natural" | "pure_wild";

export type AttachJson = "none" | "singles" | "pairs";

export type Reading = { type: Kind, main: Rank, length: number, attach: AttachJson, attach_count: number, 
/**
 * Optional on input: only needed where it decides.
 */
strength: Strength | null, ranks: string, 
/**
 * Optional on input: only needed where it decides.
 */
wild_as: string | null, 
/**
 * A description for people, ignored on input.
 */
text: string, };

export type Play = Reading;

export type Action = { "action": "take", seat: number, } | { "action": "pass", seat: number, } | { "action": "bid", seat: number, bid: number, } | { "action": "call", seat: number, call: boolean, } | { "action": "rob", seat: number, rob: boolean, } | { "action": "seen", seat: number, } | { "action": "play", seat: number, cards: CardSet, play: Play, } | { "action": "deal_limit" } | { "action": "abandon" };

export type Phase = "auction" | "reveal" | "play" | "over";

export type Auction = { "type": "take_or_pass", passes: number, } | { "type": "bidding", bids: Array<number>, } | { "type": "call_and_rob", 
/**
 * The last seat to call or rob.
 */
holder: number | null, declined: Array<boolean>, robs: number, 
/**
 * Seats that have answered the call question.
 */
asked: number, };

export type End = "out" | "allowance" | "deal_limit" | "abandoned";

export type DealResult = { end: End, 
/**
 * The seat that went out (or reached the allowance); `None` when there is no winner.
 */
winner: number | null, landlord_won: boolean | null, 
/**
 * No Shuffle / Two Player: the landlord won with no farmer card played, or the farmers won with
 * the landlord having played only the opening lead.
 */
spring: boolean, 
/**
 * Bombs and rockets played in the deal.
 */
bombs: number, 
/**
 * No Shuffle / Two Player: the final multiplier (capped at 1024); 1 in House.
 */
multiplier: number, 
/**
 * No Shuffle: the winning bid; Two Player: 1 doubled per rob; 1 in House.
 */
auction_value: number, 
/**
 * Per seat: money won or lost (House) or points (No Shuffle, Two Player). Sums to zero.
 */
score: Array<number>, };

export type Trick = { seat: number, cards: CardSet, play: Play, };

export type LastMove = { "move": "auction", action: Action, } | { "move": "passed" } | { "move": "played", cards: CardSet, play: Play, in_trick: boolean, };

export type ScoreLine = { "line": "ante", landlord: number, tenant: number, } | { "line": "bomb_collected", seat: number, landlord: number, tenant: number, } | { "line": "bomb_free", seat: number, } | { "line": "pot_won", pot: number, won: Array<number>, } | { "line": "auction_value", value: number, robs: number, } | { "line": "multiplied", seat: number, factor: number, multiplier: number, } | { "line": "spring", multiplier: number, } | { "line": "capped", cap: number, } | { "line": "allowance", seat: number, allowance: number, } | { "line": "shares", share: number, farmers: number, } | { "line": "no_score", end: End, };

export type Fairness = { commitment: string, seed: string | null, salt: string | null, 
/**
 * The players' nonces by seat, from the deal's start (they reveal nothing without the seed), so that
 * each player sees that their own went in.
 */
nonces?: Array<string | null>, };

export type DealView = { rules: Rules, 
/**
 * The drawn wild rank (Wild Rank tables).
 */
wild_rank: Rank | null, 
/**
 * The viewing seat; `None` for a spectator.
 */
seat: number | null, phase: Phase, 
/**
 * The seat with the first option, bid or call.
 */
first: number, 
/**
 * House, first deal: the priority draws, one card per seat per round.
 */
priority_draws: Array<Array<Card | null>>, auction: Auction, landlord: number | null, 
/**
 * Seats whose action is awaited.
 */
waiting_for: Array<number>, 
/**
 * The viewing seat's own hand.
 */
hand: CardSet | null, 
/**
 * Cards in each seat's hand.
 */
hand_sizes: Array<number>, 
/**
 * The middle (House) or bottom cards, once the landlord has taken them.
 */
bottom: CardSet | null, 
/**
 * House: who has acknowledged the middle cards.
 */
seen: Array<boolean>, trick: Trick | null, actions: Array<Action>, 
/**
 * House: each seat's payments into the pot, the pot, and the landlord's share of the next ante.
 */
paid: Array<number>, pot: number, ante: number, 
/**
 * No Shuffle / Two Player.
 */
multiplier: number, auction_value: number, 
/**
 * Two Player: the farmer's allowance.
 */
allowance: number | null, bombs: number, result: DealResult | null, 
/**
 * What each seat did last, as the table shows it.
 */
last_moves: Array<LastMove | null>, 
/**
 * Once the deal is over: every seat's remaining cards, face up.
 */
hands_at_end: Array<CardSet> | null, 
/**
 * Once the deal is over: how its amount came about, line by line.
 */
score_lines: Array<ScoreLine>, 
/**
 * The deal's published commitment, with its seed and salt revealed once the deal is over.
 */
fairness: Fairness | null, };

export type ReplayStep = { view: DealView, hands: Array<CardSet>, bottom: CardSet, };

export type Payment = { from: string, to: string, amount: number, };

export type BotKind = "random" | "greedy" | "beginner" | "easy" | "normal" | "hard" | "bomber";

export type Decision = { 
/**
 * The index of the decision's action in the deal's actions (the replay's step before it).
 */
step: number, 
/**
 * The legal choices the seat had.
 */
choices: number, played: Action, 
/**
 * The side's estimated chance of winning after `played` (0 to 1).
 */
played_chance: number, 
/**
 * The bot's choice: the candidate with the best chance (`played` itself when nothing beat it).
 */
best: Action, best_chance: number, 
/**
 * The play cost at least [`MISTAKE`] of the side's chance: decided here, once, so that every reader
 * of the review (the replay viewer, `ddz review`) counts the same mistakes.
 */
mistake: boolean, };

export type Review = { seat: number, decisions: Array<Decision>, };

export type RoomCode = string;

export type NameKey = string;

export type Mode = "invite" | "public" | "bots" | "challenge" | "quick" | "tournament";

export type Occupant = { "type": "human", name: string, } | { "type": "bot", name: string, level: BotKind, };

export type SeatView = { seat: number, occupant: Occupant | null, 
/**
 * The occupant's name key (a person's): the page knows its player's seat and mutes a name by it.
 */
key?: NameKey, connected: boolean, balance: number | null, 
/**
 * The player has handed their turns to the bot.
 */
auto_play: boolean, 
/**
 * The occupant's rating in this table's family, in points (docs/ratings.md): a bot's fixed one, a
 * player's as stored (none before their first rated deal, and none while a rally is sealed).
 */
rating: number | null, };

export type LogLine = { "event": "sat", name: string, } | { "event": "bot_sat", name: string, level: BotKind, } | { "event": "deal_started", number: number, rules: TableRules, } | { "event": "timed_out", name: string, } | { "event": "went_out", name: string, } | { "event": "no_winner" } | { "event": "wild_set", host: string, on: boolean, rank: boolean, } | { "event": "auto_play", name: string, on: boolean, } | { "event": "host_changed", from: string, to: string, } | { "event": "closed" } | { "event": "run_over", name: string, net: number, } | { "event": "run_abandoned", name: string, net: number, };

export type ChallengeKind = "buster" | "bomber" | "rally";

export type ChallengeView = { kind: ChallengeKind, 
/**
 * A rally's date (`2026-11-29`).
 */
rally: string | null, 
/**
 * The run's length at most (20 deals; a rally's 10).
 */
max_deals: number, 
/**
 * Whether a balance at $0 ends the run (Bot Buster, Bot Bomber).
 */
ends_at_zero: boolean, 
/**
 * The player's money in each finished deal, and the biggest pot they took.
 */
nets: Array<number>, best_pot: number, 
/**
 * The run has ended (or was abandoned) and its result is on the board.
 */
over: boolean, };

export type Chat = "hello" | "good_luck" | "well_played" | "nice_bomb" | "thanks" | "sorry" | "hurry_up" | "oops" | "laugh" | "cry" | "angry" | "thumbs_up";

export type OfferView = { 
/**
 * SHA-256 of the server's seed and salt, published before any nonce (`ddz-fair/1`).
 */
commitment: string, 
/**
 * The seats whose nonces the deal waits for, and whether each seat's came (by seat).
 */
awaited: Array<number>, received: Array<boolean>, 
/**
 * When the deal is dealt without the nonces still missing (ms since the Unix epoch).
 */
deadline: number, };

export type Unrated = { "reason": "no_result" } | { "reason": "closed_by_host" } | { "reason": "abandoned" } | { "reason": "bot_played", bot: number, of: number, } | { "reason": "passed", passed: number, chances: number, } | { "reason": "player_passed" } | { "reason": "same_address" } | { "reason": "same_browser" } | { "reason": "flagged_pair" } | { "reason": "rally_held" };

export type Verdict = { 
/**
 * The deal counts for the seat's rating and boards (a rally's once the rally closes).
 */
counted: boolean, 
/**
 * Why not, or (counted) why only as a loss; none for an ordinary counted deal.
 */
reason: Unrated | null, 
/**
 * What the deal did to the seat's rating, in points, once stored (the room's task fills it in).
 */
change: number | null, };

export type RoomView = { code: RoomCode, mode: Mode, 
/**
 * The next deal's table and option.
 */
rules: TableRules, host: string, you: number | null, 
/**
 * The reader is the host (by name key: the page compares no names).
 */
hosting: boolean, seats: Array<SeatView>, deals_played: number, deal: DealView | null, 
/**
 * The current turn's deadline and the deal limit, in milliseconds since the Unix epoch.
 */
turn_deadline: number | null, deal_deadline: number | null, 
/**
 * The next deal, committed to and waiting for the players' nonces (docs/fair-deals.md): a client
 * whose seat is awaited sends `nonce` at once.
 */
offer?: OfferView, 
/**
 * The last 50 lines of the table log ([`crate::domain::room::LOG_KEPT`]).
 */
log: Array<LogLine>, 
/**
 * The current deal's actions that the clock had the bot play for a human: indexes into its actions.
 */
timed_out: Array<number>, closed: boolean, settlement: Array<Payment>, 
/**
 * Connections without a seat: spectators, and named guests who have not sat.
 */
watching: number, 
/**
 * Bot Buster, Bot Bomber or a Bang rally: how the run stands.
 */
challenge?: ChallengeView | null, 
/**
 * Set on a `state` that continues the connection's previous one in the same deal: `deal.actions`
 * then holds only the actions after the first `actions_from`, which the client already has (see
 * [`RoomView::continuing`]). Absent on snapshots, which carry every action.
 */
actions_from?: number | null, 
/**
 * Once a deal at a rated table is over: what it did for each seated person (by seat; `null` for a
 * bot), counted or not and why, with the rating's change (docs/ratings.md, "What counts").
 */
verdicts?: Array<Verdict | null>, };

export type Summary = { code: RoomCode, mode: Mode, rules: TableRules, seats: Array<string | null>, 
/**
 * How many of the seated are people, not bots (the hall counts who plays).
 */
people: number, deals_played: number, in_deal: boolean, closed: boolean, };

export type ErrorCode = "deal_over" | "not_your_turn" | "wrong_phase" | "must_take" | "bad_bid" | "bid_too_low" | "declined_cannot_rob" | "already_seen" | "not_in_hand" | "cards_do_not_match" | "not_that_reading" | "does_not_beat" | "cannot_pass_on_lead" | "no_cards" | "wild_alone" | "wild_with_both_jokers" | "four_in_a_row" | "two_or_joker_in_run" | "not_in_deck" | "not_a_play" | "room_closed" | "seat_taken" | "no_such_seat" | "room_full" | "already_seated" | "not_host" | "deal_in_progress" | "seats_empty" | "no_deal" | "not_seated" | "run_over" | "challenge_rules" | "challenge_seats" | "challenge_auto_play" | "no_nonce_wanted" | "dealing" | "not_a_challenge" | "unknown_room" | "name_taken" | "superseded" | "bad_name" | "bad_message" | "already_in_room" | "frame_too_large" | "rate_limited" | "busy" | "server_full" | "bad_request" | "hand_too_large" | "not_found" | "rally_played" | "spectator" | "rally_open" | "too_many_watching" | "name_protected" | "already_protected" | "wrong_recovery_code" | "too_many_guesses" | "method_not_allowed" | "bad_position" | "no_such_deal" | "unknown_table_type" | "unknown_board" | "not_a_date" | "rally_not_begun" | "rally_not_finished" | "no_such_ticket" | "name_not_protected" | "no_such_tournament" | "bad_settings" | "registration_closed" | "already_registered" | "not_registered" | "tournament_full" | "hosting_limit" | "tournament_not_over" | "tournament_table" | "entrant_watching" | "no_such_puzzle" | "puzzle_attempted" | "not_a_legal_move" | "attempt_unfinished" | "connection_broken" | "room_moved" | "save_failed" | "database_unavailable" | "room_unreachable" | "restarting" | "not_ready" | "internal";

export type ClientAction = { "action": "take" } | { "action": "pass" } | { "action": "bid", bid: number, } | { "action": "call", call: boolean, } | { "action": "rob", rob: boolean, } | { "action": "seen" } | { "action": "play", cards: CardSet, play: Play, };

export type Command = { "type": "hello", room: RoomCode, name: string, token: string | null, key: string | null, 
/**
 * The browser's own random id, kept in its storage: two names at one rated table from one
 * browser do not count together (docs/ratings.md).
 */
browser: string | null, } | { "type": "watch", room: RoomCode, } | { "type": "watch_lobby" } | { "type": "watch_hall" } | { "type": "follow_tournament", id: string, name: string | null, } | { "type": "sit", seat: number | null, } | { "type": "act", seq: number, action: ClientAction, } | { "type": "add_bot", seat: number, level: BotKind, } | { "type": "start" } | { "type": "set_wild", on: boolean, } | { "type": "auto_play", on: boolean, } | { "type": "close" } | { "type": "chat", chat: Chat, } | { "type": "nonce", nonce: Seed, } | { "type": "ping" } | { "type": "sync" };

export type Event = { "type": "state", n: number, room: RoomView, } | { "type": "lobby", tables: Array<Summary>, } | { "type": "hall", hall: Hall, } | { "type": "tournament", now: number, page: TournamentPage, you?: TournamentYou, } | { "type": "ack", seq: number, } | { "type": "error", code: ErrorCode, message: string, seq: number | null, } | { "type": "pong" } | { "type": "session", token: string, } | { "type": "replaced" } | { "type": "chat", seat: number, chat: Chat, } | { "type": "restarting" };

export type Refusal = { "kind": "nothing_selected" } | { "kind": "not_in_hand" } | { "kind": "not_a_play" } | { "kind": "wild_alone" } | { "kind": "wild_with_both_jokers" } | { "kind": "four_in_a_row" } | { "kind": "two_or_joker_in_run" } | { "kind": "does_not_beat", reading: Reading, prior: Reading, } | { "kind": "not_in_deck" };

export type HintPlay = { cards: CardSet, type: Kind, main: Rank, length: number, attach: AttachJson, attach_count: number, 
/**
 * Optional on input: only needed where it decides.
 */
strength: Strength | null, ranks: string, 
/**
 * Optional on input: only needed where it decides.
 */
wild_as: string | null, 
/**
 * A description for people, ignored on input.
 */
text: string, };

export type ReadingsAnswer = { readings: Array<Reading>, error?: string, refusal?: Refusal, 
/**
 * More readings than the server answers with were left off.
 */
truncated?: boolean, };

export type BoardRow = { rank: number, name: string, score: number, deals: number, 
/**
 * The date of the result (`2026-11-29`, UTC).
 */
date: string, 
/**
 * The name is protected (`docs/names.md`): only its key's holder plays under it. Marked by whoever
 * answers with the board (the names' protection is no part of a result).
 */
protected: boolean, 
/**
 * The row of the name the board was asked about (`?name=`), by its key: the page marks it without
 * comparing names itself.
 */
yours?: boolean, };

export type RallyResult = { name: string, net: number, nets: Array<number>, };

export type StatLine = { name: string, table: TableType, public: boolean, deals: number, landlord_deals: number, landlord_wins: number, farmer_deals: number, farmer_wins: number, money: number, points: number, bombs: number, springs: number, };

export type BoardName = "overall" | "lobby" | "buster" | "bomber" | "rally";

export type RatingRow = { rank: number, name: string, 
/**
 * The rating in points ([`points`]) and two standard deviations of it.
 */
rating: number, uncertainty: number, deals: number, 
/**
 * The date of the player's latest rated deal.
 */
date: string, 
/**
 * The name is protected (`docs/names.md`): the board marks it.
 */
protected: boolean, 
/**
 * The row of the name the board was asked about (`?name=`), by its key: the page marks it without
 * comparing names itself.
 */
yours?: boolean, };

export type RatingPoint = { 
/**
 * When the deal finished (ms since the Unix epoch).
 */
at: number, rating: number, };

export type PlayerRating = { table: TableType, rating: number, uncertainty: number, deals: number, history: Array<RatingPoint>, };

export type TableType = "house" | "no_shuffle" | "two_player";

export type TableRules = { table: TableType, 
/**
 * House: the 55th card, the Wild, is in the deck.
 */
wild: boolean, 
/**
 * No Shuffle or Two Player: the Wild Rank option (four cards of a drawn rank are wild).
 */
wild_rank: boolean, };

export type Seed = string;

export type Start = "priority_draw" | "random" | { "seat": number };

export type Dealing = "packets" | "stacked" | "in_turn";

export type DealSetup = { 
/**
 * The table's rules (the Wild Rank option undrawn; the deal draws it).
 */
rules: Rules, seed: Seed, start: Start, 
/**
 * No Shuffle "play again": the previous deal's collected pack, to be cut and dealt without shuffling.
 */
pack?: Array<Card>, 
/**
 * How `pack` is dealt (ignored without a pack: a shuffled deck is dealt a card at a time in turn).
 * Written only with a pack.
 */
dealing?: Dealing, 
/**
 * The salt of the deal's published commitment (`crate::fair`); none for deals nobody committed to.
 */
salt?: Seed, 
/**
 * The players' nonces by seat (`crate::fair::dealing_seed`): with them the cards are dealt from the
 * seed and the nonces together; without them (rallies, older records), from the seed alone.
 */
nonces?: Array<string | null>, };

export type DealRecord = { format: string, 
/**
 * Player names by seat.
 */
seats: Array<string>, actions: Array<Action>, 
/**
 * `None` for an unfinished deal.
 */
result: DealResult | null, 
/**
 * The state hash after the last action (16 hex digits).
 */
state_hash: string, 
/**
 * The commitment published before the deal (`crate::fair`): SHA-256 of the seed and the salt.
 */
commitment?: string, 
/**
 * The table's rules (the Wild Rank option undrawn; the deal draws it).
 */
rules: Rules, seed: Seed, start: Start, 
/**
 * No Shuffle "play again": the previous deal's collected pack, to be cut and dealt without shuffling.
 */
pack?: Array<Card>, 
/**
 * How `pack` is dealt (ignored without a pack: a shuffled deck is dealt a card at a time in turn).
 * Written only with a pack.
 */
dealing?: Dealing, 
/**
 * The salt of the deal's published commitment (`crate::fair`); none for deals nobody committed to.
 */
salt?: Seed, 
/**
 * The players' nonces by seat (`crate::fair::dealing_seed`): with them the cards are dealt from the
 * seed and the nonces together; without them (rallies, older records), from the seed alone.
 */
nonces?: Array<string | null>, };

export type CreateRoom = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, table: TableType, wild: boolean, public: boolean, };

export type PlayVsBots = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, table: TableType, wild: boolean, level: BotKind, };

export type JoinQuickMatch = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, table: TableType, };

export type QuickMatch = { ticket: string, name: string, table: TableType, 
/**
 * How long the player has waited (ms).
 */
waited_ms: number, 
/**
 * While waiting: in how long bots fill the seats nobody came for (ms), and how many wait for this
 * table type (the player included).
 */
fill_in_ms: number, waiting: number, 
/**
 * Once matched: the room to enter, and how many bots sit there with the players.
 */
room?: RoomCode, bots: number, };

export type StartChallenge = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, kind: ChallengeKind, };

export type Position = { 
/**
 * The table's rules, as `DealView.rules` names them (`house`, `noshuffle-wildrank`, ...).
 */
rules: Rules, 
/**
 * The drawn wild rank (Wild Rank tables only).
 */
wild_rank: Rank | null, hand: Array<Card>, 
/**
 * `/api/readings`: the selected cards.
 */
cards?: Array<Card>, 
/**
 * The play to beat; absent or null on a free lead.
 */
prior: Reading | null, };

export type RoomCreated = { code: RoomCode, };

export type ChallengeStarted = { code: RoomCode, resumed: boolean, };

export type Lobby = { tables: Array<Summary>, };

export type RoomDeals = { deals: Array<DealRecord>, };

export type Replay = { code: RoomCode, number: number, seats: Array<string>, 
/**
 * Each seat's name key: the page finds its own seat by the server's key, never by comparing names.
 */
keys: Array<NameKey>, record: DealRecord, steps: Array<ReplayStep>, };

export type DealReview = { code: RoomCode, number: number, review: Review, };

export type BoardRank = { board: string, 
/**
 * 1 for the top; `None` beyond the first [`RANKED`] (counted through the board's index, never
 * every player).
 */
rank: number | null, };

export type Standing = { rated_deals: number, opponents: number, listed: boolean, 
/**
 * What listing takes: rated deals, and distinct opponents (people by name, each bot level one).
 */
needs_deals: number, needs_opponents: number, 
/**
 * The player's rank on each board they have a row on, once listed.
 */
ranks: Array<BoardRank>, };

export type Placing = { rank?: number, score: number, deals: number, 
/**
 * The date of the result (`2026-11-29`, UTC).
 */
date: string, 
/**
 * Listed on the board (docs/ratings.md, "What counts"; challenge boards list every finished run).
 */
listed: boolean, 
/**
 * What listing still takes: rated deals, and distinct opponents (0 once listed).
 */
needs_deals: number, needs_opponents: number, 
/**
 * The name is protected (`docs/names.md`).
 */
protected: boolean, };

export type RatingPlacing = { rank?: number, rating: number, uncertainty: number, deals: number, date: string, listed: boolean, 
/**
 * What listing still takes, as [`Placing`]'s.
 */
needs_deals: number, needs_opponents: number, protected: boolean, };

export type ChallengeStanding = { kind: ChallengeKind, 
/**
 * Bot Buster and Bot Bomber: the name's best finished run; the rally: today's attempt, once finished.
 */
best?: Placing, 
/**
 * An unfinished run (today's rally begun) that the name resumes by starting the challenge again.
 */
running: boolean, };

export type PlayerStats = { name: string, 
/**
 * The name's key ([`NameKey`]): the same for every spelling of the name.
 */
key: NameKey, 
/**
 * The name is protected (`docs/names.md`).
 */
protected: boolean, stats: Array<StatLine>, 
/**
 * The player's rating in each family they have played rated deals in, with its history.
 */
ratings: Array<PlayerRating>, 
/**
 * Where the player stands on the boards.
 */
standing: Standing, 
/**
 * Bot Buster, Bot Bomber and today's rally, in that order.
 */
challenges: Array<ChallengeStanding>, 
/**
 * The finished tournaments the name played in, newest first (at most [`TOURNAMENTS_SHOWN`]).
 */
tournaments: Array<TournamentFinish>, puzzles: PuzzleRecord, };

export type PlayedDeal = { code: RoomCode, number: number, 
/**
 * When it finished (ms since the epoch).
 */
at: number, table: TableType, mode: Mode, seat: number, landlord: boolean, 
/**
 * Absent when the deal had no winner.
 */
won?: boolean, 
/**
 * Dollars at House, points elsewhere.
 */
amount: number, 
/**
 * The other seats' names, in seat order after this one.
 */
others: Array<string>, };

export type PlayedDeals = { deals: Array<PlayedDeal>, 
/**
 * The `before` of the next page; absent on the last.
 */
next?: string, };

export type Board = { board: BoardName, date: string | null, rows: Array<BoardRow>, 
/**
 * The row of the name asked about (`?name=`), wherever it stands; absent when it has none.
 */
you?: Placing, };

export type RatingBoard = { table: TableType, rows: Array<RatingRow>, 
/**
 * The row of the name asked about (`?name=`), wherever it stands; absent when it has none.
 */
you?: RatingPlacing, };

export type Rallies = { today: string, dates: Array<string>, };

export type RallyComparison = { date: string, you: RallyResult, best: RallyResult, };

export type RallyFairness = { date: string, commitment: string, closed: boolean, deals: Array<Fairness>, };

export type Hints = { plays: Array<HintPlay>, 
/**
 * More plays than the server answers with were left off.
 */
truncated: boolean, };

export type ProtectName = { name: string, };

export type RecoverName = { name: string, code: string, };

export type NameCard = { name: string, key: NameKey, protected: boolean, };

export type NameSecrets = { name: string, key: string, recovery: string, };

export type TournamentSettings = { table: TableType, 
/**
 * Everyone's chips at the start.
 */
chips: number, 
/**
 * Chips per point (No Shuffle, Two Player) or per dollar (House) a deal's settlement moves.
 */
stake: number, 
/**
 * The line after the first chip round, in percent of the starting chips: below it, a player is out.
 */
line_percent: number, 
/**
 * How much the line rises after each further chip round, in percent of the starting chips.
 */
line_step_percent: number, 
/**
 * Deals each table plays in a chip round.
 */
line_every: number, 
/**
 * Chip rounds at most: after the last, the chip leaders go on.
 */
chip_rounds: number, 
/**
 * The chip rounds end when no more players than this remain (a multiple of a table's seats; a
 * field too small for it takes half its size, rounded down to whole tables).
 */
chip_rounds_until: number, 
/**
 * The share of a player's chips carried into the fixed-deal rounds, in percent.
 */
carry_percent: number, 
/**
 * Deals each table plays in a fixed-deal round.
 */
deals_per_round: number, 
/**
 * Deals at the final table.
 */
final_deals: number, };

export type SettingsBounds = { chips: [number, number], stake: [number, number], line_percent: [number, number], line_step_percent: [number, number], line_every: [number, number], chip_rounds: [number, number], carry_percent: [number, number], deals_per_round: [number, number], final_deals: [number, number], };

export type TournamentRules = { 
/**
 * Each table type's seats, sit-and-go sizes and default settings.
 */
tables: Array<TableTournaments>, 
/**
 * Each setting's bounds, inclusive.
 */
bounds: SettingsBounds, 
/**
 * How long a sit-and-go's bots may wait before they fill it, in ms, inclusive.
 */
bots_after_ms: [number, number], 
/**
 * The longest title, in characters.
 */
title_chars: number, };

export type PuzzleView = { id: string, endgame: Endgame, 
/**
 * `landlord` or `farmers`.
 */
side: string, rating: number, plays: number, solved: number, themes: Array<PuzzleTheme>, source: PuzzleSource, 
/**
 * The daily puzzle's date (UTC).
 */
date?: string, };

export type PuzzleDeal = { id: string, seats: Array<string>, record: DealRecord, steps: Array<ReplayStep>, 
/**
 * The puzzle is the position after this many of the deal's actions: `steps[step]`.
 */
step: number, };

export type PuzzleRecord = { rating: number, attempts: number, solved: number, recent: Array<PuzzleTry>, };

export type PuzzleTry = { id: string, solved: boolean, at: number, rating: number, puzzle_rating: number, };

export type PuzzleAttempt = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, moves: Array<Play | null>, };

export type PuzzleResult = { solved: boolean, 
/**
 * Every move as it was played: the player's and the solver's answers.
 */
line: Array<Play | null>, 
/**
 * The player's move (by its place among theirs) that gave the win away.
 */
wrong?: number, 
/**
 * After the wrong move: how the other side wins (the solver's refutation).
 */
refutation: Array<Play | null>, 
/**
 * The puzzle's solution line.
 */
solution: Array<Play | null>, 
/**
 * The ratings the attempt moved (the name's first attempt at the puzzle).
 */
rating?: PuzzleRatingChange, };

export type PuzzleRatingChange = { before: number, after: number, puzzle_before: number, puzzle_after: number, };

export type PuzzleBoard = { rows: Array<PuzzleBoardRow>, you?: PuzzleStanding, };

export type PuzzleBoardRow = { rank: number, name: string, rating: number, attempts: number, solved: number, yours?: boolean, };

export type PuzzleStanding = { rating: number, attempts: number, };

export type Endgame = { 
/**
 * `house`, `house-nowild`, `noshuffle`, `noshuffle-wildrank`, `twoplayer`, `twoplayer-wildrank`.
 */
rules: string, wild_rank?: Rank, 
/**
 * By seat, as ranks: `"334BR"`, `W` for the Wild.
 */
hands: Array<string>, landlord: number, turn: number, trick?: EndgameTrick, allowance?: number, };

export type EndgameTrick = { seat: number, play: Play, };

export type PuzzleTheme = "bomb_held_back" | "rocket_last" | "let_through" | "wild_reading" | "spring";

export type PuzzleSource = { 
/**
 * A stored deal: its room and number.
 */
room?: string, number?: number, 
/**
 * A bot game (`ddz puzzles mine --bots`) or a deal record on disk: its seed, 64 hex digits.
 */
seed?: string, 
/**
 * A bot game: the level of its bots, who play it again from `seed` at the puzzle's table
 * ([`source_game`]).
 */
bots?: BotKind, 
/**
 * The position is after this many of the deal's actions.
 */
step: number, };

export type TableTournaments = { table: TableType, 
/**
 * Seats at one of its tables.
 */
seats: number, 
/**
 * The sit-and-go sizes it takes, each with its default settings.
 */
sit_and_go: Array<SitAndGoDefaults>, 
/**
 * A scheduled event's default settings (for a field of 27).
 */
scheduled: TournamentSettings, };

export type SitAndGoDefaults = { size: number, settings: TournamentSettings, };

export type TournamentFormat = { "kind": "sit_and_go", size: number, bots_after_ms?: number, } | { "kind": "scheduled", starts_at: number, bots_fill: boolean, };

export type TournamentStage = "chips" | "fixed" | "final";

export type TournamentPhase = "registering" | "running" | "finished" | "cancelled";

export type CreateTournament = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, 
/**
 * What the lists call it: at most 40 characters (left out, the page names it by its table type and
 * format, in the reader's language).
 */
title: string | null, table: TableType, format: TournamentFormat, settings?: TournamentSettings, };

export type TournamentEntry = { name: string, 
/**
 * The name's key, if it is protected (`docs/names.md`).
 */
key: string | null, };

export type TournamentSummary = { id: string, 
/**
 * The host's title; empty when none was given.
 */
title: string, host: string, 
/**
 * One of the site's own events, always there (a recurring event's run), not a player's.
 */
recurring: boolean, table: TableType, format: TournamentFormat, phase: TournamentPhase, created_at: number, 
/**
 * When registration closes by itself: a scheduled event's start, a sit-and-go's bots filling it.
 */
starts_at?: number, started_at?: number, finished_at?: number, 
/**
 * Registered (before the start) or playing (after it), bots included.
 */
entrants: number, 
/**
 * Players still in.
 */
left: number, round?: number, stage?: TournamentStage, 
/**
 * The first three (two at Two Player) once it is over.
 */
podium: Array<string>, };

export type Tournaments = { upcoming: Array<TournamentSummary>, running: Array<TournamentSummary>, finished: Array<TournamentSummary>, };

export type TournamentCreated = { id: string, };

export type EntrantView = { place: number, name: string, bot: boolean, chips: number, 
/**
 * The round they went out in.
 */
out?: number, };

export type TournamentTable = { code: RoomCode, players: Array<string>, counted: number, won: Array<number>, };

export type TournamentRound = { number: number, stage: TournamentStage, deals: number, 
/**
 * The line this chip round's end applies.
 */
line?: number, closed: boolean, tables: Array<TournamentTable>, };

export type TournamentView = { summary: TournamentSummary, settings: TournamentSettings, 
/**
 * The chip rounds end at this many players (for the field that started).
 */
until: number, 
/**
 * SHA-256 of the seed the seats are drawn from, shown from the start.
 */
commitment: string, 
/**
 * The seed, once the tournament is over: anyone can draw the seats again (docs/tournaments.md).
 */
seed?: Seed, 
/**
 * The standings, best first (before the start: the registered, in order).
 */
standings: Array<EntrantView>, 
/**
 * Registrations left out at the start (beyond whole tables).
 */
byes: Array<string>, rounds: Array<TournamentRound>, 
/**
 * The server's time, for the countdown.
 */
now: number, };

export type TournamentFinish = { id: string, 
/**
 * The host's title; empty when none was given (the page names it by its table type and format).
 */
title: string, table: TableType, format: TournamentFormat, place: number, entrants: number, finished_at: number, };

export type PathState = "done" | "now" | "ahead";

export type PathStage = { stage: TournamentStage, 
/**
 * Rounds of this stage played or in play.
 */
rounds: number, 
/**
 * Rounds it is expected to take (0: the field skips it).
 */
planned: number, 
/**
 * The field as the stage starts (as expected, for a stage ahead).
 */
players: number, state: PathState, };

export type RoundLine = { number: number, stage: TournamentStage, deals: number, line?: number, closed: boolean, tables: number, players: number, 
/**
 * Deals counted over its tables.
 */
counted: number, };

export type YourRound = { round: number, stage: TournamentStage, code: RoomCode, 
/**
 * Deals counted at their table, and the chips they won there.
 */
counted: number, won: number, };

export type TournamentYou = { entrant: EntrantView, table?: TournamentTable, rounds: Array<YourRound>, };

export type TournamentPage = { summary: TournamentSummary, settings: TournamentSettings, 
/**
 * The chip rounds end at this many players (for the field that started).
 */
until: number, 
/**
 * SHA-256 of the seed the seats are drawn from.
 */
commitment: string, 
/**
 * The seed, once the tournament is over.
 */
seed?: Seed, 
/**
 * The event's path: chip rounds under the rising line, fixed-deal rounds, the final table.
 */
path: Array<PathStage>, 
/**
 * Every round so far, counted.
 */
rounds: Array<RoundLine>, 
/**
 * The first [`LEADERS`] of the standings (before the start: the first registered).
 */
leaders: Array<EntrantView>, 
/**
 * The round in play's tables, the first [`TABLES_SHOWN`].
 */
tables: Array<TournamentTable>, byes: Array<string>, };

export type TournamentFollow = { 
/**
 * The server's time as this was sent, for the countdown.
 */
now: number, page: TournamentPage, 
/**
 * The reader (the name asked about), once registered.
 */
you?: TournamentYou, };

export type QuickLine = { table: TableType, waiting: number, playing: number, };

export type Hall = { 
/**
 * The server's time, for countdowns.
 */
now: number, 
/**
 * Sockets open on the site, every node's (tables, watchers and the hall itself).
 */
online: number, 
/**
 * Tables with a deal in play.
 */
playing: number, 
/**
 * Quick match per table type: House, No Shuffle, Two Player.
 */
quick: Array<QuickLine>, 
/**
 * Tournaments taking registrations, the soonest start first.
 */
tournaments: Array<TournamentSummary>, 
/**
 * Tournaments running now (the first [`HALL_RUNNING`]).
 */
running: Array<TournamentSummary>, 
/**
 * The open public tables.
 */
tables: Array<Summary>, 
/**
 * Today's rally (its UTC date).
 */
today: string, };

export type ApiError = { code: ErrorCode, message: string, };

export type Health = { status: string, };
