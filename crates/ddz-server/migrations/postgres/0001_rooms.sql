-- PostgreSQL's copy of ../0001_rooms.sql: the same schema, with 64-bit integers (BIGINT) where SQLite's are 64-bit by nature.
-- Rooms, their append-only logs, finished deals, and player stats.
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    mode TEXT NOT NULL,
    host TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    closed_at BIGINT
);

CREATE TABLE room_log (
    code TEXT NOT NULL REFERENCES rooms(code),
    n BIGINT NOT NULL,
    at BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, n)
);

CREATE TABLE deals (
    code TEXT NOT NULL REFERENCES rooms(code),
    number BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (code, number)
);

-- One row per player (lower-cased name), table type and board.
CREATE TABLE stats (
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    table_type TEXT NOT NULL,
    public BIGINT NOT NULL,
    deals BIGINT NOT NULL DEFAULT 0,
    landlord_deals BIGINT NOT NULL DEFAULT 0,
    landlord_wins BIGINT NOT NULL DEFAULT 0,
    farmer_deals BIGINT NOT NULL DEFAULT 0,
    farmer_wins BIGINT NOT NULL DEFAULT 0,
    money BIGINT NOT NULL DEFAULT 0,
    points BIGINT NOT NULL DEFAULT 0,
    bombs BIGINT NOT NULL DEFAULT 0,
    springs BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (name_key, table_type, public)
);
