package jobs_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// BenchmarkGuildScale measures one pass of each production job that
// sweeps every guild — the matchmaking pass (JobMatchmake through
// Scheduler.Run with a Poster), the division-role sync (JobRoles against a
// recording role client) and the webhook outbox (Deliverer.RunOnce until
// it is empty, against a local receiver) — on one PostgreSQL holding
// `guilds` guilds of 200 players each, of which `busy` have work: 8–40
// players waiting in the queue, a played match's worth of rating moves
// across a division line, and two pending webhook deliveries. Every
// guild is a copy of one guild built through the service: a 2v2 queue,
// a running season, 200 rated players, 50 played matches (their rating
// log, match log, webhook events delivered and attempts), five division
// roles mapped and in sync, and one webhook.
//
// Besides ns/op (the pass's wall time) it reports per pass: queries
// (statements sent, from a pgx tracer), rows (rows those statements
// returned or wrote) and tup_read (table rows PostgreSQL read to answer
// them, sequential and by index, from pg_stat_user_tables of the
// benchmark's own schema), and the work done (matches formed, role calls,
// deliveries). The point is that a pass costs in proportion to the guilds
// with work, not to all guilds nor to their history.
//
// It needs PostgreSQL (TEST_DATABASE_URL); without it it is skipped. The
// default sizes are 100 and 1,000 guilds (-short: 100 only);
// LADDERBOT_SCALE_GUILDS="10000:1000,10000:10000" picks other
// guilds:busy pairs. Run it alone, e.g.
//
//	go test -run '^$' -bench GuildScale -benchtime 3x ./jobs
func BenchmarkGuildScale(b *testing.B) {
	testdb.PostgresURL(b) // skips, saying why, when PostgreSQL is absent
	cases := guildScaleCases(b)
	var sizes []int
	for _, c := range cases {
		if !slices.Contains(sizes, c[0]) {
			sizes = append(sizes, c[0])
		}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("guilds=%d", n), func(b *testing.B) {
			w := seedGuildScale(b, n)
			for _, c := range cases {
				if c[0] != n {
					continue
				}
				busy := c[1]
				for _, job := range []string{"matchmake", "roles", "webhooks"} {
					b.Run(fmt.Sprintf("busy=%d/%s", busy, job), func(b *testing.B) { w.bench(b, busy, job) })
				}
			}
		})
	}
}

// guildScaleCases returns the guilds:busy pairs to run.
func guildScaleCases(b *testing.B) [][2]int {
	if s := os.Getenv("LADDERBOT_SCALE_GUILDS"); s != "" {
		var out [][2]int
		for _, f := range strings.Split(s, ",") {
			g, bz, ok := strings.Cut(strings.TrimSpace(f), ":")
			n, err1 := strconv.Atoi(g)
			m, err2 := strconv.Atoi(bz)
			if !ok || err1 != nil || err2 != nil || n < 1 || m < 1 || m > n {
				b.Fatalf("LADDERBOT_SCALE_GUILDS=%q: want guilds:busy pairs such as 1000:100", s)
			}
			out = append(out, [2]int{n, m})
		}
		return out
	}
	if testing.Short() {
		return [][2]int{{100, 10}, {100, 100}}
	}
	return [][2]int{{100, 10}, {100, 100}, {1000, 100}, {1000, 1000}}
}

const (
	scalePlayers = 200 // players per guild
	scaleMatches = 50  // played matches per guild
	scaleEntries = 10_000_000
)

var scaleStart = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// scaleGuild is the ID of the guild numbered k; 0 is the template.
func scaleGuild(k int) string { return fmt.Sprintf("1%017d", k+1) }

// scaleWorld is the seeded database of one size.
type scaleWorld struct {
	dsn      string
	guilds   int
	clock    *ladder.ManualClock
	db       *sql.DB // for resetting the work between passes and reading stats
	recv     *httptest.Server
	hits     atomic.Int64
	roles    *recRoles
	queueIDs map[int]int64 // guild number → default queue ID (template's + offset)
	tmplQ    int64
	tmplS    int64
	qStride  int64
	sStride  int64
	rounds   int
}

