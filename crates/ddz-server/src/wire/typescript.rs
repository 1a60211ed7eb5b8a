//! The wire types in TypeScript, generated from the Rust types with ts-rs, so that the web client's
//! `web/src/lib/wire.ts` cannot drift from what the server sends and accepts. The test `wire_types`
//! checks that the file is up to date (`DDZ_BLESS=1` rewrites it).

use ts_rs::{Config, TS};

use crate::domain::challenge::{BoardRow, ChallengeKind, RallyResult};
use crate::domain::fairness::{Unrated, Verdict};
use crate::domain::names::NameKey;
use crate::domain::rating::{PlayerRating, RatingPoint, RatingRow};
use crate::domain::room::{LogLine, Mode, Occupant, RoomCode};
use crate::domain::stats::{BoardName, StatLine};
use crate::domain::tournament::{
    Format as TournamentFormat, PathStage, PathState, Phase as TournamentPhase, SettingsBounds,
    SettingsDraft as TournamentSettings, Stage as TournamentStage,
};
use crate::wire::http::{
    ApiError, Board, BoardRank, ChallengeStanding, ChallengeStarted, CreateRoom, CreateTournament, DealReview, Health,
    JoinQuickMatch, Lobby, NameCard, NameSecrets, Placing, PlayVsBots, PlayedDeal, PlayedDeals, PlayerStats,
    ProtectName, PuzzleAttempt, PuzzleBoard, PuzzleBoardRow, PuzzleDeal, PuzzleRatingChange, PuzzleRecord,
    PuzzleResult, PuzzleStanding, PuzzleTry, PuzzleView, QuickMatch, Rallies, RallyComparison, RallyFairness,
    RatingBoard, RatingPlacing, RecoverName, Replay, RoomCreated, RoomDeals, SitAndGoDefaults, Standing,
    StartChallenge, TableTournaments, TournamentCreated, TournamentEntry, TournamentFinish, TournamentRound,
    TournamentRules, TournamentView, Tournaments,
};
use crate::wire::pages::{
    EntrantView, Hall, QuickLine, RoundLine, TournamentFollow, TournamentPage, TournamentSummary, TournamentTable,
    TournamentYou, YourRound,
};

use crate::wire::pages::Summary;
use crate::wire::protocol::{
    ChallengeView, Chat, ClientAction, Command, ErrorCode, Event, OfferView, RoomView, SeatView,
};
use ddz_bot::BotKind;
use ddz_bot::puzzles::{Source as PuzzleSource, Theme as PuzzleTheme};
use ddz_bot::review::{Decision, Review};
use ddz_engine::hints::{HintPlay, Hints, Position, ReadingsAnswer, Refusal};
use ddz_engine::play::{AttachJson, PlayJson};
use ddz_engine::solve::{EndgameJson as Endgame, TrickJson as EndgameTrick};
use ddz_engine::{
    Action, Auction, Card, CardSet, DealRecord, DealResult, DealSetup, DealView, Dealing, End, Fairness, Kind,
    LastMove, Payment, Phase, Play, Rank, ReplayStep, Rules, ScoreLine, Seed, Start, Strength, TableRules, TableType,
    Trick,
};

