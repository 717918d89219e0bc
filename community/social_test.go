package community_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

var moderator = ladder.Actor{UserID: "100000000000000099", Moderator: true}

// TestTalliesFollowTheResult: the predictors' points and the MVP counts
// are rows the rated write, the votes and the moderator's corrections
// keep exact: the right call earns its points when the match is rated, a
// correction moves them to the other side, a void takes them and the
// match's MVP title away, and its resolution gives them back; after each
// step the stored counts equal a recount from the raw rows.
func TestTalliesFollowTheResult(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := e.com.SetSettings(e.ctx, moderator, guild, qs[0].Name, &on, &on); err != nil {
			t.Fatalf("SetSettings() = %v", err)
		}
		m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
			Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		p1, err := e.com.Predict(e.ctx, guild, user(21), m.ID, 1)
		if err != nil {
			t.Fatalf("Predict(team 1) = %v", err)
		}
		p2, err := e.com.Predict(e.ctx, guild, user(22), m.ID, 2)
		if err != nil {
			t.Fatalf("Predict(team 2) = %v", err)
		}
		check := func(step string, want map[string]community.PredictorRow, mvps map[string]int) {
			t.Helper()
			rows, _, err := e.com.Predictors(e.ctx, guild, "", 0, 10)
			if err != nil {
				t.Fatalf("%s: Predictors() = %v", step, err)
			}
			got := map[string]community.PredictorRow{}
			for _, r := range rows {
				got[r.UserID] = community.PredictorRow{Points: r.Points, Correct: r.Correct, Called: r.Called}
			}
			if len(got) != len(want) {
				t.Errorf("%s: Got(predictors) = %+v, want %+v", step, got, want)
			}
			for u, w := range want {
				if got[u] != w {
					t.Errorf("%s: Got(predictor %s) = %+v, want %+v", step, u, got[u], w)
				}
			}
			for u, w := range mvps {
				r, err := e.com.PlayerMVPs(e.ctx, guild, "", u, 0)
				if err != nil || r.MVPs != w {
					t.Errorf("%s: PlayerMVPs(%s) = %+v, %v, want %d titles", step, u, r, err, w)
				}
			}
			if diffs, err := community.Verify(e.ctx, e.db, guild); err != nil || len(diffs) > 0 {
				t.Errorf("%s: Verify() = %v, %v, want no difference", step, diffs, err)
			}
		}
		check("called", map[string]community.PredictorRow{}, nil)
		if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if _, err := e.com.Predict(e.ctx, guild, user(23), m.ID, 1); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("Predict(after the report) = %v, want closed", err)
		}
		if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID); err != nil {
			t.Fatalf("Confirm() = %v", err)
		}
		right1 := community.PredictorRow{Points: community.Points(p1.Chance), Correct: 1, Called: 1}
		check("rated", map[string]community.PredictorRow{user(21): right1, user(22): {Called: 1}}, nil)
		for _, v := range [][2]int{{2, 1}, {3, 1}, {4, 2}} {
			if _, err := e.com.VoteMVP(e.ctx, guild, user(v[0]), m.ID, user(v[1])); err != nil {
				t.Fatalf("VoteMVP(%d for %d) = %v", v[0], v[1], err)
			}
		}
		check("voted", map[string]community.PredictorRow{user(21): right1, user(22): {Called: 1}}, map[string]int{user(1): 1, user(2): 0})
		if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, 2, "team 2 won"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		right2 := community.PredictorRow{Points: community.Points(p2.Chance), Correct: 1, Called: 1}
		check("corrected", map[string]community.PredictorRow{user(21): {Called: 1}, user(22): right2}, map[string]int{user(1): 1})
		if _, err := e.svc.Void(e.ctx, moderator, guild, m.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		check("voided", map[string]community.PredictorRow{}, map[string]int{user(1): 0})
		if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, 2, "played after all"); err != nil {
			t.Fatalf("Correct(voided) = %v", err)
		}
		check("restored", map[string]community.PredictorRow{user(21): {Called: 1}, user(22): right2}, map[string]int{user(1): 1})
		// Verify names the rows that differ from the recount: a point
		// added by hand and an MVP title taken away.
		tamper(t, e, `UPDATE predictor_points SET points = points + 1 WHERE guild_id = '`+guild+`' AND user_id = '`+user(22)+`'`,
			`DELETE FROM mvp_counts WHERE guild_id = '`+guild+`' AND user_id = '`+user(1)+`'`)
		recount, err := e.db.Tallies(e.ctx, guild, true)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range recount {
			k := fmt.Sprintf("community: queue %d season %d player %s: ", r.QueueID, r.SeasonID, r.UserID)
			switch r.UserID {
			case user(1):
				want = append(want, k+fmt.Sprintf("not stored, recount %+v", r))
			case user(22):
				g := r
				g.Points++
				want = append(want, k+fmt.Sprintf("stored %+v, recount %+v", g, r))
			}
		}
		diffs, err := community.Verify(e.ctx, e.db, guild)
		if err != nil || len(diffs) != len(want) {
			t.Fatalf("Verify(tampered) = %q, %v, want %d differences", diffs, err, len(want))
		}
		for i, w := range want {
			if diffs[i] != w {
				t.Errorf("Verify(tampered)[%d] = %q, want %q", i, diffs[i], w)
			}
		}
		if diffs, err := community.Verify(e.ctx, e.db, other); err != nil || len(diffs) > 0 {
			t.Errorf("Verify(other guild) = %q, %v, want no difference", diffs, err)
		}
	})
}

