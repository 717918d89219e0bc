package jobs_test

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

const modlog = "200000000000000009"

// roleEnv is a guild with the five default divisions mapped to roles of a
// fake Discord, and a scheduler whose role calls go through the real bot's
// discordgo session.
type roleEnv struct {
	fake  *fakediscord.Server
	svc   *ladder.Service
	sched *jobs.Scheduler
	clock *ladder.ManualClock
	roles map[string]string // division → role ID
	bot   *bot.Bot
	db    *storage.DB
}

func newRoleEnv(t *testing.T, b string) *roleEnv {
	t.Helper()
	ctx := context.Background()
	fake := fakediscord.New()
	t.Cleanup(fake.Close)
	bt, err := bot.New(bot.Config{Token: "test-token", APIBase: fake.URL()}, commands.NewSet(nil, nil, nil), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("bot.New() = %v", err)
	}
	db, err := storage.Open(ctx, testdb.DSN(t, b), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("storage.Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	clock := ladder.NewManualClock(seasonStart)
	svc := ladder.NewService(db, clock)
	g := setupGuild(t, svc, 0)
	g.LogChannelID = modlog
	if _, err := svc.UpdateGuild(ctx, moderator, g); err != nil {
		t.Fatalf("UpdateGuild() = %v", err)
	}
	e := &roleEnv{fake: fake, svc: svc, clock: clock, roles: map[string]string{}, bot: bt, db: db,
		sched: jobs.New(svc, bt, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond, Roles: bt})}
	set := map[string]string{}
	for i, d := range ladder.DefaultDivisions() {
		e.roles[d.Name] = fake.AddRole(guild, d.Name, 10+i)
		set[strings.ToLower(d.Name)] = e.roles[d.Name]
	}
	if _, err := svc.SetDivisionRoles(ctx, guild, set); err != nil {
		t.Fatalf("SetDivisionRoles() = %v", err)
	}
	return e
}

func (e *roleEnv) set(t *testing.T, u string, r float64) {
	t.Helper()
	if _, err := e.svc.SetRating(context.Background(), moderator, guild, "", u, r, 50, "test"); err != nil {
		t.Fatalf("SetRating(%s, %v) = %v", u, r, err)
	}
}

func (e *roleEnv) sync(t *testing.T) jobs.RoleStats {
	t.Helper()
	st, err := e.sched.SyncRoles(context.Background(), guild)
	if err != nil {
		t.Fatalf("SyncRoles() = %v", err)
	}
	return st
}

// want returns the role u should hold, from the standings the players see.
func (e *roleEnv) want(t *testing.T, u string) []string {
	t.Helper()
	st := standing(t, e.svc, u)
	if st.Provisional || st.Stale {
		return []string{}
	}
	return []string{e.roles[st.Division]}
}

// check compares every player's roles on the fake with their standing.
func (e *roleEnv) check(t *testing.T, when string, users []string) {
	t.Helper()
	for _, u := range users {
		got, _ := e.fake.MemberRoles(guild, u)
		if want := e.want(t, u); !slices.Equal(got, want) {
			t.Errorf("%s: Got(roles of %s) = %v, want %v (%+v)", when, u, got, want, standing(t, e.svc, u))
		}
	}
}

// TestDivisionRolesFollowPlayers moves players up and down divisions, through
// a correction, a stale flag and a season rollover, with 429s injected, and
// checks after each sync that every player holds exactly their division's
// role; a role taken by hand is repaired by the reconcile job only.
func TestDivisionRolesFollowPlayers(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		users := []string{user(1), user(2), user(3), user(4), user(5)}
		other := e.fake.AddRole(guild, "Helper", 3)
		for i, u := range users {
			e.fake.AddMember(guild, u)
			e.set(t, u, 1300+float64(i)*150) // Bronze … Diamond
		}
		e.fake.Inject429(3, 20*time.Millisecond)
		st := e.sync(t)
		if st.Added != 5 || st.Removed != 0 {
			t.Errorf("Got(first sync) = %+v, want 5 added", st)
		}
		e.check(t, "first sync", users)
		if n := e.fake.Count429(); n != 3 {
			t.Errorf("Got(429s answered) = %d, want the 3 injected", n)
		}

		// Up and down: Bronze → Diamond, Diamond → Silver.
		e.set(t, user(1), 1900)
		e.set(t, user(5), 1450)
		before := e.fake.RoleRequests()
		e.fake.Inject429(2, 20*time.Millisecond)
		st = e.sync(t)
		if st.Added != 2 || st.Removed != 2 {
			t.Errorf("Got(sync after two moves) = %+v, want 2 added, 2 removed", st)
		}
		if n := e.fake.RoleRequests() - before; n != 6 {
			t.Errorf("Got(requests of the sync) = %d, want 4 and 2 injected 429s", n)
		}
		e.check(t, "after moves", users)
		before = e.fake.RoleRequests()
		if st := e.sync(t); st != (jobs.RoleStats{}) {
			t.Errorf("Got(sync with nothing changed) = %+v, want nothing done", st)
		}
		if n := e.fake.RoleRequests() - before; n != 0 {
			t.Errorf("Got(requests of a sync with nothing changed) = %d, want 0", n)
		}

		// A rated match and its correction.
		m := record(t, e.svc, user(2), user(3), user(4), user(1), 1)
		e.sync(t)
		e.check(t, "after a match", users)
		if _, err := e.svc.Correct(ctx, moderator, guild, m.Match.ID, 2, "wrong winner"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		e.sync(t)
		e.check(t, "after a correction", users)

		// A role removed by hand: the sync trusts its applied state, the
		// reconcile job reads the member and gives it back.
		held, _ := e.fake.MemberRoles(guild, user(3))
		e.fake.TakeRole(guild, user(3), held[0])
		if got, _ := e.fake.MemberRoles(guild, user(3)); len(got) != 0 {
			t.Fatalf("Got(roles after TakeRole) = %v, want none", got)
		}
		rs, err := e.sched.ReconcileRoles(ctx, guild)
		if err != nil || rs.Added != 1 || rs.Checked != 5 {
			t.Errorf("Got(ReconcileRoles) = %+v, %v, want 5 checked, 1 added", rs, err)
		}
		e.check(t, "after reconcile", users)

		// A mapped role given by hand to the wrong player is taken back by
		// the reconcile; an unmapped one is left alone.
		e.fake.SetManageRoles(guild, true)
		if err := e.bot.AddMemberRole(ctx, guild, user(2), e.roles["Diamond"]); err != nil {
			t.Fatalf("hand add = %v", err)
		}
		if err := e.bot.AddMemberRole(ctx, guild, user(2), other); err != nil {
			t.Fatalf("hand add = %v", err)
		}
		if _, err := e.sched.ReconcileRoles(ctx, guild); err != nil {
			t.Fatalf("ReconcileRoles() = %v", err)
		}
		got, _ := e.fake.MemberRoles(guild, user(2))
		if want := append(e.want(t, user(2)), other); !sameSet(got, want) {
			t.Errorf("Got(roles of %s after reconcile) = %v, want %v", user(2), got, want)
		}

		// Stale: everyone idle for the guild's stale days loses their role.
		e.clock.Add(40 * 24 * time.Hour)
		if _, err := e.svc.MarkStale(ctx, guild); err != nil {
			t.Fatalf("MarkStale() = %v", err)
		}
		e.sync(t)
		for _, u := range users[:4] {
			if got, _ := e.fake.MemberRoles(guild, u); len(got) != 0 && !(u == user(2) && slices.Equal(got, []string{other})) {
				t.Errorf("Got(roles of stale %s) = %v, want no division role", u, got)
			}
		}

		// Season rollover: the new season's standings decide.
		for i, u := range users {
			e.set(t, u, 1300+float64(i)*150)
		}
		e.sync(t)
		if _, err := e.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		e.fake.Inject429(2, 20*time.Millisecond)
		e.sync(t)
		for _, u := range users {
			got, _ := e.fake.MemberRoles(guild, u)
			got = slices.DeleteFunc(got, func(r string) bool { return r == other })
			if want := e.want(t, u); !slices.Equal(got, want) {
				t.Errorf("after rollover: Got(roles of %s) = %v, want %v", u, got, want)
			}
		}
		if len(e.fake.Unhandled()) != 0 {
			t.Errorf("Got(unhandled requests) = %+v", e.fake.Unhandled())
		}
	})
}

