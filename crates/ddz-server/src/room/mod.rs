//! A room's task: the only owner of a room's state, fed through its bounded inbox.

mod task;

pub use task::*;
