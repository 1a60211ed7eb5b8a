-- Ratings (docs/ratings.md): one per player (lower-cased name) and table family, Weng-Lin's mu and sigma
-- in millionths (integers read the same from every backend), moved by every finished rated deal.
CREATE TABLE ratings (
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    mu INTEGER NOT NULL,
    sigma INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    PRIMARY KEY (name_key, family)
);

CREATE INDEX ratings_by_family ON ratings (family);

-- The landlord's role per family: a virtual player on the landlord's side, rated from every deal.
CREATE TABLE rating_roles (
    family TEXT PRIMARY KEY,
    mu INTEGER NOT NULL,
    sigma INTEGER NOT NULL,
    deals INTEGER NOT NULL
);

-- Each player's rating after each rated deal, for the chart on the stats page.
CREATE TABLE rating_history (
    name_key TEXT NOT NULL,
    family TEXT NOT NULL,
    at INTEGER NOT NULL,
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    mu INTEGER NOT NULL,
    sigma INTEGER NOT NULL,
    PRIMARY KEY (name_key, family, code, number)
);
