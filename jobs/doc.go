// Package jobs runs ladderbot's scheduled work (docs/spec.md 4, 5): stale flags
// (daily), auto-confirmation of unanswered reports and dropping of idle
// queue tickets (every minute), and the season rollover on each guild's
// cron schedule with the final standings posted to the guild's channel.
//
// The schedule is robfig/cron in UTC with the chain SkipIfStillRunning then
// Recover, logging through slog. Every run is claimed first as a
// job_runs(job, period) row, so it happens once across processes, and
// Start runs every job once at once, which catches up on a period missed
// while no process was up. Periods are named by the Service's clock, so
// tests move time by moving that clock and calling Run. The matchmaking
// pass (every 5 s, announcing the matches it forms) claims nothing: the
// queue's lock already makes it safe across processes (matchmake.go). So
// does the ready-check pass (every 5 s): ready checks and no-show reports
// are deadline rows it catches up on, each closed under its match's row
// lock (lobby.go). Abandoned matches are cancelled every minute.
//
// The Deliverer (webhooks.go) posts the outbox of outgoing webhooks: it
// claims due deliveries row by row, so every replica may run it —
// fairly, one in flight per webhook and the guilds in turns, so a
// receiver that hangs holds back nobody else — signs each body with the
// webhook's secret and retries with backoff for 24 h. Its HTTP client dials only public addresses, checked on the
// resolved IP at connect time.
//
// It renders its Discord messages with package commands and posts them
// through Poster, which the bot implements. It may import ladder, commands,
// cron and slog.
package jobs
