//! Player stats: what each seated human earns from a finished deal, and a player's totals as stored.

use ddz_engine::{Action, Deal, Kind, TableType};
use serde::{Deserialize, Serialize};

use crate::domain::challenge::ChallengeKind;
use crate::domain::room::{Mode, Occupant, Room};

/// A player's totals for one table type and board (or, from [`stat_lines`], what one deal adds to them).
#[derive(ts_rs::TS, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatLine {
    pub name: String,
    pub table: TableType,
    pub public: bool,
    pub deals: i64,
    pub landlord_deals: i64,
    pub landlord_wins: i64,
    pub farmer_deals: i64,
    pub farmer_wins: i64,
    pub money: i64,
    pub points: i64,
    pub bombs: i64,
    pub springs: i64,
}

/// Every board, as `/api/boards/{board}` names it: the money boards ([`MoneyBoard`]) and each challenge's.
#[derive(ts_rs::TS, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::EnumIter)]
#[serde(rename_all = "lowercase")]
pub enum BoardName {
    Overall,
    Lobby,
    Buster,
    Bomber,
    Rally,
}

impl BoardName {
    /// The board `text` names, if any.
    pub fn parse(text: &str) -> Option<BoardName> {
        <BoardName as strum::IntoEnumIterator>::iter().find(|board| board.name() == text)
    }

    /// The board as URLs name it.
    pub fn name(self) -> &'static str {
        match self {
            BoardName::Overall => MoneyBoard::Overall.name(),
            BoardName::Lobby => MoneyBoard::Lobby.name(),
            BoardName::Buster => ChallengeKind::Buster.name(),
            BoardName::Bomber => ChallengeKind::Bomber.name(),
            BoardName::Rally => ChallengeKind::Rally.name(),
        }
    }

    /// Where its rows come from: the money won in counted deals, or a challenge's finished runs.
    pub fn rows(self) -> Result<MoneyBoard, ChallengeKind> {
        match self {
            BoardName::Overall => Ok(MoneyBoard::Overall),
            BoardName::Lobby => Ok(MoneyBoard::Lobby),
            BoardName::Buster => Err(ChallengeKind::Buster),
            BoardName::Bomber => Err(ChallengeKind::Bomber),
            BoardName::Rally => Err(ChallengeKind::Rally),
        }
    }
}

/// The money boards, kept up to date as deals finish: House money won in every counted deal
/// (`overall`), and at the tables strangers share, public and quick match (`lobby`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MoneyBoard {
    Overall,
    Lobby,
}

impl MoneyBoard {
    pub const ALL: [MoneyBoard; 2] = [MoneyBoard::Overall, MoneyBoard::Lobby];

    /// The board as it is stored and in URLs.
    pub fn name(self) -> &'static str {
        // The name serde writes: `domain::tests::names_are_serdes` keeps the two the same.
        self.into()
    }

    pub fn parse(text: &str) -> Option<MoneyBoard> {
        MoneyBoard::ALL.into_iter().find(|b| b.name() == text)
    }
}

/// One line of a person's history: a deal they played, as their page lists it (`played_deals`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedLine {
    pub name: String,
    pub table: TableType,
    pub mode: Mode,
    pub seat: usize,
    pub landlord: bool,
    /// `None` when the deal had no winner.
    pub won: Option<bool>,
    /// Dollars at House, points elsewhere.
    pub amount: i64,
    /// The other seats' names, in seat order after this one.
    pub others: Vec<String>,
}

/// What one counted deal adds to a player's row of a money board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardLine {
    pub board: MoneyBoard,
    pub name: String,
    pub money: i64,
}

/// The money board lines a deal's stat lines earn, for the names it counts for (House only).
pub fn board_lines(stats: &[StatLine], counted: &[&str]) -> Vec<BoardLine> {
    let mut lines = Vec::new();
    for line in stats.iter().filter(|l| l.table == TableType::House && counted.contains(&l.name.as_str())) {
        lines.push(BoardLine { board: MoneyBoard::Overall, name: line.name.clone(), money: line.money });
        if line.public {
            lines.push(BoardLine { board: MoneyBoard::Lobby, name: line.name.clone(), money: line.money });
        }
    }
    lines
}

/// The line each seated human's history gets from a finished deal (bots keep none, as for stats).
pub fn played_lines(deal: &Deal, room: &Room) -> Vec<PlayedLine> {
    let Some(result) = deal.result() else {
        return Vec::new();
    };
    let landlord = deal.landlord();
    let names: Vec<String> = room
        .seats
        .iter()
        .map(|occupant| occupant.as_ref().map_or_else(String::new, |o| o.name().to_string()))
        .collect();
    room.seats
        .iter()
        .enumerate()
        .filter_map(|(seat, occupant)| occupant.as_ref().filter(|o| !o.is_bot()).map(|o| (seat, o)))
        .map(|(seat, occupant)| {
            let is_landlord = landlord == Some(seat);
            PlayedLine {
                name: occupant.name().to_string(),
                table: deal.rules().table,
                mode: room.mode,
                seat,
                landlord: is_landlord,
                won: result.landlord_won.map(|l| l == is_landlord),
                amount: result.score.get(seat).copied().unwrap_or(0),
                others: (1..names.len()).map(|i| names[(seat + i) % names.len()].clone()).collect(),
            }
        })
        .collect()
}

/// The stats each seated human earns from a finished deal; a deal with no winner counts as a deal and
/// nothing else. Bots have no stats: bots of many rooms share a name, and boards rank people.
pub fn stat_lines(deal: &Deal, room: &Room) -> Vec<StatLine> {
    let Some(result) = deal.result() else {
        return Vec::new();
    };
    let table = deal.rules().table;
    let landlord = deal.landlord();
    room.seats
        .iter()
        .enumerate()
        .filter_map(|(seat, occupant)| occupant.as_ref().filter(|o| !o.is_bot()).map(|o| (seat, o)))
        .map(|(seat, occupant): (usize, &Occupant)| {
            let is_landlord = landlord == Some(seat);
            let won = result.landlord_won.map(|l| l == is_landlord);
            let bombs = deal
                .actions()
                .iter()
                .filter(|a| {
                    matches!(a, Action::Play { seat: s, play, .. }
                        if *s == seat && matches!(play.shape.kind, Kind::Bomb | Kind::Rocket))
                })
                .count() as i64;
            let score = result.score.get(seat).copied().unwrap_or(0);
            let house = deal.rules().table == TableType::House;
            let played = landlord.is_some() && result.winner.is_some();
            StatLine {
                name: occupant.name().to_string(),
                table,
                // Quick-match tables seat strangers as the lobby's do: their deals count alike.
                public: matches!(room.mode, Mode::Public | Mode::Quick | Mode::Tournament),
                deals: 1,
                landlord_deals: i64::from(played && is_landlord),
                landlord_wins: i64::from(is_landlord && won == Some(true)),
                farmer_deals: i64::from(played && !is_landlord),
                farmer_wins: i64::from(!is_landlord && won == Some(true)),
                money: if house { score } else { 0 },
                points: if house { 0 } else { score },
                bombs,
                springs: i64::from(result.spring && won == Some(true)),
            }
        })
        .collect()
}
