package jobs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestPickRacesDeadline races a captain's pick (a process whose clock is
// before the deadline) against the draft's deadline in two other
// processes' ready-check jobs (clocks past it), on one database, many
// times. Whoever takes the match's row lock first decides, and there is
// exactly one outcome: the captain's choice, or the best rated player
// left picked for them once, with one notice; the teams hold each player
// once and the draft is over either way.
func TestPickRacesDeadline(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		start, clickClock, jobClock, posts, click, jobA, jobB := raceProcs(t, b)
		setLobby(t, click.svc, func(l *ladder.Lobby) { l.PickMode, l.PickWindow = ladder.PickCaptains, time.Minute })
		outcomes := map[string]int{}
		for round := range 8 {
			base := start.Add(time.Duration(round) * time.Hour)
			clickClock.Set(base)
			var formed []ladder.FormedMatch
			for _, u := range users(10*round+1, 10*round+4) {
				formed = append(formed, join(t, click.svc, u)...)
			}
			if len(formed) != 1 || formed[0].Draft.State != ladder.DraftPicking {
				t.Fatalf("round %d: Got(formed) = %+v, want one match in its draft", round, formed)
			}
			m, d := formed[0].Match, formed[0].Draft
			captain, pool := d.Captain(d.Turn()), d.Pool()
			// The captain wants the second player; the deadline gives the first.
			choice, best := pool[1].UserID, pool[0].UserID
			clickClock.Set(base.Add(59 * time.Second))
			jobClock.Set(base.Add(61 * time.Second))
			var res ladder.DraftResult
			var clickErr error
			raceReadyJob(t, func() { res, clickErr = click.svc.Pick(ctx, ladder.Actor{UserID: captain}, guild, m.ID, 0, choice) }, jobA, jobB)
			if clickErr != nil {
				t.Fatalf("round %d: Pick = %v", round, clickErr)
			}
			got, err := click.svc.Match(ctx, guild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			after, err := click.svc.Draft(ctx, guild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			notices := len(posts.matching(func(r commands.Reply) bool {
				return strings.Contains(r.Content, fmt.Sprintf("**Match #%d** is on", m.ID)) && strings.Contains(r.Content, "Time ran out")
			}))
			if after.State != ladder.DraftDone || len(got.Teams[0]) != 2 || len(got.Teams[1]) != 2 {
				t.Fatalf("round %d: Got(draft %s, teams %v), want done, 2 against 2", round, after.State, got.Teams)
			}
			second := got.Teams[1][1] // team 2's pick, the first of the draft
			switch {
			case second == choice && !res.AlreadyDone && notices == 0:
				outcomes["captain"]++
			case second == best && res.AlreadyDone && notices == 1:
				outcomes["deadline"]++
			default:
				t.Errorf("round %d: Got(team 2's pick %s, click already done %v, notices %d), want the choice %s with no notice or the best %s once",
					round, second, res.AlreadyDone, notices, choice, best)
			}
			// Out of the way of the next round's players.
			if err := cancelByVotes(ctx, click.svc, got); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("outcomes over 8 rounds: %v", outcomes)
	})
}

// cancelByVotes cancels an open match by its players' votes.
func cancelByVotes(ctx context.Context, svc *ladder.Service, m ladder.Match) error {
	for _, u := range m.Players() {
		res, err := svc.CancelVote(ctx, ladder.Actor{UserID: u}, guild, m.ID)
		if err != nil || res.Cancelled {
			return err
		}
	}
	return fmt.Errorf("match %d not cancelled by all its players' votes", m.ID)
}
