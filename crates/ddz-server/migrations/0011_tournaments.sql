-- Tournaments (docs/tournaments.md): each is its log, folded as a room's is. The `tournaments` row holds
-- what lists need without folding: the phase, its times, and a summary as JSON, rewritten with each entry.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    phase TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    summary TEXT NOT NULL
);

CREATE INDEX tournaments_by_phase ON tournaments (phase, created_at);

CREATE TABLE tournament_log (
    id TEXT NOT NULL REFERENCES tournaments (id),
    n INTEGER NOT NULL,
    at INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (id, n)
);

-- Each round's tables (rooms): the deals the tournament counts are theirs.
CREATE TABLE tournament_tables (
    code TEXT PRIMARY KEY,
    id TEXT NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL
);

CREATE INDEX tournament_tables_by_round ON tournament_tables (id, round);
