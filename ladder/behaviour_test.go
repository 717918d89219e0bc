package ladder_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// play opens a 2v2, reports team 1's win and confirms it.
func play(t *testing.T, e *env, a, b, c, d string) ladder.Match {
	t.Helper()
	m := open2v2(t, e, a, b, c, d)
	if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: a}, guild, m.ID, ladder.Win); err != nil {
		t.Fatalf("Report() = %v", err)
	}
	r, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: c}, guild, m.ID)
	if err != nil {
		t.Fatalf("Confirm() = %v", err)
	}
	return r.Match
}

func flag(t *testing.T, e *env, from string, m ladder.Match, to, reason string) {
	t.Helper()
	if _, err := e.svc.FlagPlayer(e.ctx, ladder.Actor{UserID: from}, guild, m.ID, to, reason); err != nil {
		t.Fatalf("FlagPlayer(%s → %s, match %d) = %v", from, to, m.ID, err)
	}
}

func score(t *testing.T, e *env, u string) ladder.Behaviour {
	t.Helper()
	b, err := e.svc.Behaviour(e.ctx, guild, u)
	if err != nil {
		t.Fatalf("Behaviour(%s) = %v", u, err)
	}
	return b
}

// makeLow plays three matches in which four different players flag each
// of lo1 and lo2: 4 counted flags, a score of 60.
func makeLow(t *testing.T, e *env, lo1, lo2 string, others []string) {
	t.Helper()
	m := play(t, e, lo1, lo2, others[0], others[1])
	flag(t, e, others[0], m, lo1, "toxic")
	flag(t, e, others[1], m, lo2, "toxic")
	flag(t, e, lo1, m, lo2, "afk")
	flag(t, e, lo2, m, lo1, "afk")
	m = play(t, e, lo1, lo2, others[2], others[3])
	flag(t, e, others[2], m, lo1, "griefing")
	flag(t, e, others[3], m, lo2, "griefing")
	m = play(t, e, lo1, lo2, others[4], others[5])
	flag(t, e, others[4], m, lo1, "cheating")
	flag(t, e, others[5], m, lo2, "cheating")
	for _, u := range []string{lo1, lo2} {
		if b := score(t, e, u); b.Score != 60 || !b.Low() {
			t.Fatalf("Got(score of %s) = %v, want 60 (low)", u, b.Score)
		}
	}
}

