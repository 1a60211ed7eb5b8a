-- PostgreSQL's copy of ../0003_reviews.sql: the same schema, with 64-bit integers (BIGINT) where SQLite's are 64-bit by nature.
-- The hard bot's reviews of a seat's play in a finished deal (ddz_bot::review), computed once on request
-- and kept: a deal's record never changes, so neither does its review.
CREATE TABLE reviews (
    code TEXT NOT NULL,
    number BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    -- The review as JSON.
    review TEXT NOT NULL,
    PRIMARY KEY (code, number, seat)
);