/// One `export type` per wire type, in a fixed order.
pub fn typescript() -> String {
    // Money and counts stay far below 2^53: plain numbers, not bigint.
    let cfg = Config::new().with_large_int("number");
    let decls = [
        decl::<Card>(&cfg),
        decl::<CardSet>(&cfg),
        decl::<Rank>(&cfg),
        decl::<Rules>(&cfg),
        decl::<Kind>(&cfg),
        decl::<Strength>(&cfg),
        decl::<AttachJson>(&cfg),
        decl::<PlayJson>(&cfg),
        decl::<Play>(&cfg),
        decl::<Action>(&cfg),
        decl::<Phase>(&cfg),
        decl::<Auction>(&cfg),
        decl::<End>(&cfg),
        decl::<DealResult>(&cfg),
        decl::<Trick>(&cfg),
        decl::<LastMove>(&cfg),
        decl::<ScoreLine>(&cfg),
        decl::<Fairness>(&cfg),
        decl::<DealView>(&cfg),
        decl::<ReplayStep>(&cfg),
        decl::<Payment>(&cfg),
        decl::<BotKind>(&cfg),
        decl::<Decision>(&cfg),
        decl::<Review>(&cfg),
        decl::<RoomCode>(&cfg),
        decl::<NameKey>(&cfg),
        decl::<Mode>(&cfg),
        decl::<Occupant>(&cfg),
        decl::<SeatView>(&cfg),
        decl::<LogLine>(&cfg),
        decl::<ChallengeKind>(&cfg),
        decl::<ChallengeView>(&cfg),
        decl::<Chat>(&cfg),
        decl::<OfferView>(&cfg),
        decl::<Unrated>(&cfg),
        decl::<Verdict>(&cfg),
        decl::<RoomView>(&cfg),
        decl::<Summary>(&cfg),
        decl::<ErrorCode>(&cfg),
        decl::<ClientAction>(&cfg),
        decl::<Command>(&cfg),
        decl::<Event>(&cfg),
        decl::<Refusal>(&cfg),
        decl::<HintPlay>(&cfg),
        decl::<ReadingsAnswer>(&cfg),
        decl::<BoardRow>(&cfg),
        decl::<RallyResult>(&cfg),
        decl::<StatLine>(&cfg),
        decl::<BoardName>(&cfg),
        decl::<RatingRow>(&cfg),
        decl::<RatingPoint>(&cfg),
        decl::<PlayerRating>(&cfg),
        decl::<TableType>(&cfg),
        decl::<TableRules>(&cfg),
        decl::<Seed>(&cfg),
        decl::<Start>(&cfg),
        decl::<Dealing>(&cfg),
        decl::<DealSetup>(&cfg),
        decl::<DealRecord>(&cfg),
        // The HTTP API's bodies.
        decl::<CreateRoom>(&cfg),
        decl::<PlayVsBots>(&cfg),
        decl::<JoinQuickMatch>(&cfg),
        decl::<QuickMatch>(&cfg),
        decl::<StartChallenge>(&cfg),
        decl::<Position>(&cfg),
        decl::<RoomCreated>(&cfg),
        decl::<ChallengeStarted>(&cfg),
        decl::<Lobby>(&cfg),
        decl::<RoomDeals>(&cfg),
        decl::<Replay>(&cfg),
        decl::<DealReview>(&cfg),
        decl::<BoardRank>(&cfg),
        decl::<Standing>(&cfg),
        decl::<Placing>(&cfg),
        decl::<RatingPlacing>(&cfg),
        decl::<ChallengeStanding>(&cfg),
        decl::<PlayerStats>(&cfg),
        decl::<PlayedDeal>(&cfg),
        decl::<PlayedDeals>(&cfg),
        decl::<Board>(&cfg),
        decl::<RatingBoard>(&cfg),
        decl::<Rallies>(&cfg),
        decl::<RallyComparison>(&cfg),
        decl::<RallyFairness>(&cfg),
        decl::<Hints>(&cfg),
        decl::<ProtectName>(&cfg),
        decl::<RecoverName>(&cfg),
        decl::<NameCard>(&cfg),
        decl::<NameSecrets>(&cfg),
        decl::<TournamentSettings>(&cfg),
        decl::<SettingsBounds>(&cfg),
        decl::<TournamentRules>(&cfg),
        decl::<PuzzleView>(&cfg),
        decl::<PuzzleDeal>(&cfg),
        decl::<PuzzleRecord>(&cfg),
        decl::<PuzzleTry>(&cfg),
        decl::<PuzzleAttempt>(&cfg),
        decl::<PuzzleResult>(&cfg),
        decl::<PuzzleRatingChange>(&cfg),
        decl::<PuzzleBoard>(&cfg),
        decl::<PuzzleBoardRow>(&cfg),
        decl::<PuzzleStanding>(&cfg),
        decl::<Endgame>(&cfg),
        decl::<EndgameTrick>(&cfg),
        decl::<PuzzleTheme>(&cfg),
        decl::<PuzzleSource>(&cfg),
        decl::<TableTournaments>(&cfg),
        decl::<SitAndGoDefaults>(&cfg),
        decl::<TournamentFormat>(&cfg),
        decl::<TournamentStage>(&cfg),
        decl::<TournamentPhase>(&cfg),
        decl::<CreateTournament>(&cfg),
        decl::<TournamentEntry>(&cfg),
        decl::<TournamentSummary>(&cfg),
        decl::<Tournaments>(&cfg),
        decl::<TournamentCreated>(&cfg),
        decl::<EntrantView>(&cfg),
        decl::<TournamentTable>(&cfg),
        decl::<TournamentRound>(&cfg),
        decl::<TournamentView>(&cfg),
        decl::<TournamentFinish>(&cfg),
        decl::<PathState>(&cfg),
        decl::<PathStage>(&cfg),
        decl::<RoundLine>(&cfg),
        decl::<YourRound>(&cfg),
        decl::<TournamentYou>(&cfg),
        decl::<TournamentPage>(&cfg),
        decl::<TournamentFollow>(&cfg),
        decl::<QuickLine>(&cfg),
        decl::<Hall>(&cfg),
        decl::<ApiError>(&cfg),
        decl::<Health>(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the server's Rust types by `crates/ddz-server/src/wire/typescript.rs` (ts-rs). Do not edit:\n\
         // run `DDZ_BLESS=1 cargo test -p ddz-server --test server wire_types` after changing a wire type.\n",
    );
    for decl in decls {
        out.push('\n');
        out.push_str("export ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

fn decl<T: TS>(cfg: &Config) -> String {
    T::decl(cfg)
}