func TestBehaviour(t *testing.T) {
	behaviours(t, []behaviour{
		{"flag rules", func(t *testing.T, e *env) {
			m := open2v2(t, e, users[0], users[1], users[2], users[3])
			a := ladder.Actor{UserID: users[0]}
			if _, err := e.svc.FlagPlayer(e.ctx, a, guild, m.ID, users[2], "toxic"); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("FlagPlayer(open match) = %v, want conflict", err)
			}
			m = mustConfirm(t, e, m)
			refusals := []struct {
				name         string
				actor        string
				target       string
				reason       string
				code         ladder.Code
				matchID      int64
				guildOfMatch string
			}{
				{"outsider", users[4], users[2], "toxic", ladder.CodeForbidden, m.ID, guild},
				{"self", users[0], users[0], "toxic", ladder.CodeInvalid, m.ID, guild},
				{"target not in match", users[0], users[4], "toxic", ladder.CodeInvalid, m.ID, guild},
				{"unknown reason", users[0], users[2], "rude words", ladder.CodeInvalid, m.ID, guild},
				{"no such match", users[0], users[2], "toxic", ladder.CodeNotFound, m.ID + 100, guild},
				{"other guild", users[0], users[2], "toxic", ladder.CodeNotFound, m.ID, "100000000000000099"},
			}
			for _, r := range refusals {
				if _, err := e.svc.FlagPlayer(e.ctx, ladder.Actor{UserID: r.actor}, r.guildOfMatch, r.matchID, r.target, r.reason); ladder.ErrorCode(err) != r.code {
					t.Errorf("FlagPlayer(%s) = %v, want %s", r.name, err, r.code)
				}
			}
			if n := count(t, e.db, "behaviour_flags"); n != 0 {
				t.Fatalf("Got(flags after refusals) = %d, want 0", n)
			}
			f, err := e.svc.FlagPlayer(e.ctx, a, guild, m.ID, users[2], " Toxic ")
			if err != nil || f.Reason != "toxic" || f.ToUser != users[2] || f.ID == 0 {
				t.Fatalf("FlagPlayer() = %+v, %v, want a stored toxic flag", f, err)
			}
			if _, err := e.svc.FlagPlayer(e.ctx, a, guild, m.ID, users[3], "afk"); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("FlagPlayer(second of the match) = %v, want conflict", err)
			}
			b := score(t, e, users[2])
			if b.Score != 90 || len(b.Flags) != 1 || !b.Flags[0].Counted || b.Flags[0].FromUser != users[0] {
				t.Errorf("Behaviour() = %+v, want 90 with one counted flag from %s", b, users[0])
			}
			if b := score(t, e, users[0]); b.Score != 100 || len(b.Flags) != 0 {
				t.Errorf("Behaviour(unflagged) = %+v, want 100", b)
			}
			// flags are for recent matches
			m2 := play(t, e, users[0], users[1], users[2], users[3])
			e.clock.Add(49 * time.Hour)
			if _, err := e.svc.FlagPlayer(e.ctx, a, guild, m2.ID, users[3], "afk"); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("FlagPlayer(49 h after) = %v, want conflict", err)
			}
			if n := count(t, e.db, "behaviour_flags"); n != 1 {
				t.Errorf("Got(flags) = %d, want 1", n)
			}
		}},
		{"once per target per week, and decay", func(t *testing.T, e *env) {
			m1 := play(t, e, users[0], users[1], users[2], users[3])
			flag(t, e, users[2], m1, users[0], "toxic")
			e.clock.Add(24 * time.Hour)
			m2 := play(t, e, users[0], users[1], users[2], users[3])
			flag(t, e, users[2], m2, users[0], "toxic") // a repeat inside the week
			flag(t, e, users[3], m2, users[0], "afk")   // another player: counts
			b := score(t, e, users[0])
			if len(b.Flags) != 3 || b.Flags[1].Counted || !b.Flags[0].Counted || !b.Flags[2].Counted {
				t.Fatalf("Got(flags) = %+v, want 3, the middle one a repeat", b.Flags)
			}
			// two counted flags: one a day old (10·2^(−1/14)), one new
			want := 100 - 10*math.Exp2(-1.0/14) - 10
			if !near(b.Score, want, 1e-9) {
				t.Errorf("Got(score) = %v, want %v", b.Score, want)
			}
			// a week after the first, the same player's flag counts again
			e.clock.Add(6 * 24 * time.Hour)
			m3 := play(t, e, users[0], users[1], users[2], users[3])
			flag(t, e, users[2], m3, users[0], "toxic")
			if b := score(t, e, users[0]); len(b.Flags) != 4 || !b.Flags[0].Counted {
				t.Errorf("Got(flag a week later) = %+v, want counted", b.Flags)
			}
			// after the window every penalty is gone
			e.clock.Add(ladder.BehaviourWindow + time.Hour)
			if b := score(t, e, users[0]); b.Score != 100 || len(b.Flags) != 0 {
				t.Errorf("Got(score after the window) = %+v, want 100 and no flags", b)
			}
		}},
		{"low scores matched together when the queue is deep", func(t *testing.T, e *env) {
			lowPairing(t, e, 8, true)
		}},
		{"pairing off matches everyone together", func(t *testing.T, e *env) {
			lowPairing(t, e, 0, false)
		}},
		{"pairing waits for the depth", func(t *testing.T, e *env) {
			lowPairing(t, e, 12, false)
		}},
	})
}

// mustConfirm reports and confirms an open match.
func mustConfirm(t *testing.T, e *env, m ladder.Match) ladder.Match {
	t.Helper()
	if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: m.Teams[0][0]}, guild, m.ID, ladder.Win); err != nil {
		t.Fatal(err)
	}
	r, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: m.Teams[1][0]}, guild, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	return r.Match
}

// lowPairing queues two low-score players and six others with matching
// held back, then lets the queue match with behaviour_pairing = pairing:
// apart, the six form one match and the two low players wait (two are not
// a 2v2); together, all eight play.
func lowPairing(t *testing.T, e *env, pairing int, apart bool) {
	others := []string{user(11), user(12), user(13), user(14), user(15), user(16)}
	low1, low2 := user(21), user(22)
	makeLow(t, e, low1, low2, others)
	qs, err := e.svc.Queues(e.ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	q := qs[0]
	q.QStart, q.QFloor = 1, 1 // nothing matches while they queue
	if q, err = e.svc.UpdateQueue(e.ctx, ladder.System, q); err != nil {
		t.Fatal(err)
	}
	for _, u := range append([]string{low1, low2}, others...) {
		res, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: u})
		if err != nil || len(res.Formed) != 0 {
			t.Fatalf("JoinQueue(%s) = %d formed, %v, want queued", u, len(res.Formed), err)
		}
	}
	q.QStart, q.QFloor, q.BehaviourPairing = 0, 0, pairing
	if q, err = e.svc.UpdateQueue(e.ctx, ladder.System, q); err != nil {
		t.Fatal(err)
	}
	fs, err := e.svc.Matchmake(e.ctx, q.ID)
	if err != nil {
		t.Fatal(err)
	}
	var played []string
	for _, f := range fs {
		played = append(played, f.Match.Players()...)
	}
	lowPlayed := slices.Contains(played, low1) || slices.Contains(played, low2)
	switch {
	case apart && (len(fs) != 1 || lowPlayed):
		t.Errorf("Got(matches) = %d, low players in one: %v, want 1 without them", len(fs), lowPlayed)
	case !apart && len(fs) != 2:
		t.Errorf("Got(matches) = %d, want 2 (everyone together)", len(fs))
	}
}
