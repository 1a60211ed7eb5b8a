-- The hard bot's reviews of a seat's play in a finished deal (ddz_bot::review), computed once on request
-- and kept: a deal's record never changes, so neither does its review.
CREATE TABLE reviews (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    -- The review as JSON.
    review TEXT NOT NULL,
    PRIMARY KEY (code, number, seat)
);
