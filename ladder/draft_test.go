package ladder_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestPickTurn(t *testing.T) {
	var got []int
	for n := range 8 {
		got = append(got, ladder.PickTurn(n))
	}
	// 1-2-2-1 from the weaker captain (team 2): 2, 1 1, 2 2, 1 1, 2.
	if want := []int{2, 1, 1, 2, 2, 1, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("Got(PickTurn(0..7)) = %v, want %v", got, want)
	}
	// Every even pool splits evenly between the two teams.
	for pool := 2; pool <= 14; pool += 2 {
		var per [3]int
		for n := range pool {
			per[ladder.PickTurn(n)]++
		}
		if per[1] != per[2] {
			t.Errorf("pool of %d: Got(picks per team) = %d and %d, want equal", pool, per[1], per[2])
		}
	}
}

func TestPickModeSettings(t *testing.T) {
	l := ladder.DefaultLobby(1)
	if l.PickMode != ladder.PickBalanced || l.PickWindow != time.Minute {
		t.Errorf("Got(defaults) = %s, %s, want balanced, 1m", l.PickMode, l.PickWindow)
	}
	for _, c := range []struct {
		edit func(*ladder.Lobby)
		bad  string
	}{
		{func(l *ladder.Lobby) { l.PickMode = ladder.PickCaptains }, ""},
		{func(l *ladder.Lobby) { l.PickMode = "random" }, "pick_mode"},
		{func(l *ladder.Lobby) { l.PickWindow = 5 * time.Second }, "pick_window"},
		{func(l *ladder.Lobby) { l.PickWindow = time.Hour }, "pick_window"},
	} {
		l := ladder.DefaultLobby(1)
		c.edit(&l)
		err := l.Validate()
		if c.bad == "" && err != nil || c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("Got(Validate(%+v)) = %v, want %q", l, err, c.bad)
		}
	}
	if _, err := ladder.ParsePickMode("draft"); ladder.ErrorCode(err) != ladder.CodeInvalid {
		t.Errorf("Got(ParsePickMode(draft)) = %v, want CodeInvalid", err)
	}
}

// captains3v3 makes a 3v3 queue picked by captains (ready window as
// given) with users[0..5] rated 1500, 1510, … 1550, and forms its match.
func captains3v3(t *testing.T, e *env, ready time.Duration) ladder.FormedMatch {
	t.Helper()
	if _, err := e.svc.CreateQueue(e.ctx, mod, ladder.NewQueue(guild, "3v3", 3)); err != nil {
		t.Fatal(err)
	}
	q, l, err := e.svc.Lobby(e.ctx, guild, "3v3")
	if err != nil {
		t.Fatal(err)
	}
	l.PickMode, l.ReadyWindow, l.PickWindow = ladder.PickCaptains, ready, 45*time.Second
	if _, err := e.svc.UpdateLobby(e.ctx, mod, guild, l); err != nil {
		t.Fatal(err)
	}
	for i, u := range users {
		if _, err := e.svc.SetRating(e.ctx, mod, guild, q.Name, u, 1500+10*float64(i), 60, "test"); err != nil {
			t.Fatal(err)
		}
	}
	var formed []ladder.FormedMatch
	for _, u := range users {
		e.clock.Add(time.Second)
		res, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, Queue: q.Name, UserID: u})
		if err != nil {
			t.Fatal(err)
		}
		formed = append(formed, res.Formed...)
	}
	if len(formed) != 1 || formed[0].Draft.MatchID == 0 {
		t.Fatalf("Got(formed) = %+v, want one match with a draft", formed)
	}
	return formed[0]
}

