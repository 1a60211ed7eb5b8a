//! The game around the engine, pure: a room as a fold over its entries, the challenges and their boards,
//! what a finished deal adds to a player's stats and ratings, who sits with whom in quick match, protected
//! names' secrets, and the rules of tournaments' seating and progress (docs/tournaments.md). No I/O, no clock, no tasks: everything above builds on these. (The hints and readings of
//! a position are the engine's, `ddz_engine::hints`, shared with the page's WebAssembly.)

pub mod challenge;
pub mod fairness;
pub mod matching;
pub mod names;
pub mod rating;
pub mod room;
pub mod stats;
pub mod tournament;