// memberReads counts the reconcile's reads of members on the fake.
func (e *roleEnv) memberReads() int {
	n := 0
	for _, r := range e.fake.Requests() {
		if r.Method == "GET" && strings.Contains(r.Path, "/members/") {
			n++
		}
	}
	return n
}

// TestReconcileCatchUp restarts processes around the daily 03:30
// reconcile: one started before 03:30 after yesterday's run does not run it
// again, one that was down over 03:30 runs the missed reconcile at start-up
// and repairs a role removed by hand, and a restart the same day reads
// nobody. With ReconcileInterval set, each interval runs once.
func TestReconcileCatchUp(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		u := user(1)
		e.fake.AddMember(guild, u)
		e.set(t, u, 1600) // Gold
		e.sync(t)
		restart := func(when time.Time, interval time.Duration) (reads int) {
			t.Helper()
			e.clock.Set(when)
			before := e.memberReads()
			startStop(t, jobs.New(e.svc, e.bot, slog.New(slog.DiscardHandler), jobs.Options{PostBackoff: time.Millisecond, Roles: e.bot, ReconcileInterval: interval}))
			return e.memberReads() - before
		}
		e.clock.Set(time.Date(2026, 1, 6, 3, 30, 0, 0, time.UTC))
		if !run(t, &proc{svc: e.svc, sched: e.sched}, jobs.JobRoleReconcile) {
			t.Fatal("Got(reconcile at 03:30) ran = false, want true")
		}
		e.fake.TakeRole(guild, u, e.roles["Gold"])

		if n := restart(time.Date(2026, 1, 7, 2, 0, 0, 0, time.UTC), 0); n != 0 {
			t.Errorf("Got(member reads of a start at 02:00 after yesterday's reconcile) = %d, want 0", n)
		}
		if got, _ := e.fake.MemberRoles(guild, u); len(got) != 0 {
			t.Fatalf("Got(roles before the missed reconcile) = %v, want none", got)
		}
		// Down over January 7 and 8, 03:30: one catch-up run repairs.
		if n := restart(time.Date(2026, 1, 9, 10, 0, 0, 0, time.UTC), 0); n != 1 {
			t.Errorf("Got(member reads of the catch-up) = %d, want 1", n)
		}
		if got, _ := e.fake.MemberRoles(guild, u); !slices.Equal(got, []string{e.roles["Gold"]}) {
			t.Errorf("Got(roles after the catch-up) = %v, want Gold", got)
		}
		if n := restart(time.Date(2026, 1, 9, 11, 0, 0, 0, time.UTC), 0); n != 0 {
			t.Errorf("Got(member reads of a second start the same day) = %d, want 0", n)
		}
		runs, err := e.db.JobRuns(ctx, jobs.JobRoleReconcile)
		if err != nil || len(runs) != 2 || runs[0].Period != "2026-01-06" || runs[1].Period != "2026-01-09" {
			t.Errorf("Got(reconcile runs) = %+v, %v, want January 6 and 9", runs, err)
		}

		// Hourly: a start runs the current hour, once.
		if n := restart(time.Date(2026, 1, 9, 12, 10, 0, 0, time.UTC), time.Hour); n != 1 {
			t.Errorf("Got(member reads of an hourly start) = %d, want 1", n)
		}
		if n := restart(time.Date(2026, 1, 9, 12, 50, 0, 0, time.UTC), time.Hour); n != 0 {
			t.Errorf("Got(member reads of a second start in the hour) = %d, want 0", n)
		}
		if n := restart(time.Date(2026, 1, 9, 13, 0, 0, 0, time.UTC), time.Hour); n != 1 {
			t.Errorf("Got(member reads of a start in the next hour) = %d, want 1", n)
		}
	})
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestDivisionRoleProblems: a role above the bot's and a deleted role are
// each recorded and posted to the moderators' channel once, shown by
// DivisionRoleConfig, and the other players' roles keep syncing.
func TestDivisionRoleProblems(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		users := []string{user(1), user(2), user(3)}
		for _, u := range users {
			e.fake.AddMember(guild, u)
		}
		e.set(t, user(1), 1900)             // Diamond
		e.set(t, user(2), 1600)             // Gold
		e.set(t, user(3), 1300)             // Bronze
		e.fake.SetBotTopPosition(guild, 14) // Diamond sits at 14
		e.fake.DeleteRole(guild, e.roles["Gold"])
		e.sync(t)
		before := e.fake.RoleRequests()
		for range 2 {
			e.sync(t)
		}
		if n := e.fake.RoleRequests() - before; n != 0 {
			t.Errorf("Got(requests of two more syncs with the problems unfixed) = %d, want 0", n)
		}
		if got, _ := e.fake.MemberRoles(guild, user(3)); !slices.Equal(got, []string{e.roles["Bronze"]}) {
			t.Errorf("Got(roles of the Bronze player) = %v, want Bronze: the ladder keeps working", got)
		}
		msgs := e.fake.ChannelMessages(modlog)
		if len(msgs) != 2 {
			t.Fatalf("Got(moderator posts) = %d, want 2 (one per problem)", len(msgs))
		}
		text := msgs[0].Content + msgs[1].Content
		if !strings.Contains(text, "Manage Roles") || !strings.Contains(text, "no longer exists") {
			t.Errorf("Got(posts) = %q, want the missing permission and the deleted role explained", text)
		}
		cfg, err := e.svc.DivisionRoleConfig(ctx, guild)
		if err != nil || len(cfg.Problems) != 2 {
			t.Fatalf("Got(DivisionRoleConfig) = %+v, %v, want 2 problems", cfg, err)
		}
		// Remapping clears the problems; a fixed permission lets Diamond through.
		e.fake.SetBotTopPosition(guild, 100)
		gold := e.fake.AddRole(guild, "Gold 2", 11)
		if _, err := e.svc.SetDivisionRoles(ctx, guild, map[string]string{"Gold": gold}); err != nil {
			t.Fatalf("SetDivisionRoles() = %v", err)
		}
		e.sync(t)
		if got, _ := e.fake.MemberRoles(guild, user(1)); !slices.Equal(got, []string{e.roles["Diamond"]}) {
			t.Errorf("Got(roles of the Diamond player after the fix) = %v", got)
		}
		if got, _ := e.fake.MemberRoles(guild, user(2)); !slices.Equal(got, []string{gold}) {
			t.Errorf("Got(roles of the Gold player after the remap) = %v", got)
		}
		if cfg, _ := e.svc.DivisionRoleConfig(ctx, guild); len(cfg.Problems) != 0 {
			t.Errorf("Got(problems after the fix) = %+v, want none", cfg.Problems)
		}

		// A role deleted while players hold it: moving off it is no problem.
		e.fake.DeleteRole(guild, gold)
		e.set(t, user(2), 1300)
		st := e.sync(t)
		if got, _ := e.fake.MemberRoles(guild, user(2)); !slices.Equal(got, []string{e.roles["Bronze"]}) || st.Problems != 0 {
			t.Errorf("Got(roles of a player moved off a deleted role) = %v, %+v, want Bronze and no problem", got, st)
		}
		if n := len(e.fake.ChannelMessages(modlog)); n != 2 {
			t.Errorf("Got(moderator posts) = %d, want still 2", n)
		}
	})
}

