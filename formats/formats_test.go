package formats_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m, "formats")) }

const guild = "100000000000000007"

func user(i int) string { return fmt.Sprintf("71000000000000%04d", i) }

var admin = ladder.Actor{UserID: "90000000000000001", Moderator: true}

type env struct {
	ctx   context.Context
	clock *ladder.ManualClock
	svc   *ladder.Service
	fm    *formats.Service
	queue ladder.Queue
	db    *storage.DB
}

// newEnv is a guild whose default 2v2 queue has a pool of maps and picks
// by mode, on backend b with a manual clock.
func newEnv(t *testing.T, b string, mode formats.Mode, pool ...string) env {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, testdb.DSN(t, b), nil)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	clock := ladder.NewManualClock(time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC))
	svc := ladder.NewService(db, clock)
	if _, err := svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	qs, err := svc.Queues(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	e := env{ctx: ctx, clock: clock, svc: svc, fm: formats.New(db, svc), queue: qs[0], db: db}
	for _, name := range pool {
		if _, err := e.fm.AddMap(ctx, admin, e.queue, formats.Map{Name: name}); err != nil {
			t.Fatalf("AddMap(%s) = %v", name, err)
		}
	}
	st := formats.DefaultSettings(e.queue.ID)
	st.MapPick = mode
	if err := e.fm.SaveSettings(ctx, admin, e.queue, st); err != nil {
		t.Fatal(err)
	}
	return e
}

// open forms a match of users 1+2 against 3+4.
func (e env) open(t *testing.T) ladder.Match {
	t.Helper()
	m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: e.queue.ID,
		Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (e env) audits(t *testing.T, action string) []ladder.AuditEntry {
	t.Helper()
	es, err := e.svc.Audit(e.ctx, guild, 200)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(es, func(a ladder.AuditEntry) bool { return a.Action != action })
}

func TestMapVoteTie(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeVote, "Dust", "Mirage", "Nuke")
		m := e.open(t)
		res, err := e.fm.Start(e.ctx, m)
		if err != nil || res.Pick.State != formats.StatePicking || res.Pick.Mode != formats.ModeVote {
			t.Fatalf("Start = %+v, %v, want a running vote", res.Pick, err)
		}
		again, err := e.fm.Start(e.ctx, m)
		if err != nil || !again.AlreadyDone {
			t.Errorf("Start again = %+v, %v, want already done", again, err)
		}
		vote := func(u int, name string) formats.Result {
			t.Helper()
			r, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(u)}, guild, m.ID, 1, name)
			if err != nil {
				t.Fatalf("Vote(%d, %s) = %v", u, name, err)
			}
			return r
		}
		// Refused: an outsider, a map not in the pool, another guild.
		if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(9)}, guild, m.ID, 1, "Dust"); ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("Got(outsider vote) = %v, want forbidden", err)
		}
		if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, 1, "Inferno"); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(vote for a map not in the pool) = %v, want invalid", err)
		}
		if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(1)}, "100000000000000006", m.ID, 1, "Dust"); ladder.ErrorCode(err) != ladder.CodeNotFound {
			t.Errorf("Got(vote through another guild) = %v, want not found", err)
		}
		vote(1, "Nuke")
		vote(1, "Dust") // a changed mind counts once
		if r := vote(1, "Dust"); !r.AlreadyDone {
			t.Errorf("Got(same vote twice) AlreadyDone = false, want true")
		}
		vote(2, "Dust")
		vote(3, "Mirage")
		// 2–2 between Dust and Mirage once the last player votes: the
		// vote closes and the seed settles the tie.
		r := vote(4, "Mirage")
		if !r.Chosen || r.Pick.State != formats.StateDone {
			t.Fatalf("Got(last vote) = %+v, want the vote closed", r)
		}
		if r.Pick.Chosen != "Dust" && r.Pick.Chosen != "Mirage" {
			t.Errorf("Got(chosen) = %q, want Dust or Mirage (the tied maps)", r.Pick.Chosen)
		}
		stored, err := e.fm.Pick(e.ctx, guild, m.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if won, tied := stored.Tally(); won != r.Pick.Chosen || !slices.Equal(tied, []string{"Dust", "Mirage"}) {
			t.Errorf("Got(tally of the stored votes and seed) = %s, %v, want %s, [Dust Mirage]", won, tied, r.Pick.Chosen)
		}
		if got, _ := e.svc.Match(e.ctx, guild, m.ID); got.Map != r.Pick.Chosen {
			t.Errorf("Got(match map) = %q, want %q", got.Map, r.Pick.Chosen)
		}
		chosen := e.audits(t, "maps.chosen")
		if len(chosen) != 1 {
			t.Fatalf("Got(maps.chosen audits) = %d, want 1", len(chosen))
		}
		var after struct {
			Map  string
			Seed int64
			Tied []string
		}
		if err := json.Unmarshal([]byte(chosen[0].After), &after); err != nil || after.Seed != stored.Seed || len(after.Tied) != 2 || after.Map != r.Pick.Chosen {
			t.Errorf("Got(audit) = %s, %v, want the map, the seed %d and the tied maps", chosen[0].After, err, stored.Seed)
		}
		if r := vote(1, "Nuke"); !r.AlreadyDone || r.Pick.Chosen != after.Map {
			t.Errorf("Got(vote after close) = %+v, want already done", r)
		}
	})
}