func TestCaptainsDraft(t *testing.T) {
	behaviours(t, []behaviour{
		{"the two best rated captain; picks go 1-2-2-1 and the last is given", func(t *testing.T, e *env) {
			f := captains3v3(t, e, 0)
			d, m := f.Draft, f.Match
			if d.State != ladder.DraftPicking || d.Captain(1) != users[5] || d.Captain(2) != users[4] {
				t.Fatalf("Got(draft) = %s, captains %s and %s, want picking, %s and %s", d.State, d.Captain(1), d.Captain(2), users[5], users[4])
			}
			if got := d.Deadline.Sub(e.clock.Now()); got != 45*time.Second {
				t.Errorf("Got(first deadline in) = %s, want the 45 s pick window", got)
			}
			if pool := d.Pool(); len(pool) != 4 || pool[0].UserID != users[3] || pool[0].Rating != 1530 {
				t.Errorf("Got(pool) = %+v, want 4 players, %s (1530) first", pool, users[3])
			}
			// Nothing needs the teams until they are picked.
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, ladder.Win); err == nil || !strings.Contains(err.Error(), "still picking") {
				t.Errorf("Got(report while drafting) = %v, want 'still picking'", err)
			}
			if _, err := e.svc.RequestSub(e.ctx, ladder.Actor{UserID: users[0]}, guild, m.ID); err == nil || !strings.Contains(err.Error(), "still picking") {
				t.Errorf("Got(sub request while drafting) = %v, want 'still picking'", err)
			}
			if _, err := e.svc.RebalanceMatch(e.ctx, mod, guild, m.ID, true); err == nil || !strings.Contains(err.Error(), "still picking") {
				t.Errorf("Got(rebalance while drafting) = %v, want 'still picking'", err)
			}
			if _, err := e.svc.Resolve(e.ctx, mod, guild, m.ID, 1, "test"); err == nil || !strings.Contains(err.Error(), "still picking") {
				t.Errorf("Got(resolve while drafting) = %v, want 'still picking'", err)
			}
			refusals := []struct {
				who, pick string
				n         int
				code      ladder.Code
				want      string
			}{
				{users[0], users[1], 0, ladder.CodeForbidden, "only the captains pick"},
				{users[5], users[1], 0, ladder.CodeForbidden, fmt.Sprintf("it is <@%s>'s pick", users[4])},
				{users[4], users[5], 0, ladder.CodeInvalid, "already in team 1"},
				{users[4], "nobody", 0, ladder.CodeInvalid, "not available to pick"},
				{users[4], strings.Repeat("9", 500), 0, ladder.CodeInvalid, "that player is not available"},
				{users[4], "<@&1> @everyone", 0, ladder.CodeInvalid, "that player is not available"},
				{user(40), users[1], 0, ladder.CodeForbidden, "not a player"},
			}
			for _, r := range refusals {
				_, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: r.who}, guild, m.ID, r.n, r.pick)
				if ladder.ErrorCode(err) != r.code || !strings.Contains(err.Error(), r.want) {
					t.Errorf("Got(Pick by %s of %s) = %v, want %s %q", r.who, r.pick, err, r.code, r.want)
				}
			}
			// Webhook receivers hear of the match once its teams are known.
			if bodies := formedEvents(t, e); len(bodies) != 0 {
				t.Errorf("Got(match.formed before the draft ends) = %v, want none", bodies)
			}
			// Team 2's captain picks first; team 1's twice; then team 2
			// gets the last player without a choice.
			steps := []struct{ who, pick string }{{users[4], users[0]}, {users[5], users[3]}, {users[5], users[2]}}
			var res ladder.DraftResult
			for i, s := range steps {
				var err error
				res, err = e.svc.Pick(e.ctx, ladder.Actor{UserID: s.who}, guild, m.ID, i, s.pick)
				if err != nil || res.AlreadyDone {
					t.Fatalf("pick %d: Got(Pick) = %+v, %v", i+1, res, err)
				}
				again, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: s.who}, guild, m.ID, i, s.pick)
				if err != nil || !again.AlreadyDone {
					t.Errorf("pick %d twice: Got(Pick) = AlreadyDone %v, %v, want AlreadyDone", i+1, again.AlreadyDone, err)
				}
			}
			if len(res.Picked) != 2 || res.Picked[1].UserID != users[1] || !res.Picked[1].Auto || res.Draft.State != ladder.DraftDone {
				t.Fatalf("Got(last pick) = %+v, state %s, want %s given to team 2 and the draft done", res.Picked, res.Draft.State, users[1])
			}
			got, err := e.svc.Match(e.ctx, guild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := [2][]string{{users[5], users[3], users[2]}, {users[4], users[0], users[1]}}
			if !slices.Equal(got.Teams[0], want[0]) || !slices.Equal(got.Teams[1], want[1]) {
				t.Errorf("Got(teams) = %v, want %v", got.Teams, want)
			}
			if bodies := formedEvents(t, e); len(bodies) != 1 || !strings.Contains(bodies[0], fmt.Sprintf(`"team1":["%s","%s","%s"]`, want[0][0], want[0][1], want[0][2])) {
				t.Errorf("Got(match.formed after the draft) = %v, want one with the drafted team 1 %v", bodies, want[0])
			}
			// 1550+1530+1520 against 1540+1500+1510: team 1 the favourite.
			if !(got.PTeam1 > 0.5 && got.PTeam1 < 0.7) || got.PRaw == 0 {
				t.Errorf("Got(win chance) = %v (raw %v), want the drafted teams' chance, team 1 favoured", got.PTeam1, got.PRaw)
			}
			if n := auditCount(t, e, "draft.pick"); n != 4 {
				t.Errorf("Got(draft.pick entries) = %d, want 4", n)
			}
			// The match is on: reported and confirmed as any other, and
			// the drafted teams are the ones rated.
			if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, ladder.Win); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: users[5]}, guild, m.ID); err != nil {
				t.Fatal(err)
			}
			rated, _ := e.svc.Match(e.ctx, guild, m.ID)
			if rated.Winner != 2 {
				t.Errorf("Got(winner) = %d, want team 2 (users[4]'s)", rated.Winner)
			}
			mustVerify(t, e)
		}},
		{"the draft waits for the ready check, and a pick that runs out is the best rated left", func(t *testing.T, e *env) {
			f := captains3v3(t, e, 2*time.Minute)
			m := f.Match
			if f.Draft.State != ladder.DraftWaiting || !f.Draft.Deadline.IsZero() {
				t.Fatalf("Got(draft) = %s, deadline %s, want waiting for the ready check", f.Draft.State, f.Draft.Deadline)
			}
			if _, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, 0, users[0]); err == nil || !strings.Contains(err.Error(), "ready check") {
				t.Errorf("Got(pick during the ready check) = %v, want a refusal naming it", err)
			}
			var rr ladder.ReadyResult
			for _, u := range m.Players() {
				var err error
				if rr, err = e.svc.Ready(e.ctx, ladder.Actor{UserID: u}, guild, m.ID, true); err != nil {
					t.Fatal(err)
				}
			}
			if rr.Check.State != ladder.ReadyPassed || rr.Draft.State != ladder.DraftPicking || !rr.Draft.Deadline.Equal(e.clock.Now().Add(45*time.Second)) {
				t.Fatalf("Got(after all ready) = check %s, draft %s until %s, want passed, picking for 45 s", rr.Check.State, rr.Draft.State, rr.Draft.Deadline)
			}
			// Nothing is due before the deadline.
			e.clock.Add(44 * time.Second)
			if rs, err := e.svc.ExpireDraftPicks(e.ctx); err != nil || len(rs) != 0 {
				t.Fatalf("Got(ExpireDraftPicks before the deadline) = %d, %v, want none", len(rs), err)
			}
			// Every process was down for ten minutes: the job makes the
			// pick that ran out, and the next captain gets a full window.
			e.clock.Add(10 * time.Minute)
			rs, err := e.svc.ExpireDraftPicks(e.ctx)
			if err != nil || len(rs) != 1 {
				t.Fatalf("Got(ExpireDraftPicks) = %d, %v, want one pick", len(rs), err)
			}
			r := rs[0]
			if !r.TimedOut || len(r.Picked) != 1 || r.Picked[0].UserID != users[3] || r.Picked[0].Team != 2 || !r.Picked[0].Auto {
				t.Errorf("Got(picked) = %+v, want %s (1530, the best left) for team 2", r.Picked, users[3])
			}
			if !r.Draft.Deadline.Equal(e.clock.Now().Add(45 * time.Second)) {
				t.Errorf("Got(next deadline) = %s, want a full window from now", r.Draft.Deadline)
			}
			again, err := e.svc.ExpireDraftPicks(e.ctx)
			if err != nil || len(again) != 0 {
				t.Errorf("Got(second run) = %d, %v, want nothing", len(again), err)
			}
			// The captain's menu still shows pick 1: stale, so nothing.
			stale, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, 0, users[0])
			if err != nil || !stale.AlreadyDone {
				t.Errorf("Got(stale pick) = %+v, %v, want AlreadyDone", stale, err)
			}
			// A captain who picks after their deadline, before the job
			// runs, gets the best rated left too, and is told so.
			e.clock.Add(46 * time.Second)
			late, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: users[5]}, guild, m.ID, 1, users[0])
			if err != nil || !late.TimedOut || late.Picked[0].UserID != users[2] {
				t.Errorf("Got(late pick) = %+v, %v, want %s picked for the captain, TimedOut", late.Picked, err, users[2])
			}
		}},
		{"a cancel vote ends a draft; the job never picks for a cancelled match", func(t *testing.T, e *env) {
			f := captains3v3(t, e, 0)
			m := f.Match
			for _, u := range m.Players()[:4] {
				if _, err := e.svc.CancelVote(e.ctx, ladder.Actor{UserID: u}, guild, m.ID); err != nil {
					t.Fatal(err)
				}
			}
			if got, _ := e.svc.Match(e.ctx, guild, m.ID); got.State != ladder.StateCancelled {
				t.Fatalf("Got(state) = %s, want cancelled", got.State)
			}
			e.clock.Add(time.Hour)
			if rs, err := e.svc.ExpireDraftPicks(e.ctx); err != nil || len(rs) != 0 {
				t.Errorf("Got(ExpireDraftPicks) = %d, %v, want none", len(rs), err)
			}
			_, err := e.svc.Pick(e.ctx, ladder.Actor{UserID: users[4]}, guild, m.ID, 0, users[0])
			if ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(err.Error(), "cancelled") {
				t.Errorf("Got(pick after cancel) = %v, want a conflict naming the cancellation", err)
			}
		}},
		{"balanced queues and one-player teams have no draft", func(t *testing.T, e *env) {
			q, l, err := e.svc.Lobby(e.ctx, guild, "")
			if err != nil {
				t.Fatal(err)
			}
			l.ReadyWindow = 0
			if _, err := e.svc.UpdateLobby(e.ctx, mod, guild, l); err != nil {
				t.Fatal(err)
			}
			var formed []ladder.FormedMatch
			for _, u := range users[:4] {
				res, err := e.svc.JoinQueue(e.ctx, ladder.JoinRequest{GuildID: guild, Queue: q.Name, UserID: u})
				if err != nil {
					t.Fatal(err)
				}
				formed = append(formed, res.Formed...)
			}
			if len(formed) != 1 || formed[0].Draft.MatchID != 0 {
				t.Fatalf("Got(formed) = %+v, want one match without a draft", formed)
			}
			if _, err := e.svc.Draft(e.ctx, guild, formed[0].Match.ID); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("Got(Draft) = %v, want CodeNotFound", err)
			}
		}},
	})
}

// formedEvents are the bodies of the match.formed events in the outbox.
func formedEvents(t *testing.T, e *env) []string {
	t.Helper()
	var bodies []string
	if err := e.db.Gorm().Table("webhook_events").Where("type = ?", string(ladder.EventMatchFormed)).Pluck("body", &bodies).Error; err != nil {
		t.Fatal(err)
	}
	return bodies
}

// auditCount counts the guild's audit entries of action.
func auditCount(t *testing.T, e *env, action string) int {
	t.Helper()
	es, err := e.svc.Audit(e.ctx, guild, 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range es {
		if a.Action == action {
			n++
		}
	}
	return n
}
