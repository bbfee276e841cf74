-- Searches as jobs (issue 53): the engine's moves of games kept in PostgreSQL wait here until
-- a worker (`tafl-web worker`, or a server when no worker runs) claims one with
-- `FOR UPDATE SKIP LOCKED` for a lease, renewed while it searches (web/src/jobs.rs).
-- `seq` is the game's last event when the job was asked: the position to search; any later
-- change of the game deletes it. SQLite (one server) keeps its searches in memory and never
-- writes here.
CREATE TABLE IF NOT EXISTS jobs (
    game TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    -- The queue's class (0: the engine's move) and whose turn it is within it (queue.rs).
    class BIGINT NOT NULL,
    player TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    -- NULL while it waits; a job whose lease (ms since 1970) has passed waits again.
    leased_until BIGINT,
    worker TEXT,
    -- Claims so far: at the third one's lease running out, the game is told it failed.
    tries BIGINT NOT NULL DEFAULT 0,
    -- 1: "move now" (the claimer plays its best move so far).
    stop_now BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS jobs_order ON jobs (class, created_ms);
-- The workers that run: each renews its row every second; a server claims jobs itself only
-- while no worker's row is recent.
CREATE TABLE IF NOT EXISTS workers (
    id TEXT PRIMARY KEY,
    searches BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL
);
