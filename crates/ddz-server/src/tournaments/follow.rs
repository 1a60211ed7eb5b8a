//! A tournament's page and its followers (`GET /api/tournaments/{id}/page` and the `follow_tournament`
//! socket, docs/protocol.md): the page is small whatever the field (the leaders, the round in play's tables,
//! the path), written once per change and pushed to every follower on this node, each with their own place
//! added. The desk publishes a tournament whenever its fold here moves on (its own entries, and what is
//! read of other nodes'), at most once every [`PUBLISH_EVERY`]: a round of a thousand tables counts a deal
//! a moment, and its followers are sent the page as it stands, not every count.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::watch;
use tokio::time::Instant;

use super::{Desk, DeskError, summary};
use crate::domain::names::{NameKey, PlayerName};
use crate::domain::tournament::{Phase, Tournament};
use crate::wire::pages::{
    EntrantView, LEADERS, RoundLine, TABLES_SHOWN, TournamentFollow, TournamentPage, TournamentTable, TournamentYou,
    YourRound,
};

/// How often a tournament's followers are sent its page at most.
pub const PUBLISH_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// A tournament as its followers are sent it: the page's JSON, written once, and what each follower's own
/// place is read from, indexed so that each follower's costs what their own line holds, whatever the field.
pub struct Followed {
    /// The page's JSON.
    pub page: Arc<str>,
    tournament: Tournament,
    /// Each entrant's place in the standings, by entrant.
    places: Vec<usize>,
    /// Each entrant by their name's key.
    by_key: HashMap<NameKey, usize>,
    /// Where each entrant sat, round by round: the round's and the table's index, and the seat.
    seats: Vec<Vec<(usize, usize, usize)>>,
}

impl Followed {
    fn of(id: &str, tournament: Tournament) -> Followed {
        let page = page(id, &tournament);
        let mut places = vec![0; tournament.entrants.len()];
        for (i, place) in standings(&tournament) {
            places[i] = place;
        }
        let by_key = tournament.entrants.iter().enumerate().map(|(i, e)| (e.key.clone(), i)).collect();
        let mut seats = vec![Vec::new(); tournament.entrants.len()];
        for (r, round) in tournament.rounds.iter().enumerate() {
            for (t, table) in round.tables.iter().enumerate() {
                for (seat, &i) in table.players.iter().enumerate() {
                    seats[i].push((r, t, seat));
                }
            }
        }
        let page = serde_json::to_string(&page).expect("a page serialises").into();
        Followed { page, tournament, places, by_key, seats }
    }

    /// The number of the last entry the page shows.
    fn last(&self) -> u64 {
        self.tournament.last
    }

    fn open(&self) -> bool {
        matches!(self.tournament.phase, Phase::Registering | Phase::Running)
    }

    /// Where `name` stands, if registered: their line of the standings, their table in the round in play,
    /// and where they sat in each round.
    pub fn you(&self, name: &PlayerName) -> Option<TournamentYou> {
        let t = &self.tournament;
        let i = *self.by_key.get(name.key())?;
        let sat = |&(r, tb, seat): &(usize, usize, usize)| (&t.rounds[r], &t.rounds[r].tables[tb], seat);
        let in_play = self.seats[i].last().map(sat).filter(|(round, _, _)| !round.closed).map(|(_, table, _)| table);
        let rounds = self.seats[i]
            .iter()
            .map(sat)
            .map(|(round, table, seat)| YourRound {
                round: round.number,
                stage: round.stage,
                code: table.code.clone(),
                counted: table.counted,
                won: table.won.get(seat).copied().unwrap_or(0),
            })
            .collect();
        Some(TournamentYou {
            entrant: entrant_view(t, i, self.places[i]),
            table: in_play.map(|table| table_view(t, table)),
            rounds,
        })
    }

