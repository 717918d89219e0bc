// Package e2e holds the reliability tests of ladderbot as a whole: the
// ladderbot binary, built once per test run, runs as real processes (one
// per Discord shard, and a duplicate of a shard) against the fake Discord
// of internal/fakediscord and one shared database, under a concurrent load
// of interactions; processes are killed with SIGKILL and restarted, the
// gateway is dropped, and PostgreSQL is restarted (LADDERBOT_FAULT_TESTS=1).
// Every test ends by checking the ledger: no player in two open matches,
// every acknowledged result stored exactly once, and `ladderbot verify`
// clean. The package has no non-test code besides this comment; the
// database digest its hostile-input tests share with other packages is
// testdb.Snapshot.
package e2e
