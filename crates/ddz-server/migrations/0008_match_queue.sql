-- Quick match (docs/architecture.md, "Quick match"): players waiting for a table, one row per name.
-- The queue lives in the database so that every node of a cluster matches from the same queue; a node
-- claims the players of a table by setting `room` on their rows, only where it is still NULL, in one
-- transaction, so two nodes never seat the same player twice. `seen_at` is the player's last poll: a row
-- nobody polls (a closed tab) leaves the queue. `rating` is in whole rating points.
CREATE TABLE match_queue (
    ticket TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    table_type TEXT NOT NULL,
    rating INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    room TEXT,
    bots INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX match_queue_waiting ON match_queue (table_type, room);