// tamper runs statements on the database behind e, as a hand edit would.
func tamper(t *testing.T, e env, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := e.db.SQL().ExecContext(e.ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestSubstituteCallDropped: a spectator who called a side and then takes
// a seat in the match as a substitute plays it: their call is dropped
// with the seat, so they earn no points on a match they played (and
// could throw), and the stored counts still equal the recount. The store
// refuses a call of a player of the match it locks, so a call racing the
// seat cannot land either.
func TestSubstituteCallDropped(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := e.com.SetSettings(e.ctx, moderator, guild, qs[0].Name, &on, nil); err != nil {
			t.Fatalf("SetSettings() = %v", err)
		}
		m, err := e.svc.CreateMatch(e.ctx, ladder.NewMatch{GuildID: guild, QueueID: qs[0].ID,
			Teams: [2][]string{{user(1), user(2)}, {user(3), user(4)}}})
		if err != nil {
			t.Fatalf("CreateMatch() = %v", err)
		}
		if _, err := e.com.Predict(e.ctx, guild, user(21), m.ID, 2); err != nil {
			t.Fatalf("Predict(team 2) = %v", err)
		}
		p, err := e.com.Predict(e.ctx, guild, user(22), m.ID, 2)
		if err != nil {
			t.Fatalf("Predict(team 2) = %v", err)
		}
		if _, err := e.svc.RequestSub(e.ctx, ladder.Actor{UserID: user(1)}, guild, m.ID); err != nil {
			t.Fatalf("RequestSub() = %v", err)
		}
		if _, err := e.svc.AcceptSub(e.ctx, ladder.Actor{UserID: user(21)}, guild, m.ID, "", "sub"); err != nil {
			t.Fatalf("AcceptSub() = %v", err)
		}
		// The same call racing the seat: read before it, stored after.
		err = e.db.SavePrediction(e.ctx, guild, community.Prediction{MatchID: m.ID, UserID: user(21), Team: 2, Chance: 0.5, At: time.Now()})
		if ladder.ErrorCode(err) != ladder.CodeForbidden {
			t.Errorf("SavePrediction(the substitute) = %v, want forbidden", err)
		}
		if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: user(3)}, guild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: user(21)}, guild, m.ID); err != nil {
			t.Fatalf("Confirm() = %v", err)
		}
		rows, _, err := e.com.Predictors(e.ctx, guild, "", 0, 10)
		if err != nil {
			t.Fatalf("Predictors() = %v", err)
		}
		want := []community.PredictorRow{{UserID: user(22), Points: community.Points(p.Chance), Correct: 1, Called: 1}}
		if len(rows) != len(want) || rows[0] != want[0] {
			t.Errorf("Predictors() = %+v, want %+v (the substitute's call dropped)", rows, want)
		}
		if diffs, err := community.Verify(e.ctx, e.db, guild); err != nil || len(diffs) > 0 {
			t.Errorf("Verify() = %v, %v, want no difference", diffs, err)
		}
	})
}

// TestMVPVoteAfterVoid: a vote the service let through just before a
// moderator voided the match (the store's lock finds it voided) is
// refused, as the service refuses it once the void is read: the voter is
// not told their vote was taken on a match that is not rated, and a
// later restoration does not bring back a vote cast while it was void.
func TestMVPVoteAfterVoid(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		qs, err := e.svc.Queues(e.ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := e.com.SetSettings(e.ctx, moderator, guild, qs[0].Name, nil, &on); err != nil {
			t.Fatalf("SetSettings() = %v", err)
		}
		r, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: guild, Team1: []string{user(1), user(2)},
			Team2: []string{user(3), user(4)}, Winner: 1, PlayedAt: time.Now().Add(-time.Hour)})
		if err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
		m := r.Match
		if _, err := e.svc.Void(e.ctx, moderator, guild, m.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		if _, err := e.com.VoteMVP(e.ctx, guild, user(2), m.ID, user(1)); ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("VoteMVP(voided) = %v, want not rated", err)
		}
		// The same vote, read before the void and stored after it.
		err = e.db.SaveMVPVote(e.ctx, guild, m.ID, user(2), user(1), time.Now())
		if ladder.ErrorCode(err) != ladder.CodeConflict {
			t.Errorf("SaveMVPVote(voided) = %v, want not rated", err)
		}
		if _, err := e.svc.Correct(e.ctx, moderator, guild, m.ID, 1, "played after all"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		if mv, err := e.com.PlayerMVPs(e.ctx, guild, "", user(1), 0); err != nil || mv.Votes != 0 {
			t.Errorf("PlayerMVPs(after the restoration) = %+v, %v, want no vote", mv, err)
		}
		if _, err := e.com.VoteMVP(e.ctx, guild, user(2), m.ID, user(1)); err != nil {
			t.Errorf("VoteMVP(restored) = %v, want taken", err)
		}
		if diffs, err := community.Verify(e.ctx, e.db, guild); err != nil || len(diffs) > 0 {
			t.Errorf("Verify() = %v, %v, want no difference", diffs, err)
		}
	})
}
