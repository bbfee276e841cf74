-- The games, their moves, their numbered events, draw offers and reviews (issues 51-53).
-- One history for SQLite and PostgreSQL: types both read alike (BIGINT, TEXT, DOUBLE
-- PRECISION), no dialect's extras. Each statement ends with a semicolon at a line's end.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    mode TEXT NOT NULL,
    human TEXT,
    level BIGINT NOT NULL,
    resigned TEXT,
    created BIGINT,
    clock_ms BIGINT,
    increment_ms BIGINT NOT NULL DEFAULT 0,
    flagged TEXT,
    -- Seats: `engine`, `person` or `open`, and the hex SHA-256 of the secret of the person in
    -- it. NULL in games stored before seats: read-only.
    attackers_seat TEXT,
    defenders_seat TEXT,
    attackers_hash TEXT,
    defenders_hash TEXT,
    -- Correspondence games: days per move, and the turn's length in milliseconds.
    move_days BIGINT,
    move_ms BIGINT
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    move TEXT NOT NULL,
    used_ms BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game, ply)
);
-- `at`: the event's time in ms since 1970 (a correspondence turn's deadline survives a
-- restart).
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at BIGINT,
    PRIMARY KEY (game, seq)
);
-- The side whose draw offer stands, and whether the players agreed (R18): 0 or 1.
CREATE TABLE IF NOT EXISTS draws (
    game TEXT PRIMARY KEY REFERENCES games(id),
    offer TEXT,
    agreed BIGINT NOT NULL DEFAULT 0
);
-- The engine's evaluation of each position of a finished game (review.rs).
CREATE TABLE IF NOT EXISTS reviews (
    game TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    win DOUBLE PRECISION NOT NULL,
    score BIGINT NOT NULL,
    best TEXT,
    PRIMARY KEY (game, ply)
);
