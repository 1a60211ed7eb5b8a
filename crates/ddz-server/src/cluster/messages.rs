//! What nodes say to each other over NATS: a room's [`Mail`] for its owner ([`ToOwner`], answered by an
//! [`Answer`]), a client's event from the owner to the node that serves the client ([`Routed`]), and each
//! node's [`Pulse`].
//!
//! The mail is the room's own vocabulary ([`crate::room::Mail`]), carried as it is: nothing of a room's
//! messages is declared again here.

use serde::{Deserialize, Serialize};

use crate::domain::room::RoomCode;
use crate::room::{ConnId, Mail, Reply};
use crate::wire::protocol::{ErrorCode, Refused};

/// A message for a room's owner, on `ddz.node.<owner>`: room `room`'s mail from node `node`'s proxy, with
/// that node's connection numbers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct ToOwner {
    pub room: RoomCode,
    pub node: String,
    pub mail: Mail,
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Answer {
    /// [`Mail::Connect`]: the name's resume token (none for a spectator).
    Joined {
        token: Option<String>,
    },
    /// [`Mail::Client`]: handed to the room.
    Delivered,
    /// [`Mail::Request`]: the room's reply.
    Replied {
        reply: Reply,
    },
    Refused {
        code: ErrorCode,
        message: String,
    },
    /// This node does not own the room (another live node does, or it is leaving): ask the owner.
    NotOwner,
    /// The connection is not attached here (the room moved): attach it again, then ask again.
    Unattached,
    NoRoom,
}

impl From<Refused> for Answer {
    fn from(Refused { code, message }: Refused) -> Answer {
        Answer::Refused { code, message }
    }
}

/// A node's pulse on `ddz.pulse`, every second: the sockets open on it, for every node's hall.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Pulse {
    pub node: String,
    pub sockets: u32,
}

/// An event for a client of node `ddz.events.<node>`, from the room's owner: three header lines (the
/// owner, the connection, `1` when it is the connection's last event) and the event as the client reads
/// it, so that the serving node writes it to the socket without reading it. No event: the room let the
/// connection go (too slow, replaced, or the room stopped).
pub(super) struct Routed {
    pub owner: String,
    pub conn: ConnId,
    pub last: bool,
    /// An `ack` or `error`: the answer to a command, which changes no view. It reaches the client even
    /// from an owner the room has just moved away from (an action refused because the room moved), where
    /// a state from that owner would be older than the new owner's.
    pub answer: bool,
    pub json: Option<String>,
}

impl Routed {
    pub fn encode(&self) -> Vec<u8> {
        let json = self.json.as_deref().unwrap_or_default();
        let flags = u8::from(self.last) | u8::from(self.answer) << 1;
        format!("{}\n{}\n{flags}\n{json}", self.owner, self.conn).into_bytes()
    }

    pub fn decode(payload: &[u8]) -> Option<Routed> {
        let text = std::str::from_utf8(payload).ok()?;
        let mut parts = text.splitn(4, '\n');
        let owner = parts.next()?.to_string();
        let conn = parts.next()?.parse().ok()?;
        let flags: u8 = parts.next()?.parse().ok()?;
        let json = parts.next().filter(|j| !j.is_empty()).map(str::to_string);
        Some(Routed { owner, conn, last: flags & 1 != 0, answer: flags & 2 != 0, json })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::fairness::Origin;
    use crate::domain::names::PlayerName;
    use crate::room::{FromClient, Hello, Request};
    use crate::wire::protocol::{Command, Event};

    #[test]
    fn a_routed_event_reaches_the_serving_node_as_the_json_its_client_reads() {
        let json = serde_json::to_string(&Event::Ack { seq: 7 }).unwrap();
        let owner = "n1-0000abcd".to_string();
        let routed = Routed { owner, conn: (1 << 48) + 3, last: false, answer: true, json: Some(json.clone()) };
        let read = Routed::decode(&routed.encode()).unwrap();
        assert_eq!(
            (read.owner.as_str(), read.conn, read.last, read.answer),
            ("n1-0000abcd", (1 << 48) + 3, false, true)
        );
        assert_eq!(read.json.as_deref(), Some(json.as_str()));
        // An event may hold new lines of its own: only the first three split.
        let text = Some("{\n\"type\":\"replaced\"\n}".to_string());
        let multiline = Routed { owner: "n2".into(), conn: 1, last: true, answer: false, json: text };
        let read = Routed::decode(&multiline.encode()).unwrap();
        assert_eq!((read.json, read.last, read.answer), (multiline.json, true, false));
        let closed = Routed { owner: "n2".into(), conn: 1, last: false, answer: false, json: None };
        assert_eq!(Routed::decode(&closed.encode()).unwrap().json, None, "the room let the connection go");
        assert!(Routed::decode(b"n2\nnot a number\n0\n{}").is_none());
        assert!(Routed::decode(b"n2\n1\nyes\n{}").is_none(), "flags are a number");
    }

    #[test]
    fn a_rooms_mail_crosses_nodes_as_it_was_sent() {
        let name = PlayerName::parse("Ａｌｉｃｅ").unwrap();
        let hello =
            Hello { conn: 4, name: Some(name), token: Some("t".into()), opened_ms: 9, origin: Origin::default() };
        for mail in [
            Mail::Connect(hello),
            Mail::Client(FromClient::Command { conn: 4, command: Command::Sync }),
            Mail::Client(FromClient::Disconnect { conn: 4 }),
            Mail::Request(Request::View),
        ] {
            let sent = ToOwner { room: "ABCDEF".into(), node: "n1".into(), mail: mail.clone() };
            let read: ToOwner = serde_json::from_slice(&serde_json::to_vec(&sent).unwrap()).unwrap();
            assert_eq!((read.room.as_str(), read.node.as_str(), read.mail), ("ABCDEF", "n1", mail));
        }
        // A name is read again on arrival: what no edge would let through is no mail.
        let forged = r#"{"room":"ABCDEF","node":"n1","mail":{"mail":"connect","body":
            {"conn":1,"name":"","token":null,"opened_ms":0}}}"#;
        assert!(serde_json::from_str::<ToOwner>(forged).is_err());
    }
}
