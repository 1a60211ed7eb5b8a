//! What crosses the network: the WebSocket commands and events, the room as each seat sees it, error codes,
//! and the same types written out in TypeScript for the web client.

mod fixtures;
pub mod http;
pub mod protocol;
pub mod typescript;
pub use typescript::typescript;
