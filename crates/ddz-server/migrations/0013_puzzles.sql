-- Puzzles (docs/puzzles.md): the set, each puzzle's Glicko-2 rating as it is played, each name's attempts
-- (one rated attempt a puzzle), each name's puzzle rating, and the daily puzzle of each date.
--
-- A puzzle as mined (`ddz_bot::puzzles::Puzzle`, JSON), its rating read through the index for a next
-- puzzle near a player's.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    added_at INTEGER NOT NULL
);
CREATE INDEX puzzles_by_rating ON puzzles (rating, id);

-- A name's rated attempt at a puzzle: one each, numbered in the name's order (`nth`: 1 for their first), with the
-- name's puzzle rating after it; their page reads their latest through the index.
CREATE TABLE puzzle_attempts (
    name_key TEXT NOT NULL,
    id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at INTEGER NOT NULL,
    nth INTEGER NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (name_key, id)
);
CREATE INDEX puzzle_attempts_by_name ON puzzle_attempts (name_key, nth DESC);

-- A name's puzzle rating; the board reads it through its index, highest first.
CREATE TABLE puzzle_players (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    last_at INTEGER NOT NULL
);
CREATE INDEX puzzle_players_by_rating ON puzzle_players (rating DESC, name_key);

-- The puzzle of each date (UTC), chosen once, the first time the date's puzzle is asked for.
CREATE TABLE daily_puzzles (
    date TEXT PRIMARY KEY,
    id TEXT NOT NULL
);
