-- Competition that holds (docs/ratings.md, "What counts"; docs/performance.md, "Boards").
--
-- Each player's part in the boards: rated deals and distinct opponents (a bot kind is one), which a name
-- needs enough of to be listed (`eligible`), and the deals it played with another person at the table.
CREATE TABLE players (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    rated_deals INTEGER NOT NULL DEFAULT 0,
    opponents INTEGER NOT NULL DEFAULT 0,
    shared_deals INTEGER NOT NULL DEFAULT 0,
    eligible INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE opponents (
    name_key TEXT NOT NULL,
    opponent TEXT NOT NULL,
    PRIMARY KEY (name_key, opponent)
);

-- Two people who played together (first_key < second_key): how often, and in how many of those deals
-- one of them passed on nearly every chance to beat an opponent. A flagged pair's deals together count
-- for neither until an operator clears it (`ddz fairness`).
CREATE TABLE pairs (
    first_key TEXT NOT NULL,
    second_key TEXT NOT NULL,
    first_name TEXT NOT NULL,
    second_name TEXT NOT NULL,
    deals INTEGER NOT NULL DEFAULT 0,
    thrown INTEGER NOT NULL DEFAULT 0,
    flagged_at INTEGER,
    reason TEXT,
    PRIMARY KEY (first_key, second_key)
);

CREATE INDEX pairs_flagged ON pairs (flagged_at) WHERE flagged_at IS NOT NULL;

-- The money boards, kept up to date as counted deals finish, ranked through an index: a view reads its
-- rows in order, never every player.
CREATE TABLE board_rows (
    board TEXT NOT NULL,
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    eligible INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (board, name_key)
);

CREATE INDEX board_rows_ranked ON board_rows (board, eligible, score DESC, deals, name_key);
CREATE INDEX board_rows_by_player ON board_rows (name_key);

INSERT INTO board_rows (board, name_key, name, score, deals, last_at)
    SELECT 'overall', name_key, MAX(name), CAST(SUM(money) AS BIGINT), CAST(SUM(deals) AS BIGINT), MAX(last_at)
    FROM stats WHERE table_type = 'house' GROUP BY name_key;
INSERT INTO board_rows (board, name_key, name, score, deals, last_at)
    SELECT 'lobby', name_key, MAX(name), CAST(SUM(money) AS BIGINT), CAST(SUM(deals) AS BIGINT), MAX(last_at)
    FROM stats WHERE table_type = 'house' AND public = 1 GROUP BY name_key;
INSERT INTO players (name_key, name, rated_deals)
    SELECT name_key, MAX(name), CAST(SUM(deals) AS BIGINT) FROM ratings GROUP BY name_key;

-- The ratings boards rank by mu - 2 sigma (millionths), kept beside them and indexed.
ALTER TABLE ratings ADD COLUMN score INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ratings ADD COLUMN eligible INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET score = mu - 2 * sigma;
DROP INDEX ratings_by_family;
CREATE INDEX ratings_ranked ON ratings (family, eligible, score DESC, deals DESC, name_key);

-- A rally deal's stats, ratings and board lines wait here until the day's rally closes (RULES.md 9),
-- then go in all at once.
CREATE TABLE held_results (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    rally TEXT NOT NULL,
    at INTEGER NOT NULL,
    results TEXT NOT NULL,
    PRIMARY KEY (code, number)
);

CREATE INDEX held_results_by_rally ON held_results (rally, at);

-- Quick match never seats two tickets of one address together.
ALTER TABLE match_queue ADD COLUMN address TEXT;
