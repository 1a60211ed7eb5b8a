//! A room's task: the only owner of a room's state, fed through its bounded inbox ([`mailbox`]), and the
//! registry of the tasks running on this node.

mod mailbox;
mod registry;
mod summaries;
mod task;

pub use mailbox::{
    ConnId, FromClient, Hello, Mail, Msg, OUTBOX, Outbound, Reply, Request, TableSeat, ask, ask_retrying,
};
pub use registry::Registry;
pub use summaries::Summaries;
pub use task::*;
