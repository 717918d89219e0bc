package storage_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

func TestQueueAdmin(t *testing.T) {
	p := []string{user(1), user(2), user(3), user(4), user(5), user(6)}
	suite(t, map[string]func(t *testing.T, b string){
		"create and update queues": func(t *testing.T, b string) {
			e := newEnv(t, b)
			q := ladder.NewQueue(guild, "3v3", 3)
			q.Model, q.Params = "elo", map[string]float64{"k": 24}
			if _, err := e.svc.CreateQueue(e.ctx, ladder.Actor{UserID: p[0]}, q); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("CreateQueue(player) = %v, want forbidden", err)
			}
			got, err := e.svc.CreateQueue(e.ctx, mod, q)
			if err != nil || got.ID == 0 {
				t.Fatalf("CreateQueue() = %+v, %v", got, err)
			}
			if _, err := e.svc.CreateQueue(e.ctx, mod, q); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("CreateQueue(same name) = %v, want conflict", err)
			}
			got.ChannelID, got.QFloor = "400000000000000001", 0.3
			if _, err := e.svc.UpdateQueue(e.ctx, mod, got); err != nil {
				t.Fatalf("UpdateQueue() = %v", err)
			}
			qs, _ := e.svc.Queues(e.ctx, guild)
			if len(qs) != 2 || qs[0].Name != "2v2" || qs[1].ChannelID != "400000000000000001" || qs[1].QFloor != 0.3 || qs[1].Params["k"] != 24 {
				t.Errorf("Queues() = %+v, want the default first and the updated 3v3", qs)
			}
			r, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: guild, Queue: "3v3", Team1: p[:3], Team2: p[3:], Winner: 1})
			if err != nil || r.Changes[0].Delta != 12 {
				t.Errorf("RecordResult(3v3 elo k=24) = %+v, %v, want winners +12", r.Changes, err)
			}
			mustVerify(t, e)
		},
		"match detail stakes and cancel": func(t *testing.T, b string) {
			e := newEnv(t, b)
			m := open2v2(t, e, p[0], p[1], p[2], p[3])
			d, err := e.svc.MatchDetail(e.ctx, guild, m.ID)
			if err != nil || len(d.Stakes) != 4 || len(d.Changes) != 0 {
				t.Fatalf("MatchDetail(open) = %+v, %v, want 4 stakes", d, err)
			}
			for _, s := range d.Stakes {
				if !near(s.IfWin, 40.1606, 1e-4) || !near(s.IfLoss, -40.1606, 1e-4) {
					t.Errorf("stake of %s = +%.4f/%.4f, want ±40.1606 (docs/spec.md 2.1)", s.UserID, s.IfWin, s.IfLoss)
				}
			}
			if _, err := e.svc.MatchDetail(e.ctx, "100000000000000009", m.ID); ladder.ErrorCode(err) != ladder.CodeNotFound {
				t.Errorf("MatchDetail(other guild) = %v, want not found", err)
			}
			if _, err := e.svc.Cancel(e.ctx, ladder.Actor{UserID: p[4]}, guild, m.ID, ""); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("Cancel(outsider) = %v, want forbidden", err)
			}
			c, err := e.svc.Cancel(e.ctx, ladder.Actor{UserID: p[0]}, guild, m.ID, "no show")
			if err != nil || c.Match.State != ladder.StateCancelled {
				t.Fatalf("Cancel() = %+v, %v", c.Match, err)
			}
			if c, err = e.svc.Cancel(e.ctx, mod, guild, m.ID, ""); err != nil || !c.AlreadyDone {
				t.Errorf("Cancel() again = %+v, %v, want AlreadyDone", c, err)
			}
			if _, err := e.svc.Void(e.ctx, mod, guild, m.ID, ""); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("Void(cancelled) = %v, want conflict", err)
			}
			// Cancelling freed the players.
			open2v2(t, e, p[0], p[1], p[2], p[3])
			if n := count(t, e.db, "rating_changes"); n != 0 {
				t.Errorf("rating_changes = %d, want 0", n)
			}
		},
		"reset rating": func(t *testing.T, b string) {
			e := newEnv(t, b)
			e.svc.RecordResult(e.ctx, result(p[:2], p[2:4], 1))
			r, err := e.svc.ResetRating(e.ctx, mod, guild, "", p[0], "fresh start")
			if err != nil || r.After.Rating != 1500 || r.After.RD != 130 || r.After.Wins != 1 || !near(r.Before.Rating, 1540.1606, 1e-4) {
				t.Errorf("ResetRating() = %+v, %v, want 1540.16 → 1500 ± 130 with the record kept", r, err)
			}
			if _, err := e.svc.ResetRating(e.ctx, ladder.Actor{UserID: p[0]}, guild, "", p[0], ""); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("ResetRating(player) = %v, want forbidden", err)
			}
			mustVerify(t, e)
		},
	})
}
