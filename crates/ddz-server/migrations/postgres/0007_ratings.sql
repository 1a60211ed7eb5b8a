-- PostgreSQL's copy of ../0007_ratings.sql: the same schema.
-- Ratings (docs/ratings.md): one per player (lower-cased name) and table family, Weng-Lin's mu and sigma
-- in millionths (integers read the same from every backend), moved by every finished rated deal.
CREATE TABLE ratings (
    name_key TEXT NOT NULL,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    mu BIGINT NOT NULL,
    sigma BIGINT NOT NULL,
    deals BIGINT NOT NULL,
    last_at BIGINT NOT NULL,
    PRIMARY KEY (name_key, family)
);

CREATE INDEX ratings_by_family ON ratings (family);

-- The landlord's role per family: a virtual player on the landlord's side, rated from every deal.
CREATE TABLE rating_roles (
    family TEXT PRIMARY KEY,
    mu BIGINT NOT NULL,
    sigma BIGINT NOT NULL,
    deals BIGINT NOT NULL
);

-- Each player's rating after each rated deal, for the chart on the stats page.
CREATE TABLE rating_history (
    name_key TEXT NOT NULL,
    family TEXT NOT NULL,
    at BIGINT NOT NULL,
    code TEXT NOT NULL,
    number BIGINT NOT NULL,
    mu BIGINT NOT NULL,
    sigma BIGINT NOT NULL,
    PRIMARY KEY (name_key, family, code, number)
);