// TestRollover500Players ends a season of 500 listed players spread over the
// five divisions and syncs the roles: it logs how long the sync took and how
// many requests it made. The fake's bucket is 100 requests per 200 ms; at
// Discord's real pace the time is what the request count and the bucket in
// X-RateLimit-* make it (docs/operating.md).
func TestRollover500Players(t *testing.T) {
	if testing.Short() {
		t.Skip("500 players")
	}
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		e.fake.SetRoleRateLimit(100, 200*time.Millisecond)
		var users []string
		for i := range 500 {
			u := user(i + 1)
			users = append(users, u)
			e.fake.AddMember(guild, u)
			e.set(t, u, 1200+float64(i)) // 1200 … 1699: Bronze, Silver, Gold
		}
		start := time.Now()
		st := e.sync(t)
		t.Logf("%s: first sync of 500 players: %v, %d requests, %+v", b, time.Since(start), e.fake.RoleRequests(), st)
		if st.Added != 500 {
			t.Fatalf("Got(first sync) = %+v, want 500 added", st)
		}
		if _, err := e.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		before, before429 := e.fake.RoleRequests(), e.fake.Count429()
		start = time.Now()
		st = e.sync(t)
		el, n := time.Since(start), e.fake.RoleRequests()-before
		t.Logf("%s: rollover sync of 500 players: %v, %d requests (%d answered 429), %+v", b, el, n, e.fake.Count429()-before429, st)
		if n > 1000 {
			t.Errorf("Got(requests of the rollover sync) = %d, want at most 2 per player", n)
		}
		for _, u := range users[:20] {
			got, _ := e.fake.MemberRoles(guild, u)
			if want := e.want(t, u); !slices.Equal(got, want) {
				t.Errorf("after rollover: Got(roles of %s) = %v, want %v", u, got, want)
			}
		}
	})
}

