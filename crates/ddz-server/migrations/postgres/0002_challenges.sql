-- PostgreSQL's copy of ../0002_challenges.sql: the same schema, with 64-bit integers (BIGINT) where SQLite's are 64-bit by nature.
-- Challenge runs (Bot Buster, Bot Bomber, Bang rallies), a settings table for the rally secret, and the
-- time of each player's latest deal for the boards' dates.
CREATE TABLE challenges (
    code TEXT PRIMARY KEY REFERENCES rooms(code),
    kind TEXT NOT NULL,
    -- The rally's date (2026-11-29, UTC) for Bang rallies.
    rally TEXT,
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    -- Written once, when the run ends or is abandoned.
    finished_at BIGINT,
    net BIGINT,
    deals BIGINT,
    best_pot BIGINT,
    -- The player's money in each deal, as a JSON array.
    nets TEXT
);

-- One attempt per name per rally.
CREATE UNIQUE INDEX challenges_one_rally_attempt ON challenges (rally, name_key) WHERE rally IS NOT NULL;
CREATE INDEX challenges_by_player ON challenges (name_key, kind);
CREATE INDEX challenges_by_board ON challenges (kind, rally, finished_at);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

ALTER TABLE stats ADD COLUMN last_at BIGINT NOT NULL DEFAULT 0;
