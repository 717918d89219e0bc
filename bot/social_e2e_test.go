package bot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestPredictionsAndMVPEndToEnd: with predictions and the MVP vote on
// (/config queue community), a formed match brings a prediction post with
// two buttons; spectators call sides (players may not), the result pays
// the right callers 100 × (1 − the chance shown), a moderator's
// correction moves the points at once, and after the result each player
// votes one other player MVP, once; /stats and /profile show it.
func TestPredictionsAndMVPEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.noReadyCheck()
		qs, err := e.svc.Queues(e.ctx, testGuild)
		if err != nil {
			t.Fatalf("Queues() = %v", err)
		}
		q := qs[0].Name
		wantText(t, "show", e.slash(owner, "config queue community", map[string]any{"queue": q}), "predictions **off**, MVP vote **off**")
		no := e.slash(alice, "config queue community", map[string]any{"queue": q, "predictions": true})
		if !strings.Contains(no.Message.Text(), "not allowed") {
			t.Errorf("Got(non-admin /config queue community) = %q, want a refusal", no.Message.Text())
		}
		wantText(t, "set", e.slash(owner, "config queue community", map[string]any{"queue": q, "predictions": true, "mvp_vote": true}),
			"predictions **on**, MVP vote **on**")

		for _, p := range players {
			e.slash(p, "queue join", nil)
		}
		ms, err := e.svc.Matches(e.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
		}
		m := ms[0]
		post := e.channelMessage(fmt.Sprintf("**Predictions** for match #%d", m.ID))
		if len(post.Mentions) != 0 {
			t.Errorf("Got(prediction post mentions) = %v, want nobody pinged", post.Mentions)
		}
		wantText(t, "alice calls team 2", e.clickLabel(alice, post, "Team 2 wins"), "You called **team 2**")
		wantText(t, "bob calls team 1", e.clickLabel(bob, post, "Team 1 wins"), "You called **team 1**")
		wantText(t, "a player may not", e.clickLabel(players[0], post, "Team 1 wins"), "only others may predict")
		forged := e.clickRaced(alice, post.ID, fmt.Sprintf("pred:%d:3", m.ID))
		if !strings.Contains(forged.Message.Text(), "team must be 1 or 2") {
			t.Errorf("Got(forged side) = %q, want a refusal", forged.Message.Text())
		}
		mvpEarly := e.slash(players[0], "match mvp", map[string]any{"player": players[1].ID, "match": int(m.ID)})
		wantText(t, "mvp before the result", mvpEarly, "not rated")

		// Team 1 (players 0 and 1 or as formed) wins.
		won := m.Teams[0]
		if _, err := e.svc.Report(e.ctx, ladder.Actor{UserID: m.Teams[0][0]}, testGuild, m.ID, ladder.Win); err != nil {
			t.Fatalf("Report() = %v", err)
		}
		if _, err := e.svc.Confirm(e.ctx, ladder.Actor{UserID: m.Teams[1][0]}, testGuild, m.ID); err != nil {
			t.Fatalf("Confirm() = %v", err)
		}
		com := community.New(e.db, e.svc)
		points := func() map[string]int {
			rows, _, err := com.Predictors(e.ctx, testGuild, q, 0, 10)
			if err != nil {
				t.Fatalf("Predictors() = %v", err)
			}
			out := map[string]int{}
			for _, r := range rows {
				out[r.UserID] = r.Points
			}
			return out
		}
		if got, want := points(), (map[string]int{bob.ID: community.Points(m.PTeam1), alice.ID: 0}); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Got(points after team 1 won) = %v, want %v", got, want)
		}
		wantText(t, "stats", e.slash(alice, "stats", nil), "Best predictors")
		// A correction pays the other caller instead, at once.
		if _, err := e.svc.Correct(e.ctx, ladder.Actor{UserID: mod.ID, Moderator: true}, testGuild, m.ID, 2, "team 2 won"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		if got, want := points(), (map[string]int{alice.ID: community.Points(1 - m.PTeam1), bob.ID: 0}); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("Got(points after the correction) = %v, want %v", got, want)
		}

		wantText(t, "mvp self", e.slash(userByID(won[0]), "match mvp", map[string]any{"player": won[0]}), "not yourself")
		wantText(t, "mvp stranger", e.slash(alice, "match mvp", map[string]any{"player": won[0], "match": int(m.ID)}), "only the players")
		wantText(t, "mvp outsider", e.slash(userByID(won[0]), "match mvp", map[string]any{"player": alice.ID, "match": int(m.ID)}), "did not play")
		wantText(t, "mvp", e.slash(userByID(won[0]), "match mvp", map[string]any{"player": won[1]}), "Your MVP vote for match")
		wantText(t, "mvp twice", e.slash(userByID(won[0]), "match mvp", map[string]any{"player": m.Teams[1][0]}), "already")
		// A German client gets the answer in German.
		p, err := e.fake.Slash(callIn(userByID(m.Teams[1][0]), "de"), "match mvp", map[string]any{"player": won[1], "match": int(m.ID)})
		if err != nil {
			t.Fatal(err)
		}
		wantText(t, "mvp 2 in German", e.result(p), i18n.For("de").T("reply.mvp_voted", "ID", m.ID, "Player", "<@"+won[1]+">"))
		wantText(t, "profile", e.slash(alice, "profile", map[string]any{"player": won[1]}), "1 × MVP · 2 votes")
		wantText(t, "stats mvp", e.slash(alice, "stats", nil), "Most MVPs")
		// Voided, the match counts for nobody.
		if _, err := e.svc.Void(e.ctx, ladder.Actor{UserID: mod.ID, Moderator: true}, testGuild, m.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		if got := points(); len(got) != 0 {
			t.Errorf("Got(points after the void) = %v, want none", got)
		}
		if r, err := com.PlayerMVPs(e.ctx, testGuild, q, won[1], 0); err != nil || r.MVPs != 0 {
			t.Errorf("Got(MVPs after the void) = %+v, %v, want 0", r, err)
		}
	})
}