// seedGuildScale builds the template guild through the service and copies
// it to guilds 1…n-1 in bulk SQL.
func seedGuildScale(b *testing.B, n int) *scaleWorld {
	b.Helper()
	ctx := context.Background()
	start := time.Now()
	dsn := testdb.DSN(b, testdb.Postgres)
	w := &scaleWorld{dsn: dsn, guilds: n, clock: ladder.NewManualClock(scaleStart), roles: newRecRoles()}
	w.recv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.hits.Add(1)
		rw.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(w.recv.Close)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		b.Fatalf("sql.Open() = %v", err)
	}
	b.Cleanup(func() { db.Close() })
	// One connection, so that flushing its statistics (flushStats) is
	// flushing all of the benchmark's own.
	db.SetMaxOpenConns(1)
	w.db = db

	st, err := storage.Open(ctx, dsn, nil)
	if err != nil {
		b.Fatalf("storage.Open() = %v", err)
	}
	defer st.Close()
	svc := ladder.NewService(st, w.clock)
	tg := scaleGuild(0)
	g, err := svc.EnsureGuild(ctx, tg)
	if err != nil {
		b.Fatalf("EnsureGuild() = %v", err)
	}
	g.PlacementGames = 0
	g.AnnounceChannelID = announce
	g.LogChannelID = modlog
	if _, err := svc.UpdateGuild(ctx, moderator, g); err != nil {
		b.Fatalf("UpdateGuild() = %v", err)
	}
	set := map[string]string{}
	for i, d := range ladder.DefaultDivisions() {
		set[strings.ToLower(d.Name)] = fmt.Sprint(500000000000000001 + i)
	}
	if _, err := svc.SetDivisionRoles(ctx, tg, set); err != nil {
		b.Fatalf("SetDivisionRoles() = %v", err)
	}
	var evs []string
	for _, e := range ladder.EventTypes {
		evs = append(evs, string(e))
	}
	if _, err := svc.CreateWebhook(ctx, moderator, tg, w.recv.URL+"/hook", evs, testPolicy); err != nil {
		b.Fatalf("CreateWebhook() = %v", err)
	}
	// 200 players spread over the five divisions (1250…1945), RD 60.
	for u := 1; u <= scalePlayers; u++ {
		w.clock.Set(w.clock.Now().Add(time.Second))
		if _, err := svc.SetRating(ctx, moderator, tg, "", user(u), 1250+float64((u*37)%200)*3.5, 60, "seed"); err != nil {
			b.Fatalf("SetRating() = %v", err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range scaleMatches {
		w.clock.Set(w.clock.Now().Add(time.Minute))
		ps := rng.Perm(scalePlayers)
		a, bb, c, d := user(ps[0]+1), user(ps[1]+1), user(ps[2]+1), user(ps[3]+1)
		if _, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: tg, Team1: []string{a, bb}, Team2: []string{c, d},
			Winner: 1 + rng.IntN(2), Names: map[string]string{a: "a", bb: "b", c: "c", d: "d"}}); err != nil {
			b.Fatalf("RecordResult() = %v", err)
		}
	}
	// Deliver the history's webhooks and bring the roles in sync, as the
	// running bot would have.
	d := jobs.NewDeliverer(svc, nil, jobs.DelivererOptions{Policy: testPolicy})
	for {
		k, err := d.RunOnce(ctx)
		if err != nil {
			b.Fatalf("RunOnce() = %v", err)
		}
		if k == 0 {
			break
		}
	}
	sched := jobs.New(svc, &poster{}, nil, jobs.Options{Roles: w.roles})
	if st, err := sched.SyncRoles(ctx, tg); err != nil || st.Added == 0 {
		b.Fatalf("SyncRoles() = %+v, %v; want roles given", st, err)
	}
	w.roles.template = true // the clones hold what the template holds
	w.clone(b, n)
	b.Logf("seeded %d guilds × %d players in %v (load average %s)", n, scalePlayers, time.Since(start).Round(time.Second), loadAvg())
	return w
}

