//! The server's integration tests, one module per capability, through the crate's public API (over real
//! sockets and HTTP where they can). One test binary, not one per file: the helpers in `common` and the
//! server's generic code are compiled once, and linked once.

mod common;

mod challenges;
mod chaos;
mod chat;
mod clocks;
mod fair_play;
mod guards;
mod hall;
mod layers;
mod lifecycle;
mod metrics;
mod nonces;
mod postgres;
mod protected_names;
mod puzzles;
mod quick_match;
mod rally_secrecy;
mod ratings;
mod tournaments;
mod web;
mod wire_types;
mod ws;
