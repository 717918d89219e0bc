package ladder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestLobbySettings(t *testing.T) {
	cases := []struct {
		name string
		edit func(*ladder.Lobby)
		bad  string
	}{
		{"defaults", func(*ladder.Lobby) {}, ""},
		{"ready check off", func(l *ladder.Lobby) { l.ReadyWindow = 0 }, ""},
		{"ready window too short", func(l *ladder.Lobby) { l.ReadyWindow = 5 * time.Second }, "at least 10 seconds"},
		{"ready window too long", func(l *ladder.Lobby) { l.ReadyWindow = 2 * time.Hour }, "ready_window"},
		{"no cooldowns", func(l *ladder.Lobby) { l.Cooldowns = nil }, "cooldowns"},
		{"negative cooldown", func(l *ladder.Lobby) { l.Cooldowns = []time.Duration{-time.Minute} }, "each cooldown"},
		{"abandon too soon", func(l *ladder.Lobby) { l.AbandonAfter = time.Minute }, "abandon_after"},
		{"cancel share 1", func(l *ladder.Lobby) { l.CancelShare = 1 }, "share"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := ladder.DefaultLobby(1)
			c.edit(&l)
			err := l.Validate()
			if c.bad == "" && err != nil || c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
				t.Errorf("Got(Validate()) = %v, want %q", err, c.bad)
			}
		})
	}
}

func TestParseCooldowns(t *testing.T) {
	ds, err := ladder.ParseCooldowns(" 5m, 30m,2h ")
	if err != nil || len(ds) != 3 || ds[0] != 5*time.Minute || ds[2] != 2*time.Hour {
		t.Fatalf("Got(ParseCooldowns) = %v, %v, want [5m 30m 2h]", ds, err)
	}
	if got := ladder.FormatCooldowns(ds); got != "5m,30m,2h" {
		t.Errorf("Got(FormatCooldowns) = %q, want 5m,30m,2h", got)
	}
	if _, err := ladder.ParseCooldowns("5m,soon"); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(ParseCooldowns(5m,soon)) = %v, want CodeInvalid", err)
	}
}

func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{5 * time.Minute, "5 min"}, {270 * time.Second, "4 min 30 s"}, {45 * time.Second, "45 s"},
		{65 * time.Minute, "1 h 5 min"}, {2 * time.Hour, "2 h"}, {0, "1 s"}, {400 * time.Millisecond, "1 s"},
	} {
		if got := ladder.TimeLeft(c.d).String(); got != c.want {
			t.Errorf("Got(TimeLeft(%s)) = %q, want %q", c.d, got, c.want)
		}
	}
}

// formReady opens a match with a ready check for the four first users,
// two of them as a party, and returns it.
func formReady(t *testing.T, e *env) ladder.Match {
	t.Helper()
	if _, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: users[0], PartnerID: users[1]}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.AcceptParty(e.ctx, guild, users[1], "", nil); err != nil {
		t.Fatal(err)
	}
	var formed []ladder.FormedMatch
	for _, u := range users[2:4] {
		e.clock.Add(time.Second)
		res, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, UserID: u})
		if err != nil {
			t.Fatal(err)
		}
		formed = append(formed, res.Formed...)
	}
	if len(formed) != 1 || formed[0].Ready.State != ladder.ReadyPending || len(formed[0].Ready.Seats) != 4 {
		t.Fatalf("Got(formed) = %+v, want one match with a pending ready check of 4", formed)
	}
	return formed[0].Match
}

