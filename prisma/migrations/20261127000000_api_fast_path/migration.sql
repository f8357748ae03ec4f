-- Rate-limit counters need no crash safety (a crash at worst restarts a
-- window), so they skip the write-ahead log: counting a request no longer
-- waits for a WAL flush, and the one statement that authenticates and counts
-- (src/auth/api-keys.ts) stays cheap.
ALTER TABLE "rate_limit_windows" SET UNLOGGED;