// TestMapVoteTieSeeds shows the seed, not the order of votes, settles a
// tie: over many seeds both tied maps win.
func TestMapVoteTieSeeds(t *testing.T) {
	won := map[string]int{}
	for seed := range int64(200) {
		p := formats.Pick{Game: 1, Seed: seed, Pool: []string{"A", "B", "C"},
			Votes: []formats.Vote{{UserID: "1", Map: "A"}, {UserID: "2", Map: "C"}}}
		w, tied := p.Tally()
		if !slices.Equal(tied, []string{"A", "C"}) {
			t.Fatalf("Got(tied) = %v, want [A C]", tied)
		}
		if w2, _ := p.Tally(); w2 != w {
			t.Fatalf("Got(tally twice) = %s then %s, want the same", w, w2)
		}
		won[w]++
	}
	if won["A"] < 60 || won["C"] < 60 || won["B"] != 0 {
		t.Errorf("Got(winners over 200 seeds) = %v, want A and C about even and never B", won)
	}
}

func TestMapVoteDeadline(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeVote, "Dust", "Mirage", "Nuke")
		m := e.open(t)
		if _, err := e.fm.Start(e.ctx, m); err != nil {
			t.Fatal(err)
		}
		if _, err := e.fm.Vote(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, 1, "Nuke"); err != nil {
			t.Fatal(err)
		}
		if rs, err := e.fm.Expire(e.ctx); err != nil || len(rs) != 0 {
			t.Errorf("Expire before the deadline = %d, %v, want nothing", len(rs), err)
		}
		e.clock.Add(61 * time.Second)
		rs, err := e.fm.Expire(e.ctx)
		if err != nil || len(rs) != 1 || rs[0].Pick.Chosen != "Nuke" || !rs[0].TimedOut {
			t.Fatalf("Expire after the deadline = %+v, %v, want Nuke by one vote", rs, err)
		}
		if rs, err := e.fm.Expire(e.ctx); err != nil || len(rs) != 0 {
			t.Errorf("Expire again = %d, %v, want nothing", len(rs), err)
		}
	})
}

