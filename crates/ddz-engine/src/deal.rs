//! One deal as a state machine (RULES.md sections 2, 5, 6 and 7): dealing, choosing the landlord,
//! trick play, and the deal's score.
//!
//! A deal is its [`DealSetup`] (rules, seed, who has the first option, the collected pack for a No
//! Shuffle re-deal) plus a list of [`Action`]s; its state is a fold over them. [`Deal::apply`] checks an
//! action completely before changing anything, so a rejected action leaves the deal as it was.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Rank};
use crate::fair::{self, Nonce, Salt};
use crate::play::Play;
use crate::readings::readings;
use crate::rng::{Seed, Stream};
use crate::rules::{Rules, TableType};

/// A seat at the table: 0, 1, 2 (0 and 1 in Two Player). Turns go 0, 1, 2, 0, ...
pub type Seat = usize;

/// Who has the first option (House), bids first (No Shuffle) or calls first (Two Player).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// House, first deal of a room: each seat draws a priority card; the highest goes first.
    PriorityDraw,
    /// No Shuffle and Two Player, first deal of a room: a seat chosen at random.
    Random,
    /// Later deals: this seat (the rotation is kept by the room's ledger).
    Seat(Seat),
}

/// Everything a deal starts from.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SetupJson", into = "SetupJson")]
pub struct DealSetup {
    /// The table's rules (the Wild Rank option undrawn; the deal draws it).
    pub rules: Rules,
    pub seed: Seed,
    pub start: Start,
    /// No Shuffle "play again": the previous deal's collected pack, to be cut and dealt without shuffling.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub pack: Option<Vec<Card>>,
    /// How `pack` is dealt (ignored without a pack: a shuffled deck is dealt a card at a time in turn).
    /// Written only with a pack.
    #[cfg_attr(feature = "ts", ts(as = "Option<Dealing>", optional))]
    pub dealing: Dealing,
    /// The salt of the deal's published commitment (`crate::fair`); none for deals nobody committed to.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub salt: Option<Salt>,
    /// The players' nonces by seat (`crate::fair::dealing_seed`): with them the cards are dealt from the
    /// seed and the nonces together; without them (rallies, older records), from the seed alone.
    #[cfg_attr(feature = "ts", ts(type = "Array<string | null>", optional))]
    pub nonces: Option<Vec<Option<Nonce>>>,
}

/// How a given pack is dealt.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dealing {
    /// RULES.md 7: cut (1 to all but one card moved from the top to the bottom), then packets of 1 to 6
    /// cards, each to a seat drawn among those still short of a full hand; the last cards are the bottom.
    Packets,
    /// Exactly as given, a card at a time in turn order from the first seat, then the bottom: for
    /// constructed positions (tests, puzzles).
    Stacked,
    /// Records and rooms from before packets: a cut of 0 to all but one card, then a card at a time in
    /// turn order. Kept only so that they still replay; nothing deals this way any more.
    InTurn,
}

/// The JSON form of a [`DealSetup`]: `dealing` is written only with a pack, and a pack without it is an
/// older record (`in_turn`, or `"stacked": true`).
#[derive(Serialize, Deserialize)]
struct SetupJson {
    rules: Rules,
    seed: Seed,
    start: Start,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pack: Option<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dealing: Option<Dealing>,
    #[serde(default, skip_serializing)]
    stacked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    salt: Option<Salt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nonces: Option<Vec<Option<Nonce>>>,
}

impl From<SetupJson> for DealSetup {
    fn from(json: SetupJson) -> DealSetup {
        let dealing = match (json.dealing, json.stacked, &json.pack) {
            (Some(dealing), _, _) => dealing,
            (None, true, _) => Dealing::Stacked,
            (None, false, Some(_)) => Dealing::InTurn,
            (None, false, None) => Dealing::Packets,
        };
        DealSetup {
            rules: json.rules,
            seed: json.seed,
            start: json.start,
            pack: json.pack,
            dealing,
            salt: json.salt,
            nonces: json.nonces,
        }
    }
}

impl From<DealSetup> for SetupJson {
    fn from(setup: DealSetup) -> SetupJson {
        let dealing = setup.pack.is_some().then_some(setup.dealing);
        SetupJson {
            rules: setup.rules,
            seed: setup.seed,
            start: setup.start,
            pack: setup.pack,
            dealing,
            stacked: false,
            salt: setup.salt,
            nonces: setup.nonces,
        }
    }
}