// wantAll returns the mapped roles each of users should hold: their
// division's when listed in the running season, and the role of the badge
// they earned in the last closed season (badge → role).
func (e *roleEnv) wantAll(t *testing.T, users []string, badgeRoles map[string]string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	for _, u := range users {
		out[u] = e.want(t, u)
	}
	cur, err := e.svc.LatestSeason(ctx, guild)
	if err != nil {
		t.Fatalf("LatestSeason() = %v", err)
	}
	if cur.Number > 1 {
		rs, err := e.svc.SeasonResults(ctx, guild, "", cur.Number-1)
		if err != nil {
			t.Fatalf("SeasonResults() = %v", err)
		}
		for _, r := range rs {
			if role := badgeRoles[r.Badge]; role != "" && slices.Contains(users, r.UserID) {
				out[r.UserID] = append(out[r.UserID], role)
			}
		}
	}
	return out
}

// checkAll compares every player's roles on the fake (other roles left
// out) with wantAll.
func (e *roleEnv) checkAll(t *testing.T, when string, users []string, badgeRoles map[string]string, other string) {
	t.Helper()
	for u, want := range e.wantAll(t, users, badgeRoles) {
		got, _ := e.fake.MemberRoles(guild, u)
		got = slices.DeleteFunc(got, func(r string) bool { return r == other })
		if !sameSet(got, want) {
			t.Errorf("%s: Got(roles of %s) = %v, want %v", when, u, got, want)
		}
	}
}

