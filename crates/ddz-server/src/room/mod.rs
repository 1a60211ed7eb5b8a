//! A room's task: the only owner of a room's state, fed through its bounded inbox ([`mailbox`]), and the
//! registry of the tasks running on this node.

mod mailbox;
mod registry;
mod task;

pub use mailbox::{ConnId, Msg, OUTBOX, Outbound, Reply, Request, ask};
pub use registry::Registry;
pub use task::*;