impl DealSetup {
    /// A deal from a freshly shuffled deck.
    pub fn shuffled(rules: Rules, seed: Seed, start: Start) -> DealSetup {
        DealSetup { rules, seed, start, pack: None, dealing: Dealing::Packets, salt: None, nonces: None }
    }

    /// A No Shuffle re-deal of `pack` (RULES.md 7): cut, then dealt in packets.
    pub fn redeal(rules: Rules, seed: Seed, start: Start, pack: Vec<Card>) -> DealSetup {
        DealSetup { rules, seed, start, pack: Some(pack), dealing: Dealing::Packets, salt: None, nonces: None }
    }

    /// This setup with a commitment: `salt` goes into it with the seed (`crate::fair`).
    pub fn salted(self, salt: Salt) -> DealSetup {
        DealSetup { salt: Some(salt), ..self }
    }

    /// This setup with the players' nonces, by seat: the cards are then dealt from [`DealSetup::dealing_seed`].
    pub fn with_nonces(self, nonces: Vec<Option<Nonce>>) -> DealSetup {
        DealSetup { nonces: Some(nonces), ..self }
    }

    /// The seed the cards are dealt from: the committed seed, mixed with the players' nonces if any.
    pub fn dealing_seed(&self) -> Seed {
        match &self.nonces {
            Some(nonces) => fair::dealing_seed(&self.seed, nonces),
            None => self.seed,
        }
    }

    /// The published commitment to this deal's seed, if it has a salt.
    pub fn commitment(&self) -> Option<String> {
        self.salt.map(|salt| fair::commitment(&self.seed, &salt))
    }

    /// A deal of exactly these hands (by seat) and bottom cards, with `first` going first. Cards of the
    /// deck not in any hand or the bottom are the Two Player unused cards.
    pub fn stacked(rules: Rules, first: Seat, hands: &[CardSet], bottom: CardSet) -> DealSetup {
        let players = hands.len();
        let mut pack = Vec::new();
        let mut dealt: Vec<Vec<Card>> = hands.iter().map(|h| h.iter().collect()).collect();
        for i in 0..players * rules.hand_size as usize {
            let seat = (first + i) % players;
            pack.push(dealt[seat].remove(0));
        }
        pack.extend(bottom.iter());
        let used = hands.iter().fold(bottom, |all, h| all.union(*h));
        pack.extend(rules.deck().minus(used).iter());
        DealSetup {
            rules,
            seed: Seed::from_u64(0),
            start: Start::Seat(first),
            pack: Some(pack),
            dealing: Dealing::Stacked,
            salt: None,
            nonces: None,
        }
    }
}

/// One step of a deal. Every action is public: it reveals nothing that the table may not see.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// House: take the middle cards and become landlord.
    Take { seat: Seat },
    /// House: pass the option on. In trick play: pass.
    Pass { seat: Seat },
    /// No Shuffle: bid 1, 2 or 3, or 0 to pass.
    Bid { seat: Seat, bid: u8 },
    /// Two Player: call (`true`) or decline.
    Call { seat: Seat, call: bool },
    /// Two Player: rob (`true`) or let the last call stand.
    Rob { seat: Seat, rob: bool },
    /// House: this seat has seen the middle cards.
    Seen { seat: Seat },
    /// Play these cards with this reading.
    Play { seat: Seat, cards: CardSet, play: Play },
    /// No Shuffle and Two Player: the five-minute deal limit was reached; no winner, no score.
    DealLimit,
    /// The room was closed during the deal: House refunds each player's own payments; no score.
    Abandon,
}

impl Action {
    /// The seat that acts, if the action is a seat's.
    pub fn seat(&self) -> Option<Seat> {
        match *self {
            Action::Take { seat }
            | Action::Pass { seat }
            | Action::Bid { seat, .. }
            | Action::Call { seat, .. }
            | Action::Rob { seat, .. }
            | Action::Seen { seat }
            | Action::Play { seat, .. } => Some(seat),
            Action::DealLimit | Action::Abandon => None,
        }
    }
}

