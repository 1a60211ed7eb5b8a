//! The game around the engine, pure: a room as a fold over its entries, the challenges and their boards,
//! what a finished deal adds to a player's stats and ratings, and the hints and readings of a position. No I/O, no
//! clock, no tasks: everything above builds on these.

pub mod challenge;
pub mod hints;
pub mod matching;
pub mod names;
pub mod rating;
pub mod room;
pub mod stats;