// scaleTable says how to copy one table's template rows: its bigserial
// key (renumbered per copy) and the columns that point at other copied
// rows.
type scaleTable struct {
	name  string
	id    string            // bigserial column renumbered per copy, or ""
	remap map[string]string // column → the table whose renumbered ID it holds, "guild" or "event"
}

var scaleTables = []scaleTable{
	{"guilds", "", map[string]string{"id": "guild"}},
	{"queues", "id", map[string]string{"guild_id": "guild"}},
	{"seasons", "id", map[string]string{"guild_id": "guild"}},
	{"queue_lobby", "", map[string]string{"queue_id": "queues"}},
	{"calibrators", "", map[string]string{"guild_id": "guild", "queue_id": "queues"}},
	{"players", "", map[string]string{"guild_id": "guild"}},
	{"ratings", "", map[string]string{"guild_id": "guild", "queue_id": "queues", "season_id": "seasons"}},
	{"matches", "id", map[string]string{"guild_id": "guild", "queue_id": "queues", "season_id": "seasons"}},
	{"match_players", "", map[string]string{"guild_id": "guild", "match_id": "matches"}},
	{"rating_changes", "id", map[string]string{"queue_id": "queues", "season_id": "seasons", "match_id": "matches"}},
	{"audit_log", "id", map[string]string{"guild_id": "guild", "match_id": "matches"}},
	{"division_roles", "", map[string]string{"guild_id": "guild"}},
	{"badge_roles", "", map[string]string{"guild_id": "guild"}},
	{"applied_roles", "", map[string]string{"guild_id": "guild"}},
	{"role_wants", "", map[string]string{"guild_id": "guild"}},
	{"webhooks", "id", map[string]string{"guild_id": "guild"}},
	{"webhook_events", "", map[string]string{"id": "event", "guild_id": "guild"}},
	{"webhook_deliveries", "id", map[string]string{"event_id": "event", "webhook_id": "webhooks"}},
	{"webhook_attempts", "id", map[string]string{"delivery_id": "webhook_deliveries"}},
}

// scaleIgnored are tables whose template rows are not per-guild state
// worth copying (the run log, process bookkeeping), or that the triggers
// of the copied rows fill (role_plans).
var scaleIgnored = []string{"goose_db_version", "job_runs", "role_workers", "rate_buckets", "role_plans"}

