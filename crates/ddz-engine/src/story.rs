//! The story of a deal as a table shows it: what each seat did last (RULES.md 5 and 4's tricks), and
//! how the amount at the end came about, line by line (RULES.md 6). Both are read from the deal's public
//! actions, so the clients word them and never re-derive the rules.

use serde::{Deserialize, Serialize};

use crate::card::CardSet;
use crate::deal::{Action, Deal, End, MULTIPLIER_CAP, Phase, Seat};
use crate::play::Play;
use crate::rules::TableType;

/// What a seat did last, as the table shows it beside the seat.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case")]
pub enum LastMove {
    /// The seat's word in the auction (take, pass, bid, call, rob), shown while the auction runs.
    Auction { action: Action },
    /// The seat passed in the current trick.
    Passed,
    /// The seat's last play: in the current trick, or (`in_trick: false`) in an earlier one.
    Played { cards: CardSet, play: Play, in_trick: bool },
}

/// One line of the explanation of a finished deal's amount (RULES.md 6).
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "line", rename_all = "snake_case")]
pub enum ScoreLine {
    /// House: the ante paid when the landlord was chosen.
    Ante { landlord: i64, tenant: i64 },
    /// House: a bomb or rocket doubled the ante and collected it at once.
    BombCollected { seat: Seat, landlord: i64, tenant: i64 },
    /// House: a bomb or rocket that was its player's last cards collects nothing.
    BombFree { seat: Seat },
    /// House: who took the pot, and how much each winner took.
    PotWon { pot: i64, won: Vec<i64> },
    /// No Shuffle: the winning bid; Two Player: 1 doubled by each rob.
    AuctionValue { value: u32, robs: u32 },
    /// No Shuffle / Two Player: a bomb or rocket multiplied the multiplier by `factor`.
    Multiplied { seat: Seat, factor: u32, multiplier: u32 },
    /// No Shuffle / Two Player: a spring doubled the multiplier.
    Spring { multiplier: u32 },
    /// The multiplier reached its cap and stayed there.
    Capped { cap: u32 },
    /// Two Player: the farmer's hand came down to the allowance.
    Allowance { seat: Seat, allowance: usize },
    /// No Shuffle / Two Player: one share is the auction value times the multiplier; the landlord wins
    /// or loses one share per farmer.
    Shares { share: i64, farmers: usize },
    /// The deal ended without a winner (deal limit, closed room): House refunds, no points change hands.
    NoScore { end: End },
}

impl Deal {
    /// What each seat did last: its word while the auction runs, then its move in the current trick,
    /// else (dimmed by the table) its last play.
    pub fn last_moves(&self) -> Vec<Option<LastMove>> {
        let players = self.players();
        let mut moves: Vec<Option<LastMove>> = vec![None; players];
        let mut passes = 0;
        let mut started = false;
        for action in self.actions() {
            match action {
                Action::Play { seat, cards, play } => {
                    if !started || passes >= players - 1 {
                        // A new trick: earlier plays stay as each seat's last play; passes and words go.
                        for last in &mut moves {
                            match last {
                                Some(LastMove::Played { in_trick, .. }) => *in_trick = false,
                                _ => *last = None,
                            }
                        }
                    }
                    started = true;
                    passes = 0;
                    moves[*seat] = Some(LastMove::Played { cards: *cards, play: *play, in_trick: true });
                }
                Action::Pass { seat } if started => {
                    passes += 1;
                    moves[*seat] = Some(LastMove::Passed);
                }
                Action::Seen { .. } | Action::DealLimit | Action::Abandon => {}
                auction if !started => {
                    if let Some(seat) = auction.seat() {
                        moves[seat] = Some(LastMove::Auction { action: auction.clone() });
                    }
                }
                _ => {}
            }
        }
        if self.phase() != Phase::Auction && !started {
            moves.iter_mut().for_each(|last| *last = None);
        }
        moves
    }

    /// How the finished deal's amount came about, line by line; empty while the deal runs. Replays the
    /// deal's actions and notes every change of the ante, the multiplier and the result.
    pub fn score_lines(&self) -> Vec<ScoreLine> {
        let Some(result) = self.result() else {
            return Vec::new();
        };
        let house = self.rules().table == TableType::House;
        let mut lines = Vec::new();
        let mut replay = Deal::new(self.setup().clone());
        // The multiplier from bombs alone: a spring on the last play doubles it after the bomb's factor.
        let mut bombs_multiplier = 1;
        for action in self.actions() {
            let (paid_before, multiplier_before, bombs_before) =
                (replay.paid().to_vec(), replay.multiplier(), replay.bombs());
            let had_landlord = replay.landlord().is_some();
            if replay.apply(action).is_err() {
                break; // the deal's own actions were applied once already; they cannot fail again
            }
            let Some(landlord) = replay.landlord() else { continue };
            let tenant = (0..replay.players()).find(|&s| s != landlord).expect("two or more seats");
            let paid = |s: Seat| replay.paid()[s] - paid_before.get(s).copied().unwrap_or(0);
            if house && !had_landlord {
                lines.push(ScoreLine::Ante { landlord: paid(landlord), tenant: paid(tenant) });
            }
            if replay.bombs() == bombs_before {
                continue;
            }
            let seat = action.seat().expect("a bomb is a seat's play");
            if house {
                lines.push(match paid(landlord) {
                    0 => ScoreLine::BombFree { seat },
                    collected => ScoreLine::BombCollected { seat, landlord: collected, tenant: paid(tenant) },
                });
            } else if let Action::Play { play, .. } = action {
                let factor = replay.rules().bomb_factor(play);
                let (multiplier, capped) = times(multiplier_before, factor);
                lines.push(ScoreLine::Multiplied { seat, factor, multiplier });
                lines.extend(capped);
                bombs_multiplier = multiplier;
            }
        }
        match (result.winner, house) {
            (None, _) => lines.push(ScoreLine::NoScore { end: result.end }),
            (Some(_), true) => {
                let won = result.score.iter().zip(self.paid()).map(|(score, paid)| score + paid).collect();
                lines.push(ScoreLine::PotWon { pot: self.pot(), won });
            }
            (Some(winner), false) => {
                let robs = self.actions().iter().filter(|a| matches!(a, Action::Rob { rob: true, .. })).count();
                lines.insert(0, ScoreLine::AuctionValue { value: result.auction_value, robs: robs as u32 });
                if result.end == End::Allowance {
                    let allowance = self.allowance().expect("an allowance ends only Two Player deals");
                    lines.push(ScoreLine::Allowance { seat: winner, allowance });
                }
                if result.spring {
                    let (multiplier, capped) = times(bombs_multiplier, 2);
                    lines.push(ScoreLine::Spring { multiplier });
                    lines.extend(capped);
                }
                let share = i64::from(result.auction_value) * i64::from(result.multiplier);
                lines.push(ScoreLine::Shares { share, farmers: self.players() - 1 });
            }
        }
        lines
    }
}

/// The multiplier `before * factor` leaves (capped), and the cap's line when the cap cut it short.
fn times(before: u32, factor: u32) -> (u32, Option<ScoreLine>) {
    let full = before.saturating_mul(factor);
    (full.min(MULTIPLIER_CAP), (full > MULTIPLIER_CAP).then_some(ScoreLine::Capped { cap: MULTIPLIER_CAP }))
}