// TestBadgeRoles maps last season's top 3/30/100 badges to roles beside
// the divisions: nobody holds one before a season closes; after a rollover
// each player holds the badge of the closed season (with their division
// role once they play again), the badges move at the next rollover, an
// unmapped badge and an unmapped role are never touched, a badge role
// removed by hand is repaired by the reconcile, and a deleted badge role is
// reported once while the rest keep syncing.
func TestBadgeRoles(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		e := newRoleEnv(t, b)
		badge := map[string]string{
			"top3":   e.fake.AddRole(guild, "Top 3", 20),
			"top30":  e.fake.AddRole(guild, "Top 30", 21),
			"top100": e.fake.AddRole(guild, "Top 100", 22),
		}
		other := e.fake.AddRole(guild, "Helper", 3)
		mapped := map[string]string{"top3": badge["top3"], "top30": badge["top30"]} // top100 later
		if _, err := e.svc.SetBadgeRoles(ctx, guild, map[string]string{"TOP3": badge["top3"], "top30": badge["top30"]}); err != nil {
			t.Fatalf("SetBadgeRoles() = %v", err)
		}
		var users []string
		for i := range 32 {
			u := user(i + 1)
			users = append(users, u)
			e.fake.AddMember(guild, u)
			e.set(t, u, 1900-float64(i)*10) // user 1 best
		}
		if err := e.bot.AddMemberRole(ctx, guild, user(31), other); err != nil {
			t.Fatalf("hand add = %v", err)
		}
		e.sync(t)
		e.checkAll(t, "season 1", users, mapped, other)
		for _, u := range users {
			if got, _ := e.fake.MemberRoles(guild, u); slices.Contains(got, badge["top3"]) || slices.Contains(got, badge["top30"]) {
				t.Fatalf("Got(roles of %s before any season closed) = %v, want no badge", u, got)
			}
		}

		// Rollover: division roles go (nobody has played season 2), the
		// closed season's badges come.
		if _, err := e.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		e.fake.Inject429(2, 20*time.Millisecond)
		e.sync(t)
		e.checkAll(t, "after the first rollover", users, mapped, other)
		if got, _ := e.fake.MemberRoles(guild, user(1)); !slices.Equal(got, []string{badge["top3"]}) {
			t.Errorf("Got(roles of season 1's best) = %v, want only Top 3", got)
		}
		if got, _ := e.fake.MemberRoles(guild, user(31)); !slices.Equal(got, []string{other}) {
			t.Errorf("Got(roles of rank 31, top100 unmapped) = %v, want only the unmapped role", got)
		}

		// Mapping top100 gives it; playing again adds the division role.
		if _, err := e.svc.SetBadgeRoles(ctx, guild, map[string]string{"top100": badge["top100"]}); err != nil {
			t.Fatalf("SetBadgeRoles(top100) = %v", err)
		}
		mapped["top100"] = badge["top100"]
		for i, u := range users {
			e.set(t, u, 1300+float64(i)*10) // reversed: user 32 best
		}
		e.sync(t)
		e.checkAll(t, "season 2 placed", users, mapped, other)
		if got, _ := e.fake.MemberRoles(guild, user(31)); !sameSet(got, []string{other, badge["top100"], e.roles["Gold"]}) {
			t.Errorf("Got(roles of rank 31 in season 2) = %v, want the unmapped role, Top 100 and Gold", got)
		}

		// A badge role removed by hand: the reconcile gives it back.
		e.fake.TakeRole(guild, user(2), badge["top3"])
		if st := e.sync(t); st.Added != 0 {
			t.Errorf("Got(sync after a hand removal) = %+v, want nothing added: the sync trusts its applied state", st)
		}
		if st, err := e.sched.ReconcileRoles(ctx, guild); err != nil || st.Added != 1 || st.Checked != 32 {
			t.Errorf("Got(ReconcileRoles) = %+v, %v, want 32 checked, 1 added", st, err)
		}
		e.checkAll(t, "after the reconcile", users, mapped, other)

		// The next rollover moves the badges: season 2's order is reversed.
		if _, err := e.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		e.sync(t)
		e.checkAll(t, "after the second rollover", users, mapped, other)
		if got, _ := e.fake.MemberRoles(guild, user(32)); !slices.Equal(got, []string{badge["top3"]}) {
			t.Errorf("Got(roles of season 2's best) = %v, want only Top 3", got)
		}
		if got, _ := e.fake.MemberRoles(guild, user(1)); !slices.Equal(got, []string{badge["top100"]}) {
			t.Errorf("Got(roles of season 2's last) = %v, want only Top 100", got)
		}

		// A deleted badge role: reported once, the others keep syncing.
		e.fake.DeleteRole(guild, badge["top3"])
		for i, u := range users {
			e.set(t, u, 1900-float64(i)*10) // user 1 best again
		}
		if _, err := e.svc.EndSeason(ctx, moderator, guild, 0); err != nil {
			t.Fatalf("EndSeason() = %v", err)
		}
		for range 2 {
			e.sync(t)
		}
		msgs := e.fake.ChannelMessages(modlog)
		if len(msgs) != 1 || !strings.Contains(msgs[0].Content, "<@&"+badge["top3"]+"> no longer exists") {
			t.Fatalf("Got(moderator posts) = %+v, want one about the deleted Top 3 role", msgs)
		}
		if got, _ := e.fake.MemberRoles(guild, user(10)); !slices.Equal(got, []string{badge["top30"]}) {
			t.Errorf("Got(roles of rank 10 with Top 3 deleted) = %v, want Top 30: the rest keep syncing", got)
		}
		if cfg, err := e.svc.DivisionRoleConfig(ctx, guild); err != nil || len(cfg.Problems) != 1 || len(cfg.Badges) != 3 {
			t.Errorf("Got(DivisionRoleConfig) = %+v, %v, want 3 badges and the problem", cfg, err)
		}
		if len(e.fake.Unhandled()) != 0 {
			t.Errorf("Got(unhandled requests) = %+v", e.fake.Unhandled())
		}
	})
}