/// Why an action was refused. The deal is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    #[error("the deal is over")]
    DealOver,
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    #[error("it is not seat {seat}'s turn (waiting for seat {turn})")]
    NotYourTurn { seat: Seat, turn: Seat },
    #[error("{action} is not possible now: {phase}")]
    WrongPhase { action: &'static str, phase: &'static str },
    #[error("the third seat must take the middle cards")]
    MustTake,
    #[error("a bid must be 1, 2 or 3, or 0 to pass")]
    BadBid,
    #[error("a bid of {bid} does not raise the current bid of {current}")]
    BidTooLow { bid: u8, current: u8 },
    #[error("a player who declined to call may not rob")]
    DeclinedCannotRob,
    #[error("seat {0} has already acknowledged the middle cards")]
    AlreadySeen(Seat),
    #[error("the cards {0} are not all in this hand")]
    NotInHand(CardSet),
    #[error("the cards {cards} are not the ranks {ranks} of the reading")]
    CardsDoNotMatch { cards: CardSet, ranks: String },
    #[error("{0}")]
    NotAPlay(#[from] crate::readings::PlayError),
    #[error("{cards} cannot be read as {reading}")]
    NotThatReading { cards: String, reading: String },
    #[error("{play} does not beat {prior}")]
    DoesNotBeat { play: String, prior: String },
    #[error("the leader of a trick must play")]
    CannotPassOnLead,
    #[error("the pack is not exactly the cards of a {0} deck")]
    BadPack(String),
    #[error("House deals have no deal limit")]
    NoDealLimit,
    #[error("the deal has {given} nonces for {players} seats")]
    BadNonces { given: usize, players: usize },
}

/// Where the deal is.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Choosing the landlord: take/pass, bidding, or call and rob.
    Auction,
    /// House: the middle cards are shown; waiting for every seat to acknowledge them.
    Reveal,
    /// Trick play.
    Play,
    Over,
}

impl Phase {
    fn describe(self) -> &'static str {
        match self {
            Phase::Auction => "the landlord is being chosen",
            Phase::Reveal => "waiting for everyone to see the middle cards",
            Phase::Play => "the cards are being played",
            Phase::Over => "the deal is over",
        }
    }
}

/// The state of choosing the landlord.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Auction {
    /// House: seats asked so far have passed.
    TakeOrPass { passes: u8 },
    /// No Shuffle: the bids so far, in turn order from the first bidder.
    Bidding { bids: Vec<u8> },
    /// Two Player.
    CallAndRob {
        /// The last seat to call or rob.
        holder: Option<Seat>,
        declined: Vec<bool>,
        robs: u8,
        /// Seats that have answered the call question.
        asked: u8,
    },
}

/// How a deal ended.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A player emptied their hand.
    Out,
    /// Two Player: the farmer reached the allowance.
    Allowance,
    /// The deal limit was reached: no winner.
    DealLimit,
    /// The room was closed during the deal: no winner.
    Abandoned,
}

/// The outcome of a finished deal.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealResult {
    pub end: End,
    /// The seat that went out (or reached the allowance); `None` when there is no winner.
    pub winner: Option<Seat>,
    pub landlord_won: Option<bool>,
    /// No Shuffle / Two Player: the landlord won with no farmer card played, or the farmers won with
    /// the landlord having played only the opening lead.
    pub spring: bool,
    /// Bombs and rockets played in the deal.
    pub bombs: u32,
    /// No Shuffle / Two Player: the final multiplier (capped at 1024); 1 in House.
    pub multiplier: u32,
    /// No Shuffle: the winning bid; Two Player: 1 doubled per rob; 1 in House.
    pub auction_value: u32,
    /// Per seat: money won or lost (House) or points (No Shuffle, Two Player). Sums to zero.
    pub score: Vec<i64>,
}

/// The play to beat in the current trick.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    pub seat: Seat,
    pub cards: CardSet,
    pub play: Play,
}

/// The multiplier's cap (RULES.md 6.2).
pub const MULTIPLIER_CAP: u32 = 1024;

/// One deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    setup: DealSetup,
    /// Rules with the wild rank drawn, if any.
    rules: Rules,
    hands: Vec<CardSet>,
    bottom: CardSet,
    /// Two Player: the nine cards out of play.
    unused: CardSet,
    priority_draws: Vec<Vec<Option<Card>>>,
    first: Seat,
    phase: Phase,
    auction: Auction,
    landlord: Option<Seat>,
    turn: Seat,
    seen: Vec<bool>,
    trick: Option<Trick>,
    passes: u8,
    /// Every card played, in the order played.
    played: Vec<Card>,
    plays_by: Vec<u32>,
    bombs: u32,
    /// House: bombs whose ante was collected.
    bombs_collected: u32,
    /// House: what each seat paid into the pot.
    paid: Vec<i64>,
    multiplier: u32,
    actions: Vec<Action>,
    result: Option<DealResult>,
}

impl Deal {
    /// Deals the cards and draws what must be drawn (priority cards, the first seat, the wild rank).
    ///
    /// Panics if `setup` has a pack that is not the table's deck; [`Deal::try_new`] checks instead.
    pub fn new(setup: DealSetup) -> Deal {
        Deal::try_new(setup).expect("a deal setup with a valid pack")
    }

