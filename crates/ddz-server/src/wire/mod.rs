//! What crosses the network: the WebSocket commands and events, the room as each seat sees it, error codes,
//! the HTTP bodies, what the hall and the tournament pages show (`pages`: under both the socket's events and
//! the HTTP bodies), and the same types written out in TypeScript for the web client.

mod fixtures;
pub mod http;
pub mod pages;
pub mod protocol;
pub mod typescript;
pub use typescript::typescript;
