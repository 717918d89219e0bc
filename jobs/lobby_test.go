package jobs_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// setReadyWindow sets the default queue's ready window in the test guild.
func setReadyWindow(t *testing.T, svc *ladder.Service, d time.Duration) {
	t.Helper()
	setLobby(t, svc, func(l *ladder.Lobby) { l.ReadyWindow = d })
}

// setLobby changes the default queue's lobby settings in the test guild.
func setLobby(t *testing.T, svc *ladder.Service, edit func(*ladder.Lobby)) {
	t.Helper()
	ctx := context.Background()
	_, l, err := svc.Lobby(ctx, guild, "")
	if err != nil {
		t.Fatalf("Lobby() = %v", err)
	}
	edit(&l)
	if _, err := svc.UpdateLobby(ctx, moderator, guild, l); err != nil {
		t.Fatalf("UpdateLobby() = %v", err)
	}
}

// TestReadyClickRacesDeadline races the last Ready click of a match (a
// process whose clock is before the deadline) against the ready-check job
// in two other processes (clocks past it), on one database, many times.
// Whoever takes the match's row lock first decides, and there is exactly
// one outcome: either the match is on and nobody is requeued or
// penalised, or it is cancelled once, its three ready players are queued
// again, the last one has one cooldown, and one notice is posted.
func TestReadyClickRacesDeadline(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		start, clickClock, jobClock, posts, click, jobA, jobB := raceProcs(t, b)
		setReadyWindow(t, click.svc, 2*time.Minute)
		outcomes := map[ladder.ReadyState]int{}
		for round := range 8 {
			base := start.Add(time.Duration(round) * time.Hour)
			clickClock.Set(base)
			ps := users(10*round+1, 10*round+4)
			var formed []ladder.FormedMatch
			for _, u := range ps {
				formed = append(formed, join(t, click.svc, u)...)
			}
			if len(formed) != 1 || formed[0].Ready.MatchID == 0 {
				t.Fatalf("round %d: Got(formed) = %+v, want one match with a ready check", round, formed)
			}
			m := formed[0].Match
			last := m.Players()[3]
			for _, u := range m.Players()[:3] {
				if _, err := click.svc.Ready(ctx, ladder.Actor{UserID: u}, guild, m.ID, true); err != nil {
					t.Fatalf("Ready(%s) = %v", u, err)
				}
			}
			clickClock.Set(base.Add(119 * time.Second))
			jobClock.Set(base.Add(121 * time.Second))
			var res ladder.ReadyResult
			var clickErr error
			raceReadyJob(t, func() { res, clickErr = click.svc.Ready(ctx, ladder.Actor{UserID: last}, guild, m.ID, true) }, jobA, jobB)
			if clickErr != nil {
				t.Fatalf("round %d: Ready(last) = %v", round, clickErr)
			}
			rc, err := click.svc.ReadyCheck(ctx, guild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := click.svc.Match(ctx, guild, m.ID)
			notices := len(posts.matching(func(r commands.Reply) bool {
				return strings.Contains(r.Content, fmt.Sprintf("**Match #%d** is cancelled", m.ID))
			}))
			outcomes[rc.State]++
			switch rc.State {
			case ladder.ReadyPassed:
				if res.AlreadyDone || got.State != ladder.StateOpen || notices != 0 {
					t.Errorf("round %d: passed, but Got(click already done %v, match %s, notices %d), want false, open, 0", round, res.AlreadyDone, got.State, notices)
				}
				for _, u := range ps {
					if st, _ := click.svc.QueueStatus(ctx, guild, u); st.Ticket.ID != 0 {
						t.Errorf("round %d: %s queued after a passed check", round, u)
					}
				}
			case ladder.ReadyFailed:
				if !res.AlreadyDone || got.State != ladder.StateCancelled || notices != 1 {
					t.Errorf("round %d: failed, but Got(click already done %v, match %s, notices %d), want true, cancelled, 1", round, res.AlreadyDone, got.State, notices)
				}
				for _, u := range m.Players()[:3] {
					st, _ := click.svc.QueueStatus(ctx, guild, u)
					if st.Ticket.ID == 0 {
						t.Errorf("round %d: ready player %s not queued again", round, u)
					}
					// Out of the way of the next round's players.
					if _, _, err := click.svc.LeaveQueue(ctx, guild, u); err != nil {
						t.Fatal(err)
					}
				}
				_, err := click.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: last, ChannelID: channel})
				if ladder.ErrorCode(err) != ladder.CodeForbidden || !strings.Contains(err.Error(), "cooldown") {
					t.Errorf("round %d: Got(join of the late player) = %v, want a cooldown refusal", round, err)
				}
			default:
				t.Errorf("round %d: Got(check state) = %s, want passed or failed", round, rc.State)
			}
		}
		t.Logf("outcomes over 8 rounds: %v", outcomes)
	})
}

// raceProcs sets up a race of a click against the deadline job: one
// process whose clock the click reads and two job processes sharing
// another clock, all posting to posts, on one fresh database with the
// test guild.
func raceProcs(t *testing.T, b string) (start time.Time, clickClock, jobClock *ladder.ManualClock, posts *poster, click, jobA, jobB *proc) {
	t.Helper()
	dsn := testdb.DSN(t, b)
	start = time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	clickClock, jobClock = ladder.NewManualClock(start), ladder.NewManualClock(start)
	posts = &poster{}
	click = newProc(t, dsn, clickClock, posts)
	jobA, jobB = newProc(t, dsn, jobClock, posts), newProc(t, dsn, jobClock, posts)
	setupGuild(t, click.svc, 0)
	return start, clickClock, jobClock, posts, click, jobA, jobB
}