    /// [`Deal::new`] for a setup from outside (a record file): refuses a pack that is not exactly the
    /// table's deck, a first seat that is not at the table, or nonces for another number of seats.
    pub fn try_new(setup: DealSetup) -> Result<Deal, DealError> {
        let players = setup.rules.players as usize;
        if let Some(nonces) = &setup.nonces
            && nonces.len() != players
        {
            return Err(DealError::BadNonces { given: nonces.len(), players });
        }
        if let Start::Seat(seat) = setup.start
            && seat >= players
        {
            return Err(DealError::NoSuchSeat(seat));
        }
        if let Some(pack) = &setup.pack {
            let set = CardSet::from_cards(pack.iter().copied());
            if pack.len() != setup.rules.deck().len() || set != Ok(setup.rules.deck()) {
                return Err(DealError::BadPack(setup.rules.to_string()));
            }
        }
        Ok(Deal::from_setup(setup))
    }

    fn from_setup(setup: DealSetup) -> Deal {
        let base = setup.rules;
        let players = base.players as usize;
        let mut rng = Stream::new(&setup.dealing_seed());
        let mut priority_draws = Vec::new();
        let first = match setup.start {
            Start::Seat(seat) => seat % players,
            Start::Random => rng.below(players),
            Start::PriorityDraw => priority_draw(&mut rng, players, &mut priority_draws),
        };
        let (deck, in_packets): (Vec<Card>, bool) = match (&setup.pack, setup.dealing) {
            (Some(pack), Dealing::Stacked) => (pack.clone(), false),
            (Some(pack), Dealing::InTurn) => {
                let cut = rng.below(pack.len().max(1));
                (pack[cut..].iter().chain(&pack[..cut]).copied().collect(), false)
            }
            (Some(pack), Dealing::Packets) => {
                let cut = 1 + rng.below(pack.len() - 1);
                (pack[cut..].iter().chain(&pack[..cut]).copied().collect(), true)
            }
            (None, _) => {
                let mut deck: Vec<Card> = base.deck().iter().collect();
                rng.shuffle(&mut deck);
                (deck, false)
            }
        };
        // The hands come first in the deck, then the bottom cards (and Two Player's unused ones).
        let hand_cards = players * base.hand_size as usize;
        let hands = if in_packets {
            deal_in_packets(&mut rng, &deck[..hand_cards], players, base.hand_size as usize)
        } else {
            let mut hands = vec![CardSet::EMPTY; players];
            for (i, card) in deck[..hand_cards].iter().enumerate() {
                hands[(first + i) % players].insert(*card);
            }
            hands
        };
        let bottom_end = hand_cards + base.bottom_size as usize;
        let bottom =
            CardSet::from_cards(deck[hand_cards..bottom_end].iter().copied()).expect("a deck has no duplicates");
        let unused = CardSet::from_cards(deck[bottom_end..].iter().copied()).expect("a deck has no duplicates");
        let rules = if base.has_wild_rank_option() {
            let choices: Vec<Rank> = base.wild_rank_choices().collect();
            base.with_wild_rank(choices[rng.below(choices.len())])
        } else {
            base
        };
        let auction = match base.table {
            TableType::House => Auction::TakeOrPass { passes: 0 },
            TableType::NoShuffle => Auction::Bidding { bids: Vec::new() },
            TableType::TwoPlayer => {
                Auction::CallAndRob { holder: None, declined: vec![false; players], robs: 0, asked: 0 }
            }
        };
        Deal {
            setup,
            rules,
            hands,
            bottom,
            unused,
            priority_draws,
            first,
            phase: Phase::Auction,
            auction,
            landlord: None,
            turn: first,
            seen: vec![false; players],
            trick: None,
            passes: 0,
            played: Vec::new(),
            plays_by: vec![0; players],
            bombs: 0,
            bombs_collected: 0,
            paid: vec![0; players],
            multiplier: 1,
            actions: Vec::new(),
            result: None,
        }
    }

    /// Replays `actions` from `setup`; the first refused action is returned with its index.
    /// A setup that cannot be dealt is refused at index 0.
    pub fn replay(setup: DealSetup, actions: &[Action]) -> Result<Deal, (usize, DealError)> {
        let mut deal = Deal::try_new(setup).map_err(|e| (0, e))?;
        for (i, action) in actions.iter().enumerate() {
            deal.apply(action).map_err(|e| (i, e))?;
        }
        Ok(deal)
    }

    pub fn setup(&self) -> &DealSetup {
        &self.setup
    }

