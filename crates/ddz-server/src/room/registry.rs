//! The running room tasks of this node by code, one task per room: a task is registered as it starts
//! and leaves as it retires or the server stops. Proxies in cluster mode use a registry of their own.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::mailbox::{INBOX, Msg};
use crate::domain::room::RoomCode;

/// A running room task: its number, its inbox, and (cluster mode) the fencing number it holds the room with.
type Running = (u64, mpsc::Sender<Msg>, Option<i64>);

/// The inboxes of the running room tasks, by code, each with the number of the task that owns it.
#[derive(Clone, Default)]
pub struct Registry {
    inboxes: Arc<Mutex<HashMap<RoomCode, Running>>>,
    next_task: Arc<AtomicU64>,
}

impl Registry {
    pub fn get(&self, code: &RoomCode) -> Option<mpsc::Sender<Msg>> {
        self.inboxes.lock().expect("registry lock").get(code).map(|(_, tx, _)| tx.clone())
    }

    /// Room `code`'s running task: its number, inbox and fencing number.
    pub fn entry(&self, code: &RoomCode) -> Option<Running> {
        self.inboxes.lock().expect("registry lock").get(code).cloned()
    }

    /// Task `task` of room `code` leaves the registry, unless a message is waiting for it: then it has
    /// work to do and stays. Returns whether it left; it must then stop taking messages.
    pub fn retire(&self, code: &RoomCode, task: u64, inbox: &mpsc::Receiver<Msg>) -> bool {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if !inbox.is_empty() {
            return false;
        }
        if inboxes.get(code).is_some_and(|(owner, _, _)| *owner == task) {
            inboxes.remove(code);
        }
        true
    }

    /// Task `task` of room `code` leaves the registry as the server stops.
    pub fn remove(&self, code: &RoomCode, task: u64) {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if inboxes.get(code).is_some_and(|(owner, _, _)| *owner == task) {
            inboxes.remove(code);
        }
    }

    /// How many tasks have been registered since the server started.
    pub fn tasks_started(&self) -> u64 {
        self.next_task.load(Ordering::Relaxed)
    }

    pub fn running(&self) -> usize {
        self.inboxes.lock().expect("registry lock").len()
    }

    pub fn codes(&self) -> Vec<RoomCode> {
        self.inboxes.lock().expect("registry lock").keys().cloned().collect()
    }

    /// Registers a new task for `code` (holding the room with `fence` in cluster mode) unless one is there:
    /// its number and inbox, or the running one's inbox.
    pub fn register(
        &self,
        code: &RoomCode,
        fence: Option<i64>,
    ) -> Result<(u64, mpsc::Sender<Msg>, mpsc::Receiver<Msg>), mpsc::Sender<Msg>> {
        let mut inboxes = self.inboxes.lock().expect("registry lock");
        if let Some((_, tx, _)) = inboxes.get(code) {
            return Err(tx.clone());
        }
        let (tx, rx) = mpsc::channel(INBOX);
        let task = self.next_task.fetch_add(1, Ordering::Relaxed);
        inboxes.insert(code.clone(), (task, tx.clone(), fence));
        Ok((task, tx, rx))
    }
}
