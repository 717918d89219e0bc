package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// backend makes fresh empty databases of one dialect: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set (STYLE: no mocked databases).
type backend struct {
	name string
	dsn  func(t testing.TB) string
}

func backends() []backend {
	return []backend{
		{"sqlite", func(t testing.TB) string { return testdb.DSN(t, testdb.SQLite) }},
		{"postgres", pgDSN},
	}
}

// pgDSN returns a fresh PostgreSQL schema of TEST_DATABASE_URL (testdb).
func pgDSN(t testing.TB) string { return testdb.DSN(t, testdb.Postgres) }

// each runs fn on every backend as <test>/<backend>.
func each(t *testing.T, fn func(t *testing.T, b backend)) {
	for _, b := range backends() {
		t.Run(b.name, func(t *testing.T) { fn(t, b) })
	}
}

// poster records what the jobs post.
type poster struct {
	mu        sync.Mutex
	standings []posted
	tops      []ladder.LeaderboardPage
	notices   []notice
	matches   []announcement // see matchmake_test.go
}

type posted struct {
	channel string
	st      ladder.SeasonStandings
}

type notice struct {
	channel string
	users   []string
	text    string
}

func (p *poster) PostStandings(_ context.Context, channelID string, st ladder.SeasonStandings) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.standings = append(p.standings, posted{channelID, st})
	return nil
}

func (p *poster) PostTop(_ context.Context, channelID string, page ladder.LeaderboardPage) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if channelID != announce {
		return fmt.Errorf("weekly top posted to %s, want %s", channelID, announce)
	}
	p.tops = append(p.tops, page)
	return nil
}

func (p *poster) topPages() []ladder.LeaderboardPage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.tops)
}

func (p *poster) Notify(_ context.Context, channelID string, userIDs []string, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.notices = append(p.notices, notice{channelID, slices.Clone(userIDs), text})
	return nil
}

func (p *poster) posts() []posted {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.standings)
}

func (p *poster) notes() []notice {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.notices)
}

// proc is one process: its own storage handle, service and scheduler.
type proc struct {
	db    *storage.DB
	svc   *ladder.Service
	sched *jobs.Scheduler
}

func newProc(t testing.TB, dsn string, c ladder.Clock, p jobs.Poster) *proc {
	t.Helper()
	db, err := storage.Open(context.Background(), dsn, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("storage.Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, c)
	return &proc{db: db, svc: svc, sched: jobs.New(svc, p, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond})}
}

const (
	guild    = "100000000000000001"
	channel  = "200000000000000001"
	announce = "200000000000000002"
	mod      = "300000000000000001"
)

var moderator = ladder.Actor{UserID: mod, Moderator: true}

func user(i int) string { return fmt.Sprintf("4000000000000%05d", i) }

// setupGuild creates the guild with the given placement games and the
// announcement channel set.
func setupGuild(t *testing.T, svc *ladder.Service, placement int) ladder.Guild {
	t.Helper()
	ctx := context.Background()
	g, err := svc.EnsureGuild(ctx, guild)
	if err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	g.PlacementGames = placement
	g.AnnounceChannelID = announce
	if g, err = svc.UpdateGuild(ctx, moderator, g); err != nil {
		t.Fatalf("UpdateGuild() = %v", err)
	}
	return g
}

// record records a confirmed 2v2 result at the clock's time.
func record(t *testing.T, svc *ladder.Service, a, b, c, d string, winner int) ladder.MatchResult {
	t.Helper()
	r, err := svc.RecordResult(context.Background(), ladder.ResultInput{
		GuildID: guild, Team1: []string{a, b}, Team2: []string{c, d}, Winner: winner,
		Names: map[string]string{a: "p" + a[len(a)-3:], b: "p" + b[len(b)-3:], c: "p" + c[len(c)-3:], d: "p" + d[len(d)-3:]},
	})
	if err != nil {
		t.Fatalf("RecordResult(%s %s vs %s %s) = %v", a, b, c, d, err)
	}
	return r
}

func standing(t *testing.T, svc *ladder.Service, userID string) ladder.Standing {
	t.Helper()
	ss, err := svc.CurrentStandings(context.Background(), guild, "", []string{userID})
	if err != nil || len(ss) != 1 {
		t.Fatalf("CurrentStandings(%s) = %v, %v; want one row", userID, ss, err)
	}
	return ss[0]
}

func run(t *testing.T, p *proc, job string) bool {
	t.Helper()
	ran, err := p.sched.Run(context.Background(), job)
	if err != nil {
		t.Fatalf("Run(%s) = %v", job, err)
	}
	return ran
}

// playRounds plays rounds of 2v2 matches among players (a multiple of 4)
// with shuffled teams; the lower-numbered side mostly wins, so ratings
// spread. Enough rounds bring every RD under 100 (out of placement).
func playRounds(t *testing.T, svc *ladder.Service, players []string, rounds int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	skill := map[string]int{}
	for i, p := range players {
		skill[p] = len(players) - i
	}
	for range rounds {
		ps := slices.Clone(players)
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		for i := 0; i+3 < len(ps); i += 4 {
			s1, s2 := skill[ps[i]]+skill[ps[i+1]], skill[ps[i+2]]+skill[ps[i+3]]
			winner := 1
			if s2 > s1 || (s1 == s2 && rng.IntN(2) == 0) || rng.IntN(10) == 0 {
				winner = 2
			}
			record(t, svc, ps[i], ps[i+1], ps[i+2], ps[i+3], winner)
		}
	}
}

func users(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, user(i))
	}
	return out
}