// raceReadyJob runs click at once with the ready-check job of each of
// procs, and returns when all are done.
func raceReadyJob(t *testing.T, click func(), procs ...*proc) {
	t.Helper()
	var wg sync.WaitGroup
	wg.Go(click)
	for _, p := range procs {
		wg.Go(func() {
			if _, err := p.sched.Run(context.Background(), jobs.JobReady); err != nil {
				t.Errorf("Run(%s) = %v", jobs.JobReady, err)
			}
		})
	}
	wg.Wait()
}

// TestSubAcceptRace has four eligible players in two processes accept the
// same substitute request at once: one takes the seat, the others are told
// it is taken, and the match holds exactly one of them.
func TestSubAcceptRace(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		dsn := testdb.DSN(t, b)
		c := ladder.NewManualClock(time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC))
		a, bp := newProc(t, dsn, c, nil), newProc(t, dsn, c, nil)
		setupGuild(t, a.svc, 0) // ready check off
		var formed []ladder.FormedMatch
		for _, u := range users(1, 4) {
			formed = append(formed, join(t, a.svc, u)...)
		}
		if len(formed) != 1 {
			t.Fatalf("Got(formed) = %d, want 1", len(formed))
		}
		m := formed[0].Match
		out := m.Players()[0]
		if _, err := a.svc.RequestSub(ctx, ladder.Actor{UserID: out}, guild, m.ID); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i, u := range users(11, 14) {
			p := []*proc{a, bp}[i%2]
			wg.Go(func() { _, errs[i] = p.svc.AcceptSub(ctx, ladder.Actor{UserID: u}, guild, m.ID, "", "") })
		}
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
			case ladder.ErrorCode(err) != ladder.CodeConflict || !strings.Contains(err.Error(), "already took"):
				t.Errorf("accept %d: Got(err) = %v, want the seat taken", i, err)
			}
		}
		got, _ := a.svc.Match(ctx, guild, m.ID)
		seated := 0
		for _, u := range users(11, 14) {
			if got.Team(u) != 0 {
				seated++
			}
		}
		if won != 1 || seated != 1 || got.Team(out) != 0 {
			t.Errorf("Got(winners, seated, leaver's team) = %d, %d, %d, want 1, 1, 0", won, seated, got.Team(out))
		}
	})
}

// TestReadyDeadlineEditsAnnouncement: a ready check that runs out is shown
// in place of the match's recorded announcement (its Ready buttons gone),
// in whichever process runs the job; a match whose announcement is unknown
// gets a new message in its channel instead.
func TestReadyDeadlineEditsAnnouncement(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		start := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
		clock := ladder.NewManualClock(start)
		posts := &poster{}
		p := newProc(t, testdb.DSN(t, b), clock, posts)
		setupGuild(t, p.svc, 0)
		setReadyWindow(t, p.svc, 2*time.Minute)
		var ms []ladder.Match
		for round := range 2 {
			var formed []ladder.FormedMatch
			for _, u := range users(10*round+1, 10*round+4) {
				formed = append(formed, join(t, p.svc, u)...)
			}
			if len(formed) != 1 {
				t.Fatalf("round %d: Got(formed) = %d matches, want 1", round, len(formed))
			}
			ms = append(ms, formed[0].Match)
		}
		const message = "900000000000000123"
		a := ladder.Announcement{MatchID: ms[0].ID, ChannelID: queueChannel, MessageID: message}
		if err := p.svc.RecordAnnouncement(ctx, a); err != nil {
			t.Fatalf("RecordAnnouncement() = %v", err)
		}
		for _, bad := range []ladder.Announcement{{MatchID: ms[1].ID, ChannelID: "x", MessageID: message}, {MatchID: ms[1].ID, ChannelID: queueChannel, MessageID: "01"}} {
			if err := p.svc.RecordAnnouncement(ctx, bad); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("RecordAnnouncement(%+v) = %v, want invalid", bad, err)
			}
		}
		clock.Set(start.Add(3 * time.Minute))
		if _, err := p.sched.Run(ctx, jobs.JobReady); err != nil {
			t.Fatalf("Run(%s) = %v", jobs.JobReady, err)
		}
		for i, m := range ms {
			got := posts.matching(func(r commands.Reply) bool {
				return strings.Contains(r.Content, fmt.Sprintf("**Match #%d** is cancelled", m.ID))
			})
			if len(got) != 1 {
				t.Fatalf("match %d: Got(notices) = %d, want 1", i, len(got))
			}
			switch n := got[0]; {
			case i == 0 && (n.msg.Edit != message || n.channel != queueChannel || len(n.msg.Buttons) != 0):
				t.Errorf("match %d: Got(notice) = edit %q in %s with %d button rows, want an edit of %s in %s without buttons",
					i, n.msg.Edit, n.channel, len(n.msg.Buttons), message, queueChannel)
			case i == 1 && n.msg.Edit != "":
				t.Errorf("match %d: Got(notice) = edit of %q, want a new message (no announcement recorded)", i, n.msg.Edit)
			}
		}
	})
}
