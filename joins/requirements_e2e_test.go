package joins_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel"
)

const (
	roleMember = "700000000000000001"
	roleBanned = "700000000000000002"
)

// TestRequirementsEndToEnd: each requirement, set by /config queue
// requirements, refuses /queue join, the panel's Join, Join with… and a
// party's Accept alike, saying which requirement failed and what the
// player has; a player who qualifies joins; bad settings change nothing;
// every change is audited.
func TestRequirementsEndToEnd(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, backend)
		e.slash(admin, "config queue add", map[string]any{"name": "1v1", "team_size": 1})
		private(t, "panel", e.slash(admin, "config queue panel", map[string]any{"queue": "2v2", "channel": testChannel}), "<#"+testChannel+">")
		pm := e.panel("2v2", "Nobody is waiting", "Open")
		set := func(opts map[string]any, want string) {
			t.Helper()
			opts["queue"] = "2v2"
			private(t, "requirements", e.slash(admin, "config queue requirements", opts), want)
		}
		p1, p2, p3 := player(1), player(2), player(3)

		t.Run("min_rating", func(t *testing.T) {
			set(map[string]any{"min_rating": 1600.0}, "rating at least 1600")
			want := "needs a rating of at least 1600 (min_rating); you have 1500"
			refused(t, "/queue join", e.slash(p1, "queue join", nil), want)
			refused(t, "panel Join", e.click(p1, pm, panel.LabelJoin), want)
			menu := e.click(p1, pm, panel.LabelWith)
			sel := menu.Message.Rows[0].Components[0]
			refused(t, "Join with…", e.result(e.fake.SelectEntities(at(p1), menu.Message.ID, sel.CustomID, p2.ID)), want)
			if e.queued(p1.ID) {
				t.Errorf("Got(p1 queued after refusals) = true, want false")
			}
			// A qualifying player joins; their partner must qualify too.
			e.slash(admin, "mod rating set", map[string]any{"player": p1.ID, "rating": 1700.0, "rd": 60.0})
			refused(t, "party with a low partner", e.slash(p1, "queue join", map[string]any{"partner": p2.ID}),
				"needs a rating of at least 1600 (min_rating); <@"+p2.ID+"> has 1500")
			private(t, "qualified join", e.click(p1, pm, panel.LabelJoin), "You joined queue **2v2**")
			e.slash(p1, "queue leave", nil)
			set(map[string]any{"min_rating": 0.0}, "none, anyone may join")
		})

		t.Run("max_rating", func(t *testing.T) {
			set(map[string]any{"max_rating": 1400.0}, "rating at most 1400")
			refused(t, "/queue join", e.slash(p2, "queue join", nil), "takes ratings up to 1400 (max_rating); you have 1500")
			set(map[string]any{"max_rating": 0.0}, "none")
		})

		t.Run("min_games", func(t *testing.T) {
			set(map[string]any{"min_games": 2, "games_queue": "1v1"}, "2 rated games in 1v1")
			refused(t, "no games", e.slash(p2, "queue join", nil), "needs 2 rated games in 1v1 (min_games); you have 0")
			// One rated 1v1 game, and one voided: one counts.
			for i, void := range []bool{false, true} {
				res, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Queue: "1v1", Team1: []string{p2.ID}, Team2: []string{p3.ID}, Winner: 1})
				if err != nil {
					t.Fatalf("RecordResult %d: %v", i, err)
				}
				if void {
					if _, err := e.svc.Void(e.ctx, ladder.Actor{UserID: admin.ID, Moderator: true}, testGuild, res.Match.ID, "test"); err != nil {
						t.Fatal(err)
					}
				}
				e.clock.Add(time.Minute)
			}
			refused(t, "one game", e.slash(p2, "queue join", nil), "needs 2 rated games in 1v1 (min_games); you have 1")
			if _, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Queue: "1v1", Team1: []string{p3.ID}, Team2: []string{p2.ID}, Winner: 1}); err != nil {
				t.Fatal(err)
			}
			private(t, "two games", e.slash(p2, "queue join", nil), "You joined queue **2v2**")
			e.slash(p2, "queue leave", nil)
			set(map[string]any{"min_games": 0}, "none")
		})

		t.Run("required_role", func(t *testing.T) {
			set(map[string]any{"required_role": roleMember}, "the <@&"+roleMember+"> role")
			member := fakediscord.User{ID: player(4).ID, Name: "p4", Roles: []string{roleMember}}
			refused(t, "no role", e.click(p3, pm, panel.LabelJoin), "needs the <@&"+roleMember+"> role (required_role); you do not")
			// The member invites p3, who lacks the role: the invitation
			// goes out (p3's roles are unknown until they answer) and
			// their Accept is refused.
			private(t, "invite", e.slash(member, "queue join", map[string]any{"partner": p3.ID}), "Invitation sent")
			inv := e.message("invitation", func(m fakediscord.Message) bool { return strings.Contains(m.Content, "invites you to queue") })
			refused(t, "accept without the role", e.click(p3, inv, "Accept"), "needs the <@&"+roleMember+"> role (required_role); you do not")
			private(t, "member joins", e.slash(member, "queue join", nil), "You joined queue **2v2**")
			e.slash(member, "queue leave", nil)
			set(map[string]any{"clear": "required_role"}, "none")
		})

		t.Run("excluded_role", func(t *testing.T) {
			set(map[string]any{"excluded_role": roleBanned}, "not the <@&"+roleBanned+"> role")
			flagged := fakediscord.User{ID: player(5).ID, Name: "p5", Roles: []string{roleMember, roleBanned}}
			refused(t, "excluded", e.slash(flagged, "queue join", nil), "closed to the <@&"+roleBanned+"> role (excluded_role); you have it")
			set(map[string]any{"clear": "all"}, "none")
		})

		t.Run("min_account_days", func(t *testing.T) {
			set(map[string]any{"min_account_days": 30}, "at least 30 days old")
			fresh := newAccount(e.clock.Now(), 3*24*time.Hour+time.Hour)
			refused(t, "young account", e.slash(fresh, "queue join", nil), "needs a Discord account at least 30 days old (min_account_days); you have one 3 days old")
			private(t, "old account", e.slash(p3, "queue join", nil), "You joined queue **2v2**")
			e.slash(p3, "queue leave", nil)
		})

		t.Run("bad input", func(t *testing.T) {
			before, err := e.joins.Settings(e.ctx, e.queue("2v2"))
			if err != nil {
				t.Fatal(err)
			}
			refused(t, "max below min", e.slash(admin, "config queue requirements", map[string]any{"queue": "2v2", "min_rating": 1600.0, "max_rating": 1500.0}),
				"max_rating (1500) must not be below min_rating (1600)")
			refused(t, "unknown games queue", e.slash(admin, "config queue requirements", map[string]any{"queue": "2v2", "min_games": 3, "games_queue": "5v5"}),
				`no queue called "5v5"`)
			refused(t, "same role twice", e.slash(admin, "config queue requirements", map[string]any{"queue": "2v2", "required_role": roleMember, "excluded_role": roleMember}),
				"cannot be the same role")
			refused(t, "not a moderator", e.slash(p1, "config queue requirements", map[string]any{"queue": "2v2", "min_rating": 1.0}))
			after, err := e.joins.Settings(e.ctx, e.queue("2v2"))
			if err != nil || after != before {
				t.Errorf("Got(settings after refused changes) = %+v, %v, want %+v", after, err, before)
			}
		})

		// Every change above is in the audit log: two per requirement
		// (on, off), the games queue with min_games, and the last one.
		if got := e.audited("queue.joins", "2v2"); got != 11 {
			t.Errorf("Got(queue.joins audit entries) = %d, want 11", got)
		}
	})
}
