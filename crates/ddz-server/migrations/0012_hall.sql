-- The hall and a player's page (docs/protocol.md, "HTTP"): what they read, kept as results arrive, each read
-- through an index in the order it is shown, so that a view costs the rows it shows.
--
-- Every deal a person played, for their page's history (a row per seated person per finished deal, held
-- with the rest of a rally deal's results until its rally closes). A name's deals are read newest first
-- and paged by the primary key: `at`, then the room and the deal's number.
CREATE TABLE played_deals (
    name_key TEXT NOT NULL,
    at INTEGER NOT NULL,
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    table_type TEXT NOT NULL,
    mode TEXT NOT NULL,
    seat INTEGER NOT NULL,
    landlord INTEGER NOT NULL,
    -- 1 won, 0 lost, NULL when the deal had no winner.
    won INTEGER,
    -- Dollars at House, points elsewhere.
    amount INTEGER NOT NULL,
    -- The other seats' names, in seat order after this one, as a JSON array.
    others TEXT NOT NULL,
    PRIMARY KEY (name_key, at, code, number)
);

-- Each name's best finished run per challenge board (a rally's board is its date's; '' for Bot Buster and
-- Bot Bomber), ranked through an index as the money boards are: complete rally attempts first (`played` is
-- minus the deals played at a rally, 0 elsewhere), then the score (the net; Bot Bomber's biggest pot), fewer
-- deals, the earlier result.
CREATE TABLE challenge_bests (
    kind TEXT NOT NULL,
    rally TEXT NOT NULL,
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    played INTEGER NOT NULL,
    score INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (kind, rally, name_key)
);

CREATE INDEX challenge_bests_ranked ON challenge_bests (kind, rally, played, score DESC, deals, finished_at, name_key);

INSERT INTO challenge_bests (kind, rally, name_key, name, played, score, deals, finished_at)
    SELECT kind, rally, name_key, name, played, score, deals, finished_at FROM (
        SELECT kind, COALESCE(rally, '') AS rally, name_key, name,
            CASE WHEN kind = 'rally' THEN -COALESCE(deals, 0) ELSE 0 END AS played,
            CASE WHEN kind = 'bomber' THEN COALESCE(best_pot, 0) ELSE COALESCE(net, 0) END AS score,
            COALESCE(deals, 0) AS deals, finished_at,
            ROW_NUMBER() OVER (
                PARTITION BY kind, COALESCE(rally, ''), name_key
                ORDER BY CASE WHEN kind = 'rally' THEN -COALESCE(deals, 0) ELSE 0 END,
                    CASE WHEN kind = 'bomber' THEN COALESCE(best_pot, 0) ELSE COALESCE(net, 0) END DESC,
                    COALESCE(deals, 0), finished_at
            ) AS best
        FROM challenges WHERE finished_at IS NOT NULL
    ) AS runs WHERE best = 1;

-- The places of the people in each finished tournament, for their pages (the event's title, table and
-- format are its summary's).
CREATE TABLE tournament_places (
    name_key TEXT NOT NULL,
    id TEXT NOT NULL REFERENCES tournaments (id),
    finished_at INTEGER NOT NULL,
    place INTEGER NOT NULL,
    entrants INTEGER NOT NULL,
    PRIMARY KEY (name_key, finished_at, id)
);

-- At most three tournaments taking registrations per host, held by the database however many requests
-- create at once: each holds one of its host's slots (1 to 3) until it leaves registration.
CREATE TABLE hosting (
    name_key TEXT NOT NULL,
    slot INTEGER NOT NULL,
    id TEXT NOT NULL REFERENCES tournaments (id),
    PRIMARY KEY (name_key, slot)
);

CREATE INDEX hosting_by_tournament ON hosting (id);