// TestPredictionsWaitForTheCaptains: in captains mode the teams of a
// formed match are the captains' to pick, so its prediction post waits
// for them: nothing invites a call on teams the draft will change, a
// call while the captains pick is refused, and once the teams are set
// the post shows the drafted teams, whose chance a call is paid by.
func TestPredictionsWaitForTheCaptains(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		l := newLobbyEnv(t, freshDSN(t, backend))
		l.captainsMode(0)
		wantText(t, "predictions on", l.slash(owner, "config queue community", map[string]any{"queue": "2v2", "predictions": true}),
			"predictions **on**")
		p1, p2, p3 := players[0], players[1], players[2]
		for _, p := range players {
			l.slash(p, "queue join", nil)
			l.clock.Add(time.Second)
		}
		draft := l.channelMessage("captains draft, pick 1")
		ms, err := l.svc.Matches(l.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		if err != nil || len(ms) != 1 {
			t.Fatalf("Got(open matches) = %d, %v, want 1", len(ms), err)
		}
		m := ms[0]
		early := l.clickRaced(alice, draft.ID, fmt.Sprintf("pred:%d:1", m.ID))
		wantText(t, "a call while the captains pick", early, "captains are still picking")

		// p3 takes p1; p2 is the last left and goes to p4.
		wantText(t, "last pick", l.selectIn(p3, draft, p1.ID), "the captains picked the teams")
		drafted := l.match(m.ID)
		post := l.channelMessage(fmt.Sprintf("**Predictions** for match #%d", m.ID))
		if n := len(l.fake.ChannelMessages(testChannel)); n != 2 {
			t.Errorf("Got(channel messages) = %d, want the match and one prediction post", n)
		}
		if len(post.Embeds) != 1 || len(post.Embeds[0].Fields) != 2 ||
			post.Embeds[0].Fields[0].Value != mentionsOf(drafted.Teams[0]) || post.Embeds[0].Fields[1].Value != mentionsOf(drafted.Teams[1]) {
			t.Errorf("Got(prediction post) = %q, want the drafted teams %v", post.Text(), drafted.Teams)
		}
		if !strings.Contains(post.Embeds[0].Fields[0].Value, p2.ID) {
			t.Errorf("Got(team 1 of the post) = %q, want p2, the captain p4's last pick", post.Embeds[0].Fields[0].Value)
		}
		call := l.clickLabel(alice, post, "Team 1 wins")
		wantText(t, "a call on the drafted teams", call, "You called **team 1**")
		p, err := community.New(l.db, l.svc).Predict(l.ctx, testGuild, bob.ID, m.ID, 1)
		if err != nil || p.Chance != drafted.PTeam1 {
			t.Errorf("Predict(team 1) = %+v, %v, want the drafted teams' chance %v", p, err, drafted.PTeam1)
		}
	})
}

// mentionsOf is how a post lists a team: its players' mentions.
func mentionsOf(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "<@" + id + ">"
	}
	return strings.Join(out, ", ")
}
