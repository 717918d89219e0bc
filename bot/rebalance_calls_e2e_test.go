package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestRebalanceDropsCalls: a moderator's /balance match apply changes the
// teams of an open match; the spectators' calls on its sides, made and
// priced on the old teams, are dropped and a new prediction post shows the
// new teams. Before, a call on the underdog stayed priced as one after the
// rebalance made its side the favourite.
func TestRebalanceDropsCalls(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.noReadyCheck()
		qs, err := e.svc.Queues(e.ctx, testGuild)
		if err != nil {
			t.Fatal(err)
		}
		wantText(t, "predictions on", e.slash(owner, "config queue community", map[string]any{"queue": qs[0].Name, "predictions": true}), "predictions **on**")
		for _, p := range players {
			e.slash(p, "queue join", nil)
		}
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
		}
		m := ms[0]
		title := fmt.Sprintf("**Predictions** for match #%d", m.ID)
		post := e.channelMessage(title)
		wantText(t, "alice calls team 2", e.clickLabel(alice, post, "Team 2 wins"), "You called **team 2**")
		// Team 1 becomes far stronger, so a rebalance moves players.
		for i, u := range m.Teams[0] {
			wantText(t, "rating", e.slash(owner, "mod rating set", map[string]any{"player": u, "rating": 2100.0 - float64(100*i), "rd": 60.0}), "→ ")
		}
		wantText(t, "apply", e.slash(owner, "balance", map[string]any{"match": int(m.ID), "apply": true}), "teams rebalanced")
		after, err := e.svc.Match(e.ctx, testGuild, m.ID)
		if err != nil || after.Team(m.Teams[0][0]) == after.Team(m.Teams[0][1]) {
			t.Fatalf("Got(teams after apply) = %v, %v; want the two strong players apart", after.Teams, err)
		}
		var calls int64
		if err := e.db.Gorm().Raw("SELECT COUNT(*) FROM predictions WHERE match_id = ?", m.ID).Scan(&calls).Error; err != nil {
			t.Fatal(err)
		}
		if calls != 0 {
			t.Errorf("Got(calls after the rebalance) = %d, want 0: they were made on other teams", calls)
		}
		// The new post follows the reply.
		fresh, err := e.fake.WaitChannelMessage(e.ctx, testChannel, func(msg fakediscord.Message) bool {
			return strings.Contains(msg.Text(), title) && msg.ID != post.ID
		})
		if err != nil {
			t.Fatalf("Got(a second prediction post) = %v, want one with the new teams", err)
		}
		for _, u := range after.Teams[0] {
			if !strings.Contains(fresh.Embeds[0].Fields[0].Value, "<@"+u+">") {
				t.Errorf("Got(new post's team 1) = %q, want %s in it", fresh.Embeds[0].Fields[0].Value, u)
			}
		}
		wantText(t, "alice calls again", e.clickLabel(alice, fresh, "Team 1 wins"), "You called **team 1**")
	})
}
