package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestDivisionRoles runs `ladderbot run` (ROLE_SYNC_INTERVAL=1s,
// ROLE_RECONCILE_INTERVAL=2s) against the fake Discord with 429s injected,
// while the test changes the ladder in the shared database: each player's
// role follows them up and down divisions, through a rated match, its
// correction and a season rollover. A role removed by hand is given back
// by the process's reconcile job (the sync trusts what it applied: see
// jobs.TestDivisionRolesFollowPlayers), and a role above the bot's is
// reported to the moderators' channel once while the other players' roles
// keep following. Last season's top3 and top30 badges are mapped too:
// at the rollover every player gains their badge's role, beside their
// division's once placed. Last, players whose last match is 40 days old
// lose their division's role (keeping their badge's) when a process
// started on a new day runs the stale job's catch-up.
func TestDivisionRoles(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := testCtx(t, 3*time.Minute)
		dsn := freshDSN(t, backend)
		fake := startFake(t)
		db, err := storage.Open(ctx, dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc := ladder.NewService(db, nil)
		const guild, modlog = "100000000000000001", "200000000000000009"
		mod := ladder.Actor{UserID: "300000000000000001", Moderator: true}
		g, err := svc.EnsureGuild(ctx, guild)
		if err != nil {
			t.Fatal(err)
		}
		g.PlacementGames, g.LogChannelID = 0, modlog
		if _, err := svc.UpdateGuild(ctx, mod, g); err != nil {
			t.Fatal(err)
		}
		roles, set := map[string]string{}, map[string]string{}
		for i, d := range ladder.DefaultDivisions() {
			roles[d.Name] = fake.AddRole(guild, d.Name, 10+i)
			set[d.Name] = roles[d.Name]
		}
		if _, err := svc.SetDivisionRoles(ctx, guild, set); err != nil {
			t.Fatal(err)
		}
		var users []string
		for i := range 8 {
			users = append(users, fmt.Sprintf("40000000000000%04d", i+1))
			fake.AddMember(guild, users[i])
		}
		setRating := func(u string, r float64) {
			t.Helper()
			if _, err := svc.SetRating(ctx, mod, guild, "", u, r, 50, "e2e"); err != nil {
				t.Fatalf("SetRating(%s) = %v", u, err)
			}
		}
		for i, u := range users {
			setRating(u, 1300+float64(i%5)*150)
		}
		// badge is each player's role for last season's badge, once a
		// season has closed (badge roles are mapped from the start).
		badge := map[string]string{}
		for i, b := range ladder.Badges {
			roles[b] = fake.AddRole(guild, b, 20+i)
		}
		if _, err := svc.SetBadgeRoles(ctx, guild, map[string]string{"top3": roles["top3"], "top30": roles["top30"]}); err != nil {
			t.Fatal(err)
		}
		want := func(u string) []string {
			ss, err := svc.CurrentStandings(ctx, guild, "", []string{u})
			if err != nil || len(ss) != 1 {
				t.Fatalf("CurrentStandings(%s) = %v, %v", u, ss, err)
			}
			out := []string{}
			if !ss[0].Provisional && !ss[0].Stale {
				out = append(out, roles[ss[0].Division])
			}
			if r := badge[u]; r != "" {
				out = append(out, r)
			}
			slices.Sort(out)
			return out
		}
		// waitRoles waits until every player of us holds what the standings say.
		waitRoles := func(step string, us []string) {
			t.Helper()
			var diff string
			for ctx.Err() == nil {
				diff = ""
				for _, u := range us {
					got, _ := fake.MemberRoles(guild, u)
					if w := want(u); !slices.Equal(got, w) {
						diff += fmt.Sprintf(" %s holds %v, want %v;", u, got, w)
					}
				}
				if diff == "" {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
			t.Fatalf("%s: roles never matched the standings:%s", step, diff)
		}

		fake.Inject429(3, 300*time.Millisecond)
		p := newProc(t, "roles", dsn, fake, 0, 1)
		roleEnv := []string{"ROLE_SYNC_INTERVAL=1s", "ROLE_RECONCILE_INTERVAL=2s"}
		p.env = append(p.env, roleEnv...)
		p.start()
		waitRoles("first sync", users)
		if n := fake.Count429(); n < 3 {
			t.Errorf("Got(429s answered) = %d, want the 3 injected", n)
		}

		// Up and down.
		fake.Inject429(2, 200*time.Millisecond)
		setRating(users[0], 1900) // Bronze → Diamond
		setRating(users[4], 1450) // Diamond → Silver
		waitRoles("moves", users)

		// A rated match and its correction.
		res, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: users[1:3], Team2: users[3:5], Winner: 1})
		if err != nil {
			t.Fatal(err)
		}
		waitRoles("rated match", users)
		if _, err := svc.Correct(ctx, mod, guild, res.Match.ID, 2, "e2e"); err != nil {
			t.Fatal(err)
		}
		waitRoles("correction", users)

		// A role removed by hand: the process's reconcile job reads the
		// member and repairs it.
		held, _ := fake.MemberRoles(guild, users[2])
		taken := time.Now()
		fake.TakeRole(guild, users[2], held[0])
		waitRoles("reconcile", users)
		// The repair is a reconcile's: one started after the take, or one
		// running across it that read the member after it.
		runs, err := db.JobRuns(ctx, jobs.JobRoleReconcile)
		if last := len(runs) - 1; err != nil || last < 0 || !(runs[last].FinishedAt.IsZero() || runs[last].FinishedAt.After(taken)) {
			t.Errorf("Got(reconcile runs) = %+v, %v, want one running or finished after the role was taken", runs, err)
		}

		// A role above the bot's: one post to the moderators, the rest go on.
		fake.SetBotTopPosition(guild, 14) // Diamond is at 14
		setRating(users[1], 1950)
		setRating(users[3], 1300)
		deadline := time.Now().Add(30 * time.Second)
		for len(fake.ChannelMessages(modlog)) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		waitRoles("with a problem", []string{users[3]})
		time.Sleep(2500 * time.Millisecond) // two more syncs
		msgs := fake.ChannelMessages(modlog)
		if len(msgs) != 1 || !strings.Contains(msgs[0].Content, "Manage Roles") {
			t.Fatalf("Got(moderator posts) = %+v, want one about Manage Roles", msgs)
		}
		fake.SetBotTopPosition(guild, 100)
		if _, err := svc.SetDivisionRoles(ctx, guild, map[string]string{"Diamond": roles["Diamond"]}); err != nil {
			t.Fatal(err) // remapping clears the problem
		}
		waitRoles("fixed", users)

		// Season rollover, with 429s.
		fake.Inject429(2, 200*time.Millisecond)
		ro, err := svc.EndSeason(ctx, mod, guild, 0)
		if err != nil {
			t.Fatal(err)
		}
		tops := map[string]int{}
		for _, rs := range ro.Standings {
			for _, r := range rs {
				badge[r.UserID] = roles[r.Badge] // top100 is not mapped: ""
				if r.Badge != "" {
					tops[r.Badge]++
				}
			}
		}
		if tops["top3"] != 3 || tops["top30"] == 0 {
			t.Fatalf("Got(badges of the closed season) = %v, want 3 top3 and some top30", tops)
		}
		waitRoles("rollover", users)
		for i, u := range users {
			setRating(u, 1300+float64(i%5)*150)
		}
		waitRoles("new season placed", users)

		// Stale: four players' last match is 40 days old. The stale job is
		// daily (one claim per UTC day), so a new day is stood in for by
		// pruning today's claim; a process started then flags them at its
		// catch-up and its roles job takes their roles.
		past := ladder.NewService(db, ladder.NewManualClock(time.Now().Add(-40*24*time.Hour)))
		if _, err := past.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: users[4:6], Team2: users[6:8], Winner: 1}); err != nil {
			t.Fatal(err)
		}
		waitRoles("before stale", users)
		p.stop()
		if _, err := svc.PruneJobRuns(ctx, []string{jobs.JobStale}, -time.Minute); err != nil {
			t.Fatal(err)
		}
		p2 := newProc(t, "roles-next-day", dsn, fake, 0, 1)
		p2.env = append(p2.env, roleEnv...)
		p2.start()
		for ctx.Err() == nil {
			ss, err := svc.CurrentStandings(ctx, guild, "", users[4:8])
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(ss, func(s ladder.Standing) bool { return !s.Stale }) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		waitRoles("stale", users)
		// Stale players lose their division's role and keep last
		// season's badge; active ones hold both.
		for _, u := range users[4:8] {
			if got, _ := fake.MemberRoles(guild, u); !slices.Equal(got, []string{badge[u]}) {
				t.Errorf("Got(roles of stale %s) = %v, want only their badge's %s", u, got, badge[u])
			}
		}
		if got, _ := fake.MemberRoles(guild, users[0]); len(got) != 2 || !slices.Contains(got, badge[users[0]]) {
			t.Errorf("Got(roles of active %s) = %v, want their division's and their badge's %s", users[0], got, badge[users[0]])
		}
		if un := fake.Unhandled(); len(un) != 0 {
			t.Errorf("Got(unhandled requests) = %+v", un)
		}
		p2.stop()
	})
}