func TestLobby(t *testing.T) {
	behaviours(t, []behaviour{
		{"cooldowns escalate within 24 h and reset after", func(t *testing.T, e *env) {
			want := []time.Duration{5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 2 * time.Hour}
			for i, d := range want {
				m := formReady(t, e)
				res, err := e.svc.Ready(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, false)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Penalised) != 1 || res.Penalised[0].Until.Sub(res.Penalised[0].CreatedAt) != d {
					t.Fatalf("penalty %d: Got(penalised) = %+v, want one of %s", i+1, res.Penalised, d)
				}
				// The party stays one ticket, with its original join time.
				var party ladder.Ticket
				for _, tk := range res.Requeued {
					if len(tk.UserIDs) == 2 {
						party = tk
					}
				}
				if len(res.Requeued) != 2 || party.ID == 0 {
					t.Fatalf("Got(requeued) = %+v, want the party and the solo player", res.Requeued)
				}
				for _, u := range users[:3] {
					if _, _, err := e.svc.LeaveQueue(e.ctx, guild, u); err != nil {
						t.Fatal(err)
					}
				}
				e.clock.Add(3 * time.Hour) // past the longest cooldown, within 24 h
			}
			e.clock.Add(25 * time.Hour)
			m := formReady(t, e)
			res, err := e.svc.Ready(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, false)
			if err != nil || len(res.Penalised) != 1 || res.Penalised[0].Until.Sub(res.Penalised[0].CreatedAt) != 5*time.Minute {
				t.Errorf("Got(penalty after a quiet day) = %+v, %v, want 5 min again", res.Penalised, err)
			}
		}},
		{"the optional rating penalty is a logged adjustment that verify keeps", func(t *testing.T, e *env) {
			q, l, err := e.svc.Lobby(e.ctx, guild, "")
			if err != nil {
				t.Fatal(err)
			}
			l.RatingPenalty = 20
			if _, err := e.svc.UpdateLobby(e.ctx, mod, guild, l); err != nil {
				t.Fatal(err)
			}
			m := formReady(t, e)
			if _, err := e.svc.Ready(e.ctx, ladder.Actor{UserID: users[3]}, guild, m.ID, false); err != nil {
				t.Fatal(err)
			}
			st, err := e.svc.CurrentStandings(e.ctx, guild, q.Name, []string{users[3]})
			if err != nil || len(st) != 1 || !near(st[0].Rating, 1480, 1e-9) {
				t.Fatalf("Got(standing after the penalty) = %+v, %v, want rating 1480", st, err)
			}
			if n := count(t, e.db, "rating_changes"); n != 1 {
				t.Errorf("Got(rating log rows) = %d, want the one adjustment", n)
			}
			es, err := e.svc.Audit(e.ctx, guild, 50)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, a := range es {
				found = found || a.Action == "penalty.rating" && a.Target == users[3]
			}
			if !found {
				t.Errorf("Got(audit) = %+v, want a penalty.rating entry for %s", es, users[3])
			}
			mustVerify(t, e)
		}},
		{"a match voided during its ready check stays voided: the check ends without cancel, requeue or cooldown", func(t *testing.T, e *env) {
			m := formReady(t, e)
			if _, err := e.svc.Ready(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, true); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Void(e.ctx, mod, guild, m.ID, "test"); err != nil {
				t.Fatalf("Void() = %v", err)
			}
			// A late click, Ready or Not ready, changes nothing.
			for _, ready := range []bool{true, false} {
				_, err := e.svc.Ready(e.ctx, ladder.Actor{UserID: users[2]}, guild, m.ID, ready)
				if ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(err.Error(), "voided") {
					t.Errorf("Got(Ready(%v) after the void) = %v, want CodeConflict naming the void", ready, err)
				}
			}
			// The deadline passes: the job ends the check and leaves the match alone.
			e.clock.Add(10 * time.Minute)
			for range 2 {
				res, err := e.svc.ExpireReadyChecks(e.ctx)
				if err != nil || len(res) != 0 {
					t.Errorf("Got(ExpireReadyChecks) = %+v, %v, want nothing to announce", res, err)
				}
			}
			if got, err := e.svc.Match(e.ctx, guild, m.ID); err != nil || got.State != ladder.StateVoided {
				t.Errorf("Got(state) = %s, %v, want voided", got.State, err)
			}
			if rc, err := e.svc.ReadyCheck(e.ctx, guild, m.ID); err != nil || rc.State == ladder.ReadyPending {
				t.Errorf("Got(ready check) = %s, %v, want it ended", rc.State, err)
			}
			for _, u := range m.Players() {
				st, err := e.svc.QueueStatus(e.ctx, guild, u)
				if err != nil || st.Ticket.ID != 0 {
					t.Errorf("Got(QueueStatus(%s)) = %+v, %v, want not queued again", u, st.Ticket, err)
				}
			}
			if n := count(t, e.db, "queue_cooldowns"); n != 0 {
				t.Errorf("Got(cooldowns) = %d, want none: nobody missed a check a moderator ended", n)
			}
			mustVerify(t, e)
		}},
		{"a match in its ready check cannot be reported and the check refuses strangers", func(t *testing.T, e *env) {
			m := formReady(t, e)
			_, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID, ladder.Win)
			if ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Got(report in ready check) = %v, want CodeConflict", err)
			}
			_, err = e.svc.Ready(e.ctx, ladder.Actor{UserID: users[5]}, guild, m.ID, true)
			if ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Got(stranger ready) = %v, want CodeForbidden", err)
			}
			if _, err := e.svc.UpdateLobby(e.ctx, ladder.Actor{UserID: users[0]}, guild, ladder.DefaultLobby(m.QueueID)); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Got(player changes the lobby) = %v, want CodeForbidden", err)
			}
		}},
	})
}