// clone copies the template guild's rows to guilds 1…n-1, renumbering
// keys: copy k of a row with key id gets id + k×stride, stride being the
// table's largest template key.
func (w *scaleWorld) clone(b *testing.B, n int) {
	b.Helper()
	ctx := context.Background()
	tg := scaleGuild(0)
	// Every table holding rows must be copied or knowingly ignored, so a
	// new table of per-guild state cannot be silently left out.
	tables := w.strings(b, `SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() ORDER BY relname`)
	for _, t := range tables {
		if slices.Contains(scaleIgnored, t) || slices.ContainsFunc(scaleTables, func(s scaleTable) bool { return s.name == t }) {
			continue
		}
		var rows int
		if err := w.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(*) FROM %q`, t)).Scan(&rows); err != nil {
			b.Fatalf("count %s: %v", t, err)
		}
		if rows > 0 {
			b.Fatalf("table %s holds %d rows of the template guild but the benchmark does not copy it: add it to scaleTables", t, rows)
		}
	}
	strides := map[string]int64{}
	for _, t := range scaleTables {
		if t.id == "" {
			continue
		}
		var m sql.NullInt64
		if err := w.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT max(%s) FROM %s`, t.id, t.name)).Scan(&m); err != nil {
			b.Fatalf("max %s: %v", t.name, err)
		}
		strides[t.name] = max(m.Int64, 1)
	}
	w.qStride, w.sStride = strides["queues"], strides["seasons"]
	if err := w.db.QueryRowContext(ctx, `SELECT id FROM queues`).Scan(&w.tmplQ); err != nil {
		b.Fatalf("template queue: %v", err)
	}
	if err := w.db.QueryRowContext(ctx, `SELECT id FROM seasons`).Scan(&w.tmplS); err != nil {
		b.Fatalf("template season: %v", err)
	}
	const chunk = 500 // guilds per statement
	for _, t := range scaleTables {
		cols := w.strings(b, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, t.name)
		exprs := make([]string, len(cols))
		for i, c := range cols {
			kind := t.remap[c]
			if c == t.id {
				kind = t.name
			}
			switch kind {
			case "":
				exprs[i] = c
			case "guild":
				exprs[i] = fmt.Sprintf(`'1' || lpad((k + 1)::text, 17, '0')`)
			case "event":
				exprs[i] = fmt.Sprintf(`%s || '-' || k`, c)
			default:
				exprs[i] = fmt.Sprintf(`%s + k * %d`, c, strides[kind])
			}
			if t.name == "webhook_events" && c == "body" {
				exprs[i] = fmt.Sprintf(`replace(body, '%s', '1' || lpad((k + 1)::text, 17, '0'))`, tg)
			}
		}
		for from := 1; from < n; from += chunk {
			to := min(from+chunk-1, n-1)
			q := fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM %s, generate_series(%d, %d) k`,
				t.name, strings.Join(quoteAll(cols), ", "), strings.Join(exprs, ", "), t.name+" AS src", from, to)
			q = strings.Replace(q, " FROM "+t.name+" AS src,", " FROM (SELECT * FROM "+t.name+" WHERE "+templateFilter(t, strides)+") src,", 1)
			if _, err := w.db.ExecContext(ctx, q); err != nil {
				b.Fatalf("copy %s: %v\n%s", t.name, err, q)
			}
		}
		if t.id != "" {
			if _, err := w.db.ExecContext(ctx, fmt.Sprintf(`SELECT setval(pg_get_serial_sequence('%s', '%s'), (SELECT max(%s) FROM %s))`, t.name, t.id, t.id, t.name)); err != nil {
				b.Fatalf("setval %s: %v", t.name, err)
			}
		}
	}
	// The copies are in sync as the template is: their plans are current
	// (the triggers of the copied mapping made them due).
	var plans sql.NullString
	if err := w.db.QueryRowContext(ctx, `SELECT to_regclass('role_plans')::text`).Scan(&plans); err != nil {
		b.Fatalf("to_regclass: %v", err)
	}
	if plans.Valid {
		if _, err := w.db.ExecContext(ctx, `UPDATE role_plans SET planned = version`); err != nil {
			b.Fatalf("role_plans: %v", err)
		}
	}
	if _, err := w.db.ExecContext(ctx, `ANALYZE`); err != nil {
		b.Fatalf("ANALYZE: %v", err)
	}
}

// templateFilter selects the template guild's rows of t: by guild, else
// by the template's keys (the copies' are larger).
func templateFilter(t scaleTable, strides map[string]int64) string {
	tg := scaleGuild(0)
	switch {
	case t.name == "guilds":
		return fmt.Sprintf("id = '%s'", tg)
	case t.remap["guild_id"] == "guild":
		return fmt.Sprintf("guild_id = '%s'", tg)
	case t.id != "":
		return fmt.Sprintf("%s <= %d", t.id, strides[t.name])
	case t.remap["queue_id"] == "queues":
		return fmt.Sprintf("queue_id <= %d", strides["queues"])
	}
	panic("jobs: no template filter for " + t.name)
}

func quoteAll(cs []string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = strconv.Quote(c)
	}
	return out
}

func (w *scaleWorld) strings(b *testing.B, q string, args ...any) []string {
	b.Helper()
	rows, err := w.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		b.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			b.Fatalf("scan: %v", err)
		}
		out = append(out, s)
	}
	return out
}

// busyGuilds returns the numbers of the guilds with work: busy of them,
// spread evenly over all.
func (w *scaleWorld) busyGuilds(busy int) []int {
	step := w.guilds / busy
	out := make([]int, 0, busy)
	for k := 0; k < w.guilds && len(out) < busy; k += step {
		out = append(out, k)
	}
	return out
}

// prepare gives the busy guilds the job's work, outside the timer: for
// the matchmaking pass 8–40 waiting players each (and the matches the
// last pass formed cancelled, as if played out); for the role sync four
// players moved across a division line; for the webhooks two pending
// deliveries each.
func (w *scaleWorld) prepare(b *testing.B, job string, busy []int) {
	b.Helper()
	ctx := context.Background()
	now := w.clock.Now()
	ks := make([]string, len(busy))
	for i, k := range busy {
		ks[i] = strconv.Itoa(k)
	}
	list := "ARRAY[" + strings.Join(ks, ",") + "]"
	var stmts []string
	switch job {
	case "matchmake":
		stmts = []string{
			`DELETE FROM queue_entries`,
			`UPDATE match_players SET active = false WHERE active`,
			`UPDATE matches SET state = 'cancelled' WHERE state IN ('open', 'reported')`,
			fmt.Sprintf(`INSERT INTO queue_entries (id, guild_id, queue_id, channel_id, joined_at, expires_at)
SELECT %d + k * 64 + i, '1' || lpad((k + 1)::text, 17, '0'), %d + k * %d, '%s',
       $1::timestamptz - make_interval(secs => 600 - i * 5), $1::timestamptz + interval '50 minutes' + make_interval(secs => i * 5)
FROM unnest(%s) k, generate_series(1, 8 + (k * 7) %% 33) i`, scaleEntries, w.tmplQ, w.qStride, channel, list),
			fmt.Sprintf(`INSERT INTO queue_entry_members (entry_id, guild_id, user_id)
SELECT id, guild_id, '4000000000000' || lpad(((id - %d) %% 64 + 0)::text, 5, '0') FROM queue_entries`, scaleEntries),
		}
	case "roles":
		// Players 1–4 of each busy guild swap between Silver and Gold, as
		// a played match moves them.
		stmts = []string{fmt.Sprintf(`UPDATE ratings SET display = CASE WHEN display < 1550 THEN 1600 ELSE 1500 END,
  rating = CASE WHEN display < 1550 THEN 1720 ELSE 1620 END
WHERE guild_id = ANY (SELECT '1' || lpad((k + 1)::text, 17, '0') FROM unnest(%s) k)
  AND user_id IN ('400000000000000001', '400000000000000002', '400000000000000003', '400000000000000004')`, list)}
	case "webhooks":
		w.rounds++
		stmts = []string{
			// What earlier passes left (the formed matches' events) is
			// taken as delivered: the pass delivers exactly the new work.
			`UPDATE webhook_deliveries SET state = 'delivered', done_at = $1::timestamptz WHERE state = 'pending'`,
			fmt.Sprintf(`INSERT INTO webhook_events (id, guild_id, type, at, body)
SELECT e.id || '-r%d-' || k || '-' || j, '1' || lpad((k + 1)::text, 17, '0'), e.type, $1::timestamptz, e.body
FROM (SELECT * FROM webhook_events WHERE guild_id = '%s' ORDER BY id LIMIT 1) e, unnest(%s) k, generate_series(1, 2) j`, w.rounds, scaleGuild(0), list),
			fmt.Sprintf(`INSERT INTO webhook_deliveries (event_id, webhook_id, state, attempts, next_at, created_at)
SELECT e.id, wh.id, 'pending', 0, $1::timestamptz, $1::timestamptz
FROM webhook_events e JOIN webhooks wh ON wh.guild_id = e.guild_id WHERE e.id LIKE '%%-r%d-%%'`, w.rounds),
		}
	}
	for _, s := range stmts {
		var err error
		if strings.Contains(s, "$1") {
			_, err = w.db.ExecContext(ctx, s, now)
		} else {
			_, err = w.db.ExecContext(ctx, s)
		}
		if err != nil {
			b.Fatalf("prepare %s: %v\n%s", job, err, s)
		}
	}
}

// bench runs b.N passes of job with busy guilds at work.
func (w *scaleWorld) bench(b *testing.B, busy int, job string) {
	ctx := context.Background()
	guilds := w.busyGuilds(busy)
	var queries, rows, tupRead, pages, work float64
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.clock.Set(w.clock.Now().Add(time.Minute))
		w.prepare(b, job, guilds)
		tr := &countTracer{}
		app := fmt.Sprintf("guildscale-%d", time.Now().UnixNano())
		st, err := storage.OpenTraced(ctx, w.dsn+"&application_name="+app, nil, tr)
		if err != nil {
			b.Fatalf("storage.Open() = %v", err)
		}
		svc := ladder.NewService(st, w.clock)
		p := &countPoster{}
		sched := jobs.New(svc, p, slog.New(slog.DiscardHandler), jobs.Options{Roles: w.roles, PostBackoff: time.Millisecond})
		// 8 attempts in flight, not the default 32: the shared test
		// PostgreSQL allows 100 connections for every test running on it.
		d := jobs.NewDeliverer(svc, nil, jobs.DelivererOptions{Policy: testPolicy, Parallel: 8})
		w.flushStats(b)
		before, tables0 := w.tupRead(b), w.tablesRead(b)
		w.resetStatements()
		calls0, hits0 := w.roles.calls.Load(), w.hits.Load()
		tr.reset()
		b.StartTimer()
		t0 := time.Now()
		switch job {
		case "matchmake", "roles":
			name := jobs.JobMatchmake
			if job == "roles" {
				name = jobs.JobRoles
			}
			if ran, err := sched.Run(ctx, name); err != nil || !ran {
				b.Fatalf("Run(%s) = %v, %v", name, ran, err)
			}
		case "webhooks":
			for {
				k, err := d.RunOnce(ctx)
				if err != nil {
					b.Fatalf("RunOnce() = %v", err)
				}
				if k == 0 {
					break
				}
			}
		}
		elapsed += time.Since(t0)
		b.StopTimer()
		q, r := tr.counts()
		st.Close()
		w.waitGone(b, app)
		queries += float64(q)
		rows += float64(r)
		tupRead += float64(w.tupRead(b) - before)
		if i == 0 {
			b.Logf("tables read most by the pass (pg_stat_user_tables):\n%s", topTables(tables0, w.tablesRead(b)))
		}
		if ss, ok := w.statements(b); ok {
			pages += float64(ss.pages)
			if i == 0 {
				b.Logf("heaviest statements of the pass (pg_stat_statements):\n%s", ss.top)
			}
		}
		switch job {
		case "matchmake":
			work += float64(p.n.Load())
			if p.n.Load() == 0 {
				b.Fatalf("the pass formed no match over %d busy guilds", busy)
			}
		case "roles":
			work += float64(w.roles.calls.Load() - calls0)
		case "webhooks":
			work += float64(w.hits.Load() - hits0)
			if got := w.hits.Load() - hits0; got != int64(2*busy) {
				b.Fatalf("delivered %d, want %d", got, 2*busy)
			}
		}
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(queries/n, "queries/op")
	b.ReportMetric(rows/n, "rows/op")
	b.ReportMetric(tupRead/n, "tup_read/op")
	if pages > 0 {
		b.ReportMetric(pages/n, "pages/op")
	}
	unit := map[string]string{"matchmake": "matches/op", "roles": "rolecalls/op", "webhooks": "deliveries/op"}[job]
	b.ReportMetric(work/n, unit)
	b.Logf("guilds=%d busy=%d %s: %v/pass, %.0f queries, %.0f rows, %.0f tuples read, %.0f %s; load average %s",
		w.guilds, busy, job, (elapsed / time.Duration(b.N)).Round(time.Millisecond), queries/n, rows/n, tupRead/n, work/n, unit, loadAvg())
}

// flushStats makes the benchmark's own connection report the table
// statistics of prepare now, not up to seconds later inside the pass.
func (w *scaleWorld) flushStats(b *testing.B) {
	b.Helper()
	ctx := context.Background()
	for _, q := range []string{`SELECT pg_stat_force_next_flush()`, `SELECT 1`} {
		if _, err := w.db.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
}

// tupRead sums the rows PostgreSQL read from the schema's tables,
// sequentially and through indexes, as far as the finished backends
// reported them.
func (w *scaleWorld) tupRead(b *testing.B) int64 {
	b.Helper()
	var n int64
	err := w.db.QueryRowContext(context.Background(), `SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0)::bigint
FROM pg_stat_user_tables WHERE schemaname = current_schema()`).Scan(&n)
	if err != nil {
		b.Fatalf("pg_stat_user_tables: %v", err)
	}
	return n
}

// tableRead is what PostgreSQL read of one table: rows by sequential
// scans and through indexes, and the sequential scans.
type tableRead struct{ seqRows, idxRows, seqScans int64 }

// tablesRead is tupRead by table.
func (w *scaleWorld) tablesRead(b *testing.B) map[string]tableRead {
	b.Helper()
	rows, err := w.db.QueryContext(context.Background(), `SELECT relname, coalesce(seq_tup_read, 0), coalesce(idx_tup_fetch, 0), coalesce(seq_scan, 0)
FROM pg_stat_user_tables WHERE schemaname = current_schema()`)
	if err != nil {
		b.Fatalf("pg_stat_user_tables: %v", err)
	}
	defer rows.Close()
	out := map[string]tableRead{}
	for rows.Next() {
		var name string
		var r tableRead
		if err := rows.Scan(&name, &r.seqRows, &r.idxRows, &r.seqScans); err != nil {
			b.Fatal(err)
		}
		out[name] = r
	}
	return out
}

// topTables lists the five tables whose reads grew most from before to
// after, with their sequential scans.
func topTables(before, after map[string]tableRead) string {
	type grown struct {
		name string
		d    tableRead
	}
	var gs []grown
	for name, a := range after {
		p := before[name]
		d := tableRead{a.seqRows - p.seqRows, a.idxRows - p.idxRows, a.seqScans - p.seqScans}
		if d.seqRows+d.idxRows > 0 {
			gs = append(gs, grown{name, d})
		}
	}
	sort.Slice(gs, func(i, j int) bool {
		return gs[i].d.seqRows+gs[i].d.idxRows > gs[j].d.seqRows+gs[j].d.idxRows
	})
	var sb strings.Builder
	for _, g := range gs[:min(5, len(gs))] {
		fmt.Fprintf(&sb, "%12d rows by %d sequential scans, %12d through indexes  %s\n", g.d.seqRows, g.d.seqScans, g.d.idxRows, g.name)
	}
	return sb.String()
}

// resetStatements empties pg_stat_statements when the server keeps it
// (its shared_preload_libraries has it and the extension is created).
func (w *scaleWorld) resetStatements() {
	_, _ = w.db.ExecContext(context.Background(), `SELECT public.pg_stat_statements_reset()`)
}

// passStatements is what pg_stat_statements saw of one pass.
type passStatements struct {
	pages int64  // shared buffer pages hit or read
	top   string // the heaviest statements, by total time
}

// statements reads pg_stat_statements after a pass; ok is false without it.
func (w *scaleWorld) statements(b *testing.B) (passStatements, bool) {
	b.Helper()
	ctx := context.Background()
	const mine = `query NOT LIKE '%pg_stat%' AND query NOT LIKE '%pg_catalog%' AND query NOT IN ('BEGIN', 'COMMIT', 'ROLLBACK')`
	var out passStatements
	if err := w.db.QueryRowContext(ctx, `SELECT coalesce(sum(shared_blks_hit + shared_blks_read), 0)::bigint FROM public.pg_stat_statements WHERE `+mine).Scan(&out.pages); err != nil {
		return out, false
	}
	rows, err := w.db.QueryContext(ctx, `SELECT calls, rows, shared_blks_hit + shared_blks_read, round(total_exec_time::numeric, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 160)
FROM public.pg_stat_statements WHERE `+mine+` ORDER BY total_exec_time DESC LIMIT 6`)
	if err != nil {
		return out, false
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		var calls, n, pages int64
		var ms float64
		var q string
		if err := rows.Scan(&calls, &n, &pages, &ms, &q); err != nil {
			b.Fatalf("pg_stat_statements: %v", err)
		}
		fmt.Fprintf(&sb, "  %6d calls %8d rows %8d pages %8.1f ms  %s\n", calls, n, pages, ms, q)
	}
	out.top = sb.String()
	return out, true
}

// waitGone waits until the backends of application app have exited, and
// so flushed their statistics.
func (w *scaleWorld) waitGone(b *testing.B, app string) {
	b.Helper()
	for range 500 {
		var n int
		if err := w.db.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			b.Fatalf("pg_stat_activity: %v", err)
		}
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatalf("the backends of %s did not exit", app)
}

// countTracer counts the statements sent and the rows they returned or
// changed.
type countTracer struct{ queries, rows atomic.Int64 }

func (t *countTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (t *countTracer) TraceQueryEnd(_ context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	t.queries.Add(1)
	t.rows.Add(d.CommandTag.RowsAffected())
}

func (t *countTracer) reset()                 { t.queries.Store(0); t.rows.Store(0) }
func (t *countTracer) counts() (int64, int64) { return t.queries.Load(), t.rows.Load() }

// countPoster counts the match announcements posted.
type countPoster struct{ n atomic.Int64 }

func (p *countPoster) Post(_ context.Context, _ string, msg commands.Reply) (string, error) {
	id := p.n.Add(1)
	if msg.Edit != "" {
		return msg.Edit, nil
	}
	return fmt.Sprint(800000000000000000 + id), nil
}

// recRoles is a role client that keeps each member's roles in memory;
// with template set, a member it has not seen holds what the same member
// of the template guild holds (the copies start in sync).
type recRoles struct {
	mu       sync.Mutex
	held     map[string][]string // guild/user → roles
	template bool
	calls    atomic.Int64
}

func newRecRoles() *recRoles { return &recRoles{held: map[string][]string{}} }

func (r *recRoles) get(guildID, userID string) []string {
	if h, ok := r.held[guildID+"/"+userID]; ok {
		return h
	}
	if r.template {
		return r.held[scaleGuild(0)+"/"+userID]
	}
	return nil
}

func (r *recRoles) AddMemberRole(_ context.Context, guildID, userID, roleID string) error {
	r.calls.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	h := slices.Clone(r.get(guildID, userID))
	if !slices.Contains(h, roleID) {
		h = append(h, roleID)
	}
	r.held[guildID+"/"+userID] = h
	return nil
}

func (r *recRoles) RemoveMemberRole(_ context.Context, guildID, userID, roleID string) error {
	r.calls.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.held[guildID+"/"+userID] = slices.DeleteFunc(slices.Clone(r.get(guildID, userID)), func(s string) bool { return s == roleID })
	return nil
}

func (r *recRoles) MemberRoles(_ context.Context, guildID, userID string) ([]string, error) {
	r.calls.Add(1)
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.get(guildID, userID)), nil
}

// loadAvg is the machine's load average, for the log beside the numbers.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