    /// The `tournament` event for a follower reading as `name`, at the server's time `now`.
    pub fn event(&self, name: Option<&PlayerName>, now: u64) -> String {
        let you =
            name.and_then(|name| self.you(name)).map(|you| serde_json::to_string(&you).expect("a place serialises"));
        let you = you.map(|you| format!(r#","you":{you}"#)).unwrap_or_default();
        format!(r#"{{"type":"tournament","now":{now},"page":{}{you}}}"#, self.page)
    }

    /// The answer to `GET /api/tournaments/{id}/page` for `name`.
    pub fn answer(&self, name: Option<&PlayerName>, now: u64) -> TournamentFollow {
        let page = serde_json::from_str(&self.page).expect("a page reads back");
        TournamentFollow { now, page, you: name.and_then(|name| self.you(name)) }
    }
}

/// Every entrant's place: the standings once it has started, the order of registration before.
fn standings(t: &Tournament) -> Vec<(usize, usize)> {
    match t.phase {
        Phase::Registering | Phase::Cancelled => (0..t.entrants.len()).map(|i| (i, i + 1)).collect(),
        Phase::Running | Phase::Finished => t.standings().into_iter().map(|s| (s.entrant, s.place)).collect(),
    }
}

fn entrant_view(t: &Tournament, i: usize, place: usize) -> EntrantView {
    let e = &t.entrants[i];
    EntrantView { place, name: e.name.clone(), bot: e.bot.is_some(), chips: e.chips, out: e.out }
}

fn table_view(t: &Tournament, table: &crate::domain::tournament::Table) -> TournamentTable {
    TournamentTable {
        code: table.code.clone(),
        players: table.players.iter().map(|&i| t.entrants[i].name.clone()).collect(),
        counted: table.counted,
        won: table.won.clone(),
    }
}

/// A tournament's page: its summary, path and rounds, the leaders, and the round in play's tables.
pub fn page(id: &str, t: &Tournament) -> TournamentPage {
    let over = matches!(t.phase, Phase::Finished | Phase::Cancelled);
    TournamentPage {
        summary: summary(id, t),
        settings: t.settings.clone(),
        until: t.until,
        commitment: t.commitment(),
        seed: over.then_some(t.seed),
        path: t.path(),
        rounds: t
            .rounds
            .iter()
            .map(|r| RoundLine {
                number: r.number,
                stage: r.stage,
                deals: r.deals,
                line: r.line,
                closed: r.closed,
                tables: r.tables.len(),
                players: r.tables.iter().map(|table| table.players.len()).sum(),
                counted: r.tables.iter().map(|table| table.counted).sum(),
            })
            .collect(),
        leaders: standings(t).into_iter().take(LEADERS).map(|(i, place)| entrant_view(t, i, place)).collect(),
        tables: t.current().map_or_else(Vec::new, |round| {
            round.tables.iter().take(TABLES_SHOWN).map(|table| table_view(t, table)).collect()
        }),
        byes: t.byes.clone(),
    }
}

/// A tournament's followers on this node: its page as they last got it, and when it may be sent again.
pub(super) struct Follow {
    sender: watch::Sender<Arc<Followed>>,
    /// The next page may go at this time; a later one waits for it (`later`: already waiting).
    next_at: Instant,
    later: bool,
}

impl Desk {
    /// Follows tournament `id`: its page now, and again whenever it changes.
    pub async fn follow(&self, id: &str) -> Result<watch::Receiver<Arc<Followed>>, DeskError> {
        if let Some(follow) = self.followed.lock().expect("the followers").get(id) {
            return Ok(follow.sender.subscribe());
        }
        let followed = self.read(id, |tournament| Followed::of(id, tournament.clone())).await?;
        let mut follows = self.followed.lock().expect("the followers");
        // Another request may have begun following it meanwhile.
        let follow = follows.entry(id.to_string()).or_insert_with(|| Follow {
            sender: watch::Sender::new(Arc::new(followed)),
            next_at: Instant::now() + PUBLISH_EVERY,
            later: false,
        });
        Ok(follow.sender.subscribe())
    }

    /// Tournament `id`'s page now (`GET /api/tournaments/{id}/page`): its followers' if it has any here.
    pub async fn page(&self, id: &str) -> Result<Arc<Followed>, DeskError> {
        if let Some(follow) = self.followed.lock().expect("the followers").get(id) {
            return Ok(follow.sender.borrow().clone());
        }
        Ok(Arc::new(self.read(id, |tournament| Followed::of(id, tournament.clone())).await?))
    }

    /// Tells tournament `id`'s followers here of the fold `tournament`, if it is newer than what they have:
    /// at once if the last page went [`PUBLISH_EVERY`] ago, else once that time has come (then read as the
    /// log has it). Forgets a tournament nobody follows any more.
    pub(super) fn publish(&self, id: &str, tournament: &Tournament) {
        let mut follows = self.followed.lock().expect("the followers");
        let Some(follow) = follows.get_mut(id) else { return };
        if follow.sender.receiver_count() == 0 {
            follows.remove(id);
            return;
        }
        if tournament.last <= follow.sender.borrow().last() {
            return;
        }
        let now = Instant::now();
        if now >= follow.next_at {
            follow.sender.send_replace(Arc::new(Followed::of(id, tournament.clone())));
            follow.next_at = now + PUBLISH_EVERY;
        } else if !follow.later {
            follow.later = true;
            let (desk, id, at) = (self.clone(), id.to_string(), follow.next_at);
            self.rooms.background().until_stopped(async move {
                tokio::time::sleep_until(at).await;
                if let Some(follow) = desk.followed.lock().expect("the followers").get_mut(&id) {
                    follow.later = false;
                }
                if let Err(e) = desk.read(&id, |tournament| desk.publish(&id, tournament)).await {
                    tracing::warn!(tournament = %id, error = %e, "a followed tournament could not be read");
                }
            });
        }
    }

    /// The followed tournaments whose followers last saw them open: the driver reads each again when it no
    /// longer finds it open (another node finished or cancelled it), so that the followers see its end.
    pub(super) fn followed_open(&self) -> Vec<String> {
        let follows = self.followed.lock().expect("the followers");
        follows.iter().filter(|(_, follow)| follow.sender.borrow().open()).map(|(id, _)| id.clone()).collect()
    }
}