func TestMapBanSequence(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeBan, "Dust", "Mirage", "Nuke", "Inferno", "Train")
		// Rated so that user 2 is team 1's best and user 4 team 2's.
		for i, r := range []float64{1500, 1600, 1450, 1550} {
			if _, err := e.svc.SetRating(e.ctx, admin, guild, "", user(i+1), r, 60, "test"); err != nil {
				t.Fatal(err)
			}
		}
		m := e.open(t)
		res, err := e.fm.Start(e.ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if want := [2]string{user(2), user(4)}; res.Pick.Banners != want {
			t.Fatalf("Got(banners) = %v, want %v (each team's highest rated)", res.Pick.Banners, want)
		}
		ban := func(u, turn int, name string) (formats.Result, error) {
			return e.fm.Ban(e.ctx, ladder.Actor{UserID: user(u)}, guild, m.ID, 1, turn, name)
		}
		if _, err := ban(4, 0, "Dust"); err == nil || !strings.Contains(err.Error(), "not yours") {
			t.Errorf("Got(team 2 bans first) = %v, want refused: team 1 bans first", err)
		}
		if _, err := ban(1, 0, "Dust"); err == nil || !strings.Contains(err.Error(), "only") {
			t.Errorf("Got(a non-banner bans) = %v, want refused", err)
		}
		if _, err := ban(2, 0, "Dust"); err != nil {
			t.Fatal(err)
		}
		if r, err := ban(2, 0, "Nuke"); err != nil || !r.AlreadyDone {
			t.Errorf("Got(stale ban menu) = %+v, %v, want already done", r, err)
		}
		if _, err := ban(4, 1, "Dust"); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(ban a banned map) = %v, want invalid", err)
		}
		if _, err := ban(4, 1, "Train"); err != nil {
			t.Fatal(err)
		}
		// Team 1's banner lets the time run out: the seed bans for them.
		e.clock.Add(2 * time.Minute)
		rs, err := e.fm.Expire(e.ctx)
		if err != nil || len(rs) != 1 || len(rs[0].Banned) != 1 || !rs[0].Banned[0].Auto || rs[0].Banned[0].Team != 1 {
			t.Fatalf("Expire = %+v, %v, want one automatic ban for team 1", rs, err)
		}
		left := rs[0].Pick.Left()
		if len(left) != 2 {
			t.Fatalf("Got(left) = %v, want 2 maps", left)
		}
		last, err := ban(4, 3, left[0])
		if err != nil || !last.Chosen || last.Pick.Chosen != left[1] || last.Match.Map != left[1] {
			t.Fatalf("Got(last ban) = %+v, %v, want %s chosen", last, err, left[1])
		}
		if n := len(e.audits(t, "maps.ban")); n != 4 {
			t.Errorf("Got(maps.ban audits) = %d, want 4", n)
		}
		stored, err := e.fm.Pick(e.ctx, guild, m.ID, 1)
		if err != nil || len(stored.Bans) != 4 || stored.Chosen != left[1] {
			t.Errorf("Got(stored pick) = %+v, %v, want 4 bans and %s", stored, err, left[1])
		}
	})
}

func TestMapRandomAndPool(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeRandom, "Dust", "Mirage")
		if _, err := e.fm.AddMap(e.ctx, admin, e.queue, formats.Map{Name: "Dust"}); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("Got(add a map twice) = %v, want conflict", err)
		}
		// The pool's own rule, whichever surface adds to it: an image is
		// an https URL of text, a name is text (ladder.CheckText).
		for _, bad := range []formats.Map{{Name: "Vertigo", ImageURL: "javascript:alert(1)"}, {Name: "Vertigo", ImageURL: "https://img.example/\x00.png"},
			{Name: "Vertigo", ImageURL: "https://img.example/\u202egnp.png"}, {Name: "Ver\x00tigo"}, {Name: "Vertigo\u202e"}, {Name: "\x1b[31mVertigo"}} {
			if _, err := e.fm.AddMap(e.ctx, admin, e.queue, bad); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("Got(add map %q with image %q) = %v, want invalid", bad.Name, bad.ImageURL, err)
			}
		}
		for i := range formats.MaxMaps - 2 {
			if _, err := e.fm.AddMap(e.ctx, admin, e.queue, formats.Map{Name: fmt.Sprintf("m%02d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := e.fm.AddMap(e.ctx, admin, e.queue, formats.Map{Name: "one too many"}); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(a 26th map) = %v, want invalid", err)
		}
		if _, err := e.fm.RemoveMap(e.ctx, admin, e.queue, "nope"); ladder.ErrorCode(err) != ladder.CodeNotFound {
			t.Errorf("Got(remove a missing map) = %v, want not found", err)
		}
		m := e.open(t)
		res, err := e.fm.Start(e.ctx, m)
		if err != nil || !res.Chosen || res.Pick.Chosen != res.Pick.Draw() || res.Match.Map != res.Pick.Chosen {
			t.Fatalf("Start(random) = %+v, %v, want a map drawn by the seed", res, err)
		}
	})
}

func TestNoPickByDefault(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b, formats.ModeNone, "Dust")
		res, err := e.fm.Start(e.ctx, e.open(t))
		if err != nil || res.Pick.MatchID != 0 || res.Match.Map != "" {
			t.Errorf("Start(map_pick none) = %+v, %v, want no pick", res, err)
		}
	})
}
