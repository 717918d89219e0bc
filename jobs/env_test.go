package jobs_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// each runs fn on every backend as <test>/<backend>: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set (STYLE: no mocked databases);
// fn makes its databases with testdb.DSN.
func each(t *testing.T, fn func(t *testing.T, b string)) { testdb.ForEach(t, fn) }

// sent is one message the jobs posted.
type sent struct {
	channel string
	msg     commands.Reply
}

// poster records what the jobs post. The jobs render every message with
// package commands, so the tests sort the messages by what they render
// and compare them with the rendering of what the database holds.
type poster struct {
	mu   sync.Mutex
	msgs []sent
}

// Post implements jobs.Poster. A weekly top outside the announcement
// channel fails the post, so the weekly test sees it as a job error.
func (p *poster) Post(_ context.Context, channelID string, msg commands.Reply) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if isWeeklyTop(msg) && channelID != announce {
		return "", fmt.Errorf("weekly top posted to %s, want %s", channelID, announce)
	}
	p.msgs = append(p.msgs, sent{channelID, msg})
	if msg.Edit != "" {
		return msg.Edit, nil
	}
	return fmt.Sprint(800000000000000000 + len(p.msgs)), nil
}

// matching returns the posted messages keep accepts, in posting order.
func (p *poster) matching(keep func(commands.Reply) bool) []sent {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []sent
	for _, m := range p.msgs {
		if keep(m.msg) {
			out = append(out, m)
		}
	}
	return out
}

func firstTitle(msg commands.Reply) string {
	if len(msg.Embeds) == 0 {
		return ""
	}
	return msg.Embeds[0].Title
}

func isWeeklyTop(msg commands.Reply) bool { return strings.HasPrefix(firstTitle(msg), "Weekly top ") }

// posts are the season standings posted.
func (p *poster) posts() []sent {
	return p.matching(func(m commands.Reply) bool { return strings.Contains(firstTitle(m), " final standings · ") })
}

// tops are the weekly tops posted.
func (p *poster) tops() []sent { return p.matching(isWeeklyTop) }

// notes are the plain-text notices posted (auto-confirms, queue timeouts).
func (p *poster) notes() []sent {
	return p.matching(func(m commands.Reply) bool { return len(m.Embeds) == 0 && len(m.Buttons) == 0 })
}

// announced are the formed matches' announcements posted: the messages
// with report buttons.
func (p *poster) announced() []sent {
	return p.matching(func(m commands.Reply) bool { return len(m.Buttons) > 0 })
}

// announcedMatch returns the ID of the match an announcement is about, as
// its buttons carry it.
func announcedMatch(t testing.TB, a sent) int64 {
	t.Helper()
	id, err := commands.ParseCustomID(a.msg.Buttons[0][0].CustomID)
	if err != nil {
		t.Fatalf("ParseCustomID(%q) = %v", a.msg.Buttons[0][0].CustomID, err)
	}
	return id.ID
}

// finalStandings renders the standings of season number of the guild's one
// queue as the seasons job must post them.
func finalStandings(t testing.TB, svc *ladder.Service, number int) commands.Reply {
	t.Helper()
	sts, err := svc.SeasonStandingsOf(context.Background(), guild, number)
	if err != nil || len(sts) != 1 {
		t.Fatalf("SeasonStandingsOf(%d) = %d queues, %v; want 1", number, len(sts), err)
	}
	return commands.FinalStandings(i18n.English(), sts[0])
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
	setReadyWindow(t, svc, 0) // the ready check has its own tests (lobby_test.go)
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
