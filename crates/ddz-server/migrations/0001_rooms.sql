-- Rooms, their append-only logs, finished deals, and player stats.
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    mode TEXT NOT NULL,
    host TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    closed_at INTEGER
);

CREATE TABLE room_log (
    code TEXT NOT NULL REFERENCES rooms(code),
    n INTEGER NOT NULL,
    at INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, n)
);

CREATE TABLE deals (
    code TEXT NOT NULL REFERENCES rooms(code),
    number INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (code, number)
);

-- One row per player (lower-cased name), table type and board.
CREATE TABLE stats (
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    table_type TEXT NOT NULL,
    public INTEGER NOT NULL,
    deals INTEGER NOT NULL DEFAULT 0,
    landlord_deals INTEGER NOT NULL DEFAULT 0,
    landlord_wins INTEGER NOT NULL DEFAULT 0,
    farmer_deals INTEGER NOT NULL DEFAULT 0,
    farmer_wins INTEGER NOT NULL DEFAULT 0,
    money INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0,
    bombs INTEGER NOT NULL DEFAULT 0,
    springs INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (name_key, table_type, public)
);
