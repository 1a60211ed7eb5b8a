//! What one seat may know about a deal (and what a spectator may): the only deal state the server sends.
//!
//! A [`DealView`] has one field for cards in hands while the deal runs, `hand`, filled from the viewing
//! seat's own hand; other seats appear only as card counts until the deal is over, when `hands_at_end`
//! shows every hand face up. The middle or bottom cards appear once the landlord has
//! them (they are shown to everyone then); Two Player's unused cards never appear. Every action is public.

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Rank};
use crate::deal::{Action, Auction, Deal, DealResult, Phase, Seat, Trick};
use crate::fair::Fairness;
use crate::play::Play;
use crate::rules::{Rules, TableType};
use crate::story::{LastMove, ScoreLine};

#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealView {
    pub rules: Rules,
    /// The drawn wild rank (Wild Rank tables).
    pub wild_rank: Option<Rank>,
    /// The viewing seat; `None` for a spectator.
    pub seat: Option<Seat>,
    pub phase: Phase,
    /// The seat with the first option, bid or call.
    pub first: Seat,
    /// House, first deal: the priority draws, one card per seat per round.
    pub priority_draws: Vec<Vec<Option<Card>>>,
    pub auction: Auction,
    pub landlord: Option<Seat>,
    /// Seats whose action is awaited.
    pub waiting_for: Vec<Seat>,
    /// The viewing seat's own hand.
    pub hand: Option<CardSet>,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<usize>,
    /// The middle (House) or bottom cards, once the landlord has taken them.
    pub bottom: Option<CardSet>,
    /// House: who has acknowledged the middle cards.
    pub seen: Vec<bool>,
    pub trick: Option<Trick>,
    pub actions: Vec<Action>,
    /// House: each seat's payments into the pot, the pot, and the landlord's share of the next ante.
    pub paid: Vec<i64>,
    pub pot: i64,
    pub ante: i64,
    /// No Shuffle / Two Player.
    pub multiplier: u32,
    pub auction_value: u32,
    /// Two Player: the farmer's allowance.
    pub allowance: Option<usize>,
    pub bombs: u32,
    pub result: Option<DealResult>,
    /// What each seat did last, as the table shows it.
    #[serde(default)]
    pub last_moves: Vec<Option<LastMove>>,
    /// Once the deal is over: every seat's remaining cards, face up.
    #[serde(default)]
    pub hands_at_end: Option<Vec<CardSet>>,
    /// Once the deal is over: how its amount came about, line by line.
    #[serde(default)]
    pub score_lines: Vec<ScoreLine>,
    /// The deal's published commitment, with its seed and salt revealed once the deal is over.
    #[serde(default)]
    pub fairness: Option<Fairness>,
}

impl DealView {
    /// The rules to read and generate plays with: the table's rules with the drawn wild rank.
    pub fn play_rules(&self) -> Rules {
        match self.wild_rank {
            Some(rank) => self.rules.with_wild_rank(rank),
            None => self.rules,
        }
    }

    /// The trick play so far, move by move, each with the play it answered (`None`: it led). A trick
    /// ends when every other seat has passed its last play (RULES.md 4); passes in a House auction,
    /// before any play, are not trick moves.
    pub fn trick_moves(&self) -> Vec<TrickMove> {
        let players = usize::from(self.rules.players);
        let mut moves = Vec::new();
        let mut trick: Option<(Seat, Play)> = None;
        let mut passes = 0;
        for action in &self.actions {
            match *action {
                Action::Play { seat, play, .. } => {
                    moves.push(TrickMove { seat, play: Some(play), facing: trick });
                    trick = Some((seat, play));
                    passes = 0;
                }
                Action::Pass { seat } if trick.is_some() => {
                    moves.push(TrickMove { seat, play: None, facing: trick });
                    passes += 1;
                    if passes + 1 >= players {
                        trick = None;
                        passes = 0;
                    }
                }
                _ => {}
            }
        }
        moves
    }
}

/// One seat's move in trick play: its play (`None`: a pass) and the play, with its seat, it answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickMove {
    pub seat: Seat,
    pub play: Option<Play>,
    pub facing: Option<(Seat, Play)>,
}

impl Deal {
    /// The commitment, and after the deal the seed and salt behind it (never before: the seed deals
    /// every hand).
    pub fn fairness(&self) -> Option<Fairness> {
        let commitment = self.setup().commitment()?;
        let over = self.result().is_some();
        Some(Fairness {
            commitment,
            seed: over.then_some(self.setup().seed),
            salt: self.setup().salt.filter(|_| over),
            nonces: self.setup().nonces.clone(),
        })
    }

    /// What `seat` may know (`None`: a spectator, who sees no hand).
    pub fn view(&self, seat: Option<Seat>) -> DealView {
        let house = self.rules().table == TableType::House;
        DealView {
            rules: *self.rules(),
            wild_rank: self.rules().wild_rank(),
            seat,
            phase: self.phase(),
            first: self.first(),
            priority_draws: self.priority_draws().to_vec(),
            auction: self.auction().clone(),
            landlord: self.landlord(),
            waiting_for: self.waiting_for(),
            hand: seat.filter(|&s| s < self.players()).map(|s| self.hand(s)),
            hand_sizes: (0..self.players()).map(|s| self.hand(s).len()).collect(),
            bottom: self.landlord().map(|_| self.bottom()),
            seen: self.seen().to_vec(),
            trick: self.trick().copied(),
            actions: self.actions().to_vec(),
            paid: if house { self.paid().to_vec() } else { Vec::new() },
            pot: self.pot(),
            ante: if house { self.ante() } else { 0 },
            multiplier: self.multiplier(),
            auction_value: self.auction_value(),
            allowance: self.allowance(),
            bombs: self.bombs(),
            result: self.result().cloned(),
            last_moves: self.last_moves(),
            hands_at_end: self.result().map(|_| (0..self.players()).map(|s| self.hand(s)).collect()),
            score_lines: self.score_lines(),
            fairness: self.fairness(),
        }
    }
}
