-- Cluster mode (`ddz serve --nats …`): which node runs each room.
-- A node holds one lease for all its rooms: its row in `nodes`, renewed every second or so. A room belongs
-- to the node its `room_owners` row names while that node's lease is alive; `node = ''` means nobody.
-- `fence` grows by one at every change of owner and is checked by every append, so a node that lost a room
-- can never write to it again. Unused (and empty) on a single server.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE TABLE room_owners (
    code TEXT PRIMARY KEY REFERENCES rooms (code),
    node TEXT NOT NULL,
    fence INTEGER NOT NULL
);

CREATE INDEX room_owners_by_node ON room_owners (node);