    /// The rules of this deal, with the wild rank drawn.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn auction(&self) -> &Auction {
        &self.auction
    }

    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// The middle (House) or bottom cards.
    pub fn bottom(&self) -> CardSet {
        self.bottom
    }

    /// Two Player: the nine cards out of play.
    pub fn unused(&self) -> CardSet {
        self.unused
    }

    /// House, first deal: each round of priority draws, a card per seat (`None` for a seat not redrawing).
    pub fn priority_draws(&self) -> &[Vec<Option<Card>>] {
        &self.priority_draws
    }

    /// The seat with the first option, first bid or first call.
    pub fn first(&self) -> Seat {
        self.first
    }

    pub fn landlord(&self) -> Option<Seat> {
        self.landlord
    }

    /// The seat to act (in the Reveal phase, any seat that has not acknowledged may act).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The seats whose action the deal is waiting for.
    pub fn waiting_for(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Reveal => (0..self.players()).filter(|&s| !self.seen[s]).collect(),
            _ => vec![self.turn],
        }
    }

    pub fn seen(&self) -> &[bool] {
        &self.seen
    }

    /// The play to beat and who played it; `None` on a free lead.
    pub fn trick(&self) -> Option<&Trick> {
        self.trick.as_ref()
    }

    pub fn played(&self) -> &[Card] {
        &self.played
    }

    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    pub fn result(&self) -> Option<&DealResult> {
        self.result.as_ref()
    }

    pub fn bombs(&self) -> u32 {
        self.bombs
    }

    /// House: what each seat has paid into this deal's pot.
    pub fn paid(&self) -> &[i64] {
        &self.paid
    }

    pub fn pot(&self) -> i64 {
        self.paid.iter().sum()
    }

    /// House: the landlord's share of the next collection ($2, then $2 / $4 / $8 ... after each bomb).
    pub fn ante(&self) -> i64 {
        2 << self.bombs_collected
    }

    /// No Shuffle / Two Player: the multiplier so far.
    pub fn multiplier(&self) -> u32 {
        self.multiplier
    }

    /// No Shuffle: the highest bid so far (at least 1 once the landlord is chosen). Two Player: 1
    /// doubled per rob. House: 1.
    pub fn auction_value(&self) -> u32 {
        match &self.auction {
            Auction::TakeOrPass { .. } => 1,
            Auction::Bidding { bids } => u32::from(bids.iter().copied().max().unwrap_or(0).max(1)),
            Auction::CallAndRob { robs, .. } => 1 << robs,
        }
    }

    /// Two Player: the farmer wins at or below this many cards (1 plus 1 per rob).
    pub fn allowance(&self) -> Option<usize> {
        match &self.auction {
            Auction::CallAndRob { robs, .. } => Some(1 + *robs as usize),
            _ => None,
        }
    }

    /// The cards a No Shuffle "play again" collects: the cards in the order played, then the cards left
    /// in each hand in seat order (then the bottom, if it was never taken).
    pub fn collected_pack(&self) -> Vec<Card> {
        let mut pack = self.played.clone();
        for hand in &self.hands {
            pack.extend(hand.iter());
        }
        if self.landlord.is_none() {
            pack.extend(self.bottom.iter());
        }
        pack
    }

    fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players()
    }

    /// Applies `action`, or refuses it and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<(), DealError> {
        if self.phase == Phase::Over {
            return Err(DealError::DealOver);
        }
        if let Some(seat) = action.seat() {
            if seat >= self.players() {
                return Err(DealError::NoSuchSeat(seat));
            }
            let any_seat_may_act = matches!(action, Action::Seen { .. });
            if !any_seat_may_act && seat != self.turn {
                return Err(DealError::NotYourTurn { seat, turn: self.turn });
            }
        }
        match *action {
            Action::Take { seat } => self.take(seat, true)?,
            Action::Pass { seat } if self.phase == Phase::Auction => self.take(seat, false)?,
            Action::Pass { seat } => self.pass(seat)?,
            Action::Bid { seat, bid } => self.bid(seat, bid)?,
            Action::Call { seat, call } => self.call(seat, call)?,
            Action::Rob { seat, rob } => self.rob(seat, rob)?,
            Action::Seen { seat } => self.acknowledge(seat)?,
            Action::Play { seat, cards, play } => self.play(seat, cards, play)?,
            Action::DealLimit => {
                if self.rules.table == TableType::House {
                    return Err(DealError::NoDealLimit);
                }
                self.finish_without_winner(End::DealLimit);
            }
            Action::Abandon => self.finish_without_winner(End::Abandoned),
        }
        self.actions.push(action.clone());
        Ok(())
    }

    fn expect_phase(&self, phase: Phase, action: &'static str) -> Result<(), DealError> {
        if self.phase == phase { Ok(()) } else { Err(DealError::WrongPhase { action, phase: self.phase.describe() }) }
    }

    fn take(&mut self, seat: Seat, take: bool) -> Result<(), DealError> {
        let name = if take { "taking the middle cards" } else { "passing the option" };
        self.expect_phase(Phase::Auction, name)?;
        let Auction::TakeOrPass { passes } = &mut self.auction else {
            return Err(DealError::WrongPhase { action: name, phase: "this table does not take or pass" });
        };
        if take {
            self.make_landlord(seat);
        } else if *passes == 2 {
            return Err(DealError::MustTake);
        } else {
            *passes += 1;
            self.turn = (seat + 1) % self.hands.len();
        }
        Ok(())
    }

    fn bid(&mut self, seat: Seat, bid: u8) -> Result<(), DealError> {
        self.expect_phase(Phase::Auction, "bidding")?;
        let players = self.players();
        let Auction::Bidding { bids } = &mut self.auction else {
            return Err(DealError::WrongPhase { action: "bidding", phase: "this table does not bid" });
        };
        if bid > 3 {
            return Err(DealError::BadBid);
        }
        let current = bids.iter().copied().max().unwrap_or(0);
        if bid != 0 && bid <= current {
            return Err(DealError::BidTooLow { bid, current });
        }
        bids.push(bid);
        if bid == 3 || bids.len() == players {
            let high = bids.iter().copied().max().unwrap_or(0);
            // All passed: the first bidder is landlord at one point.
            let winner = if high == 0 { 0 } else { bids.iter().position(|&b| b == high).expect("the high bid") };
            let landlord = (self.first + winner) % players;
            self.make_landlord(landlord);
        } else {
            self.turn = (seat + 1) % players;
        }
        Ok(())
    }

    fn call(&mut self, seat: Seat, call: bool) -> Result<(), DealError> {
        self.expect_phase(Phase::Auction, "calling")?;
        let first = self.first;
        let Auction::CallAndRob { holder, declined, asked, .. } = &mut self.auction else {
            return Err(DealError::WrongPhase { action: "calling", phase: "this table does not call and rob" });
        };
        if holder.is_some() {
            return Err(DealError::WrongPhase {
                action: "calling",
                phase: "the landlord has been called; rob or let it stand",
            });
        }
        *asked += 1;
        if call {
            *holder = Some(seat);
            let other = (seat + 1) % 2;
            if declined[other] {
                self.make_landlord(seat);
            } else {
                self.turn = other;
            }
        } else {
            declined[seat] = true;
            if *asked == 2 {
                self.make_landlord(first); // neither called
            } else {
                self.turn = (seat + 1) % 2;
            }
        }
        Ok(())
    }

    fn rob(&mut self, seat: Seat, rob: bool) -> Result<(), DealError> {
        self.expect_phase(Phase::Auction, "robbing")?;
        let Auction::CallAndRob { holder, declined, robs, .. } = &mut self.auction else {
            return Err(DealError::WrongPhase { action: "robbing", phase: "this table does not call and rob" });
        };
        let Some(current) = *holder else {
            return Err(DealError::WrongPhase { action: "robbing", phase: "nobody has called yet" });
        };
        if declined[seat] {
            return Err(DealError::DeclinedCannotRob);
        }
        if !rob {
            self.make_landlord(current);
            return Ok(());
        }
        *robs += 1;
        *holder = Some(seat);
        let other = (seat + 1) % 2;
        if *robs == 4 || declined[other] {
            self.make_landlord(seat);
        } else {
            self.turn = other;
        }
        Ok(())
    }

    fn make_landlord(&mut self, seat: Seat) {
        self.landlord = Some(seat);
        self.hands[seat] = self.hands[seat].union(self.bottom);
        self.turn = seat;
        if self.rules.table == TableType::House {
            for (s, paid) in self.paid.iter_mut().enumerate() {
                *paid = if s == seat { 2 } else { 1 };
            }
            self.phase = Phase::Reveal;
        } else {
            self.phase = Phase::Play;
        }
    }

    fn acknowledge(&mut self, seat: Seat) -> Result<(), DealError> {
        self.expect_phase(Phase::Reveal, "acknowledging the middle cards")?;
        if self.seen[seat] {
            return Err(DealError::AlreadySeen(seat));
        }
        self.seen[seat] = true;
        if self.seen.iter().all(|&s| s) {
            self.phase = Phase::Play;
        }
        Ok(())
    }

    /// Checks that `cards` played as `play` is legal for `seat` now.
    pub fn check_play(&self, seat: Seat, cards: CardSet, play: &Play) -> Result<(), DealError> {
        self.expect_phase(Phase::Play, "playing cards")?;
        if seat != self.turn {
            return Err(DealError::NotYourTurn { seat, turn: self.turn });
        }
        if !cards.is_subset(self.hands[seat]) {
            return Err(DealError::NotInHand(cards.minus(self.hands[seat])));
        }
        if cards.counts() != play.cards {
            return Err(DealError::CardsDoNotMatch { cards, ranks: play.cards.to_string() });
        }
        if !readings(&self.rules, play.cards)?.contains(play) {
            return Err(DealError::NotThatReading { cards: cards.to_string(), reading: play.to_string() });
        }
        if let Some(prior) = &self.trick
            && !play.beats(&prior.play)
        {
            return Err(DealError::DoesNotBeat { play: play.to_string(), prior: prior.play.to_string() });
        }
        Ok(())
    }

    fn play(&mut self, seat: Seat, cards: CardSet, play: Play) -> Result<(), DealError> {
        self.check_play(seat, cards, &play)?;
        self.hands[seat] = self.hands[seat].minus(cards);
        self.played.extend(cards.iter());
        self.plays_by[seat] += 1;
        self.trick = Some(Trick { seat, cards, play });
        self.passes = 0;
        let out = self.hands[seat].is_empty();
        if play.shape.is_bomb_or_rocket() {
            self.bombs += 1;
            self.raise_stakes(&play, out);
        }
        let landlord = self.landlord.expect("trick play has a landlord");
        if out {
            self.finish_with_winner(seat, End::Out);
        } else if seat != landlord && self.allowance().is_some_and(|a| self.hands[seat].len() <= a) {
            self.finish_with_winner(seat, End::Allowance);
        } else {
            self.turn = self.next(seat);
        }
        Ok(())
    }

    fn raise_stakes(&mut self, play: &Play, last_cards: bool) {
        // At House nobody pays for a bomb they never had a chance to answer (factor 1).
        let factor = self.rules.stake_factor(play, last_cards);
        if self.rules.table == TableType::House {
            if factor == 1 {
                return;
            }
            self.bombs_collected += 1;
            let landlord = self.landlord.expect("trick play has a landlord");
            let tenant_share = 1i64 << (self.bombs_collected - 1);
            for (s, paid) in self.paid.iter_mut().enumerate() {
                *paid += if s == landlord { 2 * tenant_share } else { tenant_share };
            }
        } else {
            self.multiplier = (self.multiplier * factor).min(MULTIPLIER_CAP);
        }
    }

    fn pass(&mut self, seat: Seat) -> Result<(), DealError> {
        self.expect_phase(Phase::Play, "passing")?;
        let Some(Trick { seat: leader, .. }) = self.trick else {
            return Err(DealError::CannotPassOnLead);
        };
        self.passes += 1;
        if self.passes as usize == self.players() - 1 {
            self.trick = None;
            self.passes = 0;
            self.turn = leader;
            // A hand of only the Wild cannot lead: the lead moves on.
            if self.hands[leader] == CardSet::from_cards([Card::WILD]).expect("one card") {
                self.turn = self.next(leader);
            }
        } else {
            self.turn = self.next(seat);
        }
        Ok(())
    }

    fn finish_with_winner(&mut self, winner: Seat, end: End) {
        let landlord = self.landlord.expect("a winner implies a landlord");
        let landlord_won = winner == landlord;
        let players = self.players();
        let farmers_played = (0..players).filter(|&s| s != landlord).map(|s| self.plays_by[s]).sum::<u32>();
        let spring = self.rules.is_spring(landlord_won, self.plays_by[landlord], farmers_played);
        if spring {
            self.multiplier = (self.multiplier * 2).min(MULTIPLIER_CAP);
        }
        let score = if self.rules.table == TableType::House {
            let pot = self.pot();
            let mut won = vec![0i64; players];
            if landlord_won {
                won[landlord] = pot;
            } else {
                let other_tenant = (0..players).find(|&s| s != landlord && s != winner).expect("two tenants");
                won[other_tenant] = pot / 2;
                won[winner] = pot - pot / 2;
            }
            (0..players).map(|s| won[s] - self.paid[s]).collect()
        } else {
            let share = i64::from(self.auction_value()) * i64::from(self.multiplier);
            let farmers = players as i64 - 1;
            let sign = if landlord_won { 1 } else { -1 };
            (0..players).map(|s| if s == landlord { sign * share * farmers } else { -sign * share }).collect()
        };
        self.result = Some(DealResult {
            end,
            winner: Some(winner),
            landlord_won: Some(landlord_won),
            spring,
            bombs: self.bombs,
            multiplier: self.multiplier,
            auction_value: self.auction_value(),
            score,
        });
        self.phase = Phase::Over;
    }

    fn finish_without_winner(&mut self, end: End) {
        self.result = Some(DealResult {
            end,
            winner: None,
            landlord_won: None,
            spring: false,
            bombs: self.bombs,
            multiplier: self.multiplier,
            auction_value: self.auction_value(),
            // House refunds each player's own payments; no points change hands.
            score: vec![0; self.players()],
        });
        self.phase = Phase::Over;
    }

    /// Every action the seat to act may take now (for the Reveal phase, every seat's acknowledgment).
    pub fn choices(&self) -> Vec<Action> {
        let seat = self.turn;
        match (self.phase, &self.auction) {
            (Phase::Over, _) => Vec::new(),
            (Phase::Reveal, _) => self.waiting_for().into_iter().map(|seat| Action::Seen { seat }).collect(),
            (Phase::Auction, Auction::TakeOrPass { passes }) => {
                let mut choices = vec![Action::Take { seat }];
                if *passes < 2 {
                    choices.push(Action::Pass { seat });
                }
                choices
            }
            (Phase::Auction, Auction::Bidding { bids }) => {
                let current = bids.iter().copied().max().unwrap_or(0);
                std::iter::once(0).chain(current + 1..=3).map(|bid| Action::Bid { seat, bid }).collect()
            }
            (Phase::Auction, Auction::CallAndRob { holder: None, .. }) => {
                [true, false].map(|call| Action::Call { seat, call }).to_vec()
            }
            (Phase::Auction, Auction::CallAndRob { .. }) => [true, false].map(|rob| Action::Rob { seat, rob }).to_vec(),
            (Phase::Play, _) => {
                let hand = self.hands[seat];
                let prior = self.trick.as_ref().map(|t| &t.play);
                let mut choices: Vec<Action> = crate::movegen::legal_plays_vec(&self.rules, hand.counts(), prior)
                    .into_iter()
                    .map(|play| Action::Play {
                        seat,
                        cards: hand.pick(play.cards).expect("generated plays come from the hand"),
                        play,
                    })
                    .collect();
                if prior.is_some() {
                    choices.push(Action::Pass { seat });
                }
                choices
            }
        }
    }
}

/// RULES.md 7: `cards` in order, in packets of 1 to 6 (drawn), each to a seat drawn among those holding
/// fewer than `hand_size`; a packet is cut short when its seat's hand is full.
fn deal_in_packets(rng: &mut Stream, cards: &[Card], players: usize, hand_size: usize) -> Vec<CardSet> {
    let mut hands = vec![CardSet::EMPTY; players];
    let mut next = cards.iter();
    loop {
        let short: Vec<Seat> = (0..players).filter(|&s| hands[s].len() < hand_size).collect();
        if short.is_empty() {
            return hands;
        }
        let size = 1 + rng.below(6);
        let seat = short[rng.below(short.len())];
        let room = hand_size - hands[seat].len();
        for card in next.by_ref().take(size.min(room)) {
            hands[seat].insert(*card);
        }
    }
}

/// House, first deal: each seat draws from a shuffled 54-card deck; tied highest ranks redraw.
fn priority_draw(rng: &mut Stream, players: usize, draws: &mut Vec<Vec<Option<Card>>>) -> Seat {
    let mut contenders: Vec<Seat> = (0..players).collect();
    loop {
        let mut deck: Vec<Card> = CardSet::STANDARD_DECK.iter().collect();
        rng.shuffle(&mut deck);
        let round = &deck[..contenders.len()];
        let rank = |c: &Card| c.rank().expect("no Wild in the priority deck");
        let best = round.iter().map(rank).max().expect("at least one contender");
        let winners: Vec<Seat> =
            contenders.iter().zip(round).filter(|(_, c)| rank(c) == best).map(|(s, _)| *s).collect();
        let mut by_seat = vec![None; players];
        for (seat, card) in contenders.iter().zip(round) {
            by_seat[*seat] = Some(*card);
        }
        draws.push(by_seat);
        if winners.len() == 1 {
            return winners[0];
        }
        contenders = winners;
    }
}
