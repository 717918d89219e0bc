package storage_test

import (
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestSQLitePlayerPathsReadNoHistory runs what players and moderators do
// all night over a SQLite ladder with a history: a result posted to the
// API, a match opened, reported and confirmed, one disputed and resolved,
// one cancelled, a queue joined and left, predictions and MVP votes, and
// the reads of the pages and commands (leaderboard, profile, a match, a
// player's history, a head-to-head, the season's stats and predictors) and
// of the moderators' dashboard (disputed matches, a correction and its
// preview, a player's behaviour, the audit log).
// It records every statement the ORM sends and asks SQLite for its plan:
// none may scan a table that grows with the history (testdb.HistoryTables)
// other than through a partial index of the few rows it looks for. With
// the derived rows wired in as the bot wires them, this covers the one
// rated write too. A statement that filters a history table by a bound
// list of states, or by a column no index leads with, fails here, since it
// costs every match ever played on each call.
func TestSQLitePlayerPathsReadNoHistory(t *testing.T) {
	db, _ := laddertest.OpenDerived(t, testdb.SQLite, nil)
	clock := laddertest.Clock()
	svc := laddertest.Service(t, db, clock, guild)
	comm := community.New(db, svc)
	e := &env{db: db, svc: svc, clock: clock, ctx: t.Context()}
	ctx := e.ctx
	ids := make([]string, 16)
	for i := range ids {
		ids[i] = user(i)
	}
	laddertest.RecordHistory(t, svc, guild, ids, 48)
	if _, err := comm.SetSettings(ctx, mod, guild, "", new(true), new(true)); err != nil {
		t.Fatalf("SetSettings() = %v", err)
	}

	sent := testdb.CaptureStatements(t, db.Gorm())
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s = %v", what, err)
		}
	}
	in := result([]string{user(0), user(1)}, []string{user(2), user(3)}, 1)
	in.IdempotencyKey = "history-plans"
	_, err := svc.RecordResult(ctx, in)
	must("RecordResult()", err)
	_, errs := svc.RecordResults(ctx, []ladder.ResultInput{result([]string{user(4), user(5)}, []string{user(6), user(7)}, 2),
		result([]string{user(8), user(9)}, []string{user(10), user(11)}, 1)})
	for _, err := range errs {
		must("RecordResults()", err)
	}

	m := open2v2(t, e, user(0), user(1), user(2), user(3))
	_, err = comm.Predict(ctx, guild, user(20), m.ID, 1)
	must("Predict()", err)
	_, err = svc.Report(ctx, ladder.Actor{UserID: user(0)}, guild, m.ID, ladder.Win)
	must("Report()", err)
	_, err = svc.Confirm(ctx, ladder.Actor{UserID: user(2)}, guild, m.ID)
	must("Confirm()", err)
	_, err = comm.VoteMVP(ctx, guild, user(1), m.ID, user(0))
	must("VoteMVP()", err)

	d := open2v2(t, e, user(4), user(5), user(6), user(7))
	_, err = svc.Report(ctx, ladder.Actor{UserID: user(4)}, guild, d.ID, ladder.Win)
	must("Report()", err)
	_, err = svc.Dispute(ctx, ladder.Actor{UserID: user(6)}, guild, d.ID, "they left early", "")
	must("Dispute()", err)
	_, err = svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateDisputed}, Limit: 100})
	must("Matches(disputed)", err)
	_, err = svc.Resolve(ctx, mod, guild, d.ID, 2, "checked the replay")
	must("Resolve()", err)
	_, err = svc.PreviewCorrection(ctx, mod, guild, d.ID, 1)
	must("PreviewCorrection()", err)
	_, err = svc.Correct(ctx, mod, guild, d.ID, 1, "wrong side")
	must("Correct()", err)

	c := open2v2(t, e, user(8), user(9), user(10), user(11))
	_, err = svc.Cancel(ctx, mod, guild, c.ID, "server down")
	must("Cancel()", err)

	_, err = svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guild, UserID: user(30), Name: "thirty"})
	must("JoinQueue()", err)
	_, _, err = svc.LeaveQueue(ctx, guild, user(30))
	must("LeaveQueue()", err)

	_, err = svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild})
	must("Leaderboard()", err)
	_, err = svc.Profile(ctx, ladder.ProfileQuery{GuildID: guild, UserID: user(0)})
	must("Profile()", err)
	_, err = svc.MatchDetail(ctx, guild, m.ID)
	must("MatchDetail()", err)
	_, err = svc.Matches(ctx, ladder.MatchFilter{GuildID: guild, Limit: 20})
	must("Matches()", err)
	_, err = svc.CurrentStandings(ctx, guild, "", []string{user(0), user(1)})
	must("CurrentStandings()", err)
	_, err = svc.Partners(ctx, guild, "", 0, user(0), 10)
	must("Partners()", err)
	_, _, err = svc.Lobby(ctx, guild, "")
	must("Lobby()", err)
	_, err = svc.Behaviour(ctx, guild, user(0))
	must("Behaviour()", err)
	_, err = svc.PlayerNames(ctx, guild, []string{user(0), user(1)})
	must("PlayerNames()", err)
	_, err = svc.Audit(ctx, guild, 100)
	must("Audit()", err)
	_, err = comm.History(ctx, community.HistoryQuery{GuildID: guild, Player: user(0), Limit: 20})
	must("History()", err)
	_, err = comm.History(ctx, community.HistoryQuery{GuildID: guild, Limit: 20})
	must("History(guild)", err)
	_, err = comm.Compare(ctx, guild, user(0), user(1), "", 0)
	must("Compare()", err)
	_, err = comm.Stats(ctx, guild, "", 0, 10)
	must("Stats()", err)
	_, _, err = comm.Predictors(ctx, guild, "", 0, 10)
	must("Predictors()", err)
	_, err = comm.PlayerMVPs(ctx, guild, "", user(0), 0)
	must("PlayerMVPs()", err)

	// The guild's history page walks its matches newest first and keeps
	// the rated ones: nearly every match of a guild is rated (the rest are
	// the few cancelled, voided or still in play), so the walk stops about
	// a page's length in (BenchmarkHistoryPage/*/guild).
	n := testdb.NoHistoryScans(t, db.SQL(), sent(),
		testdb.HistoryPageWalk)
	if n < 40 {
		t.Errorf("Got(%d distinct statements), want the paths' reads and writes (at least 40)", n)
	}
	t.Logf("%d distinct statements planned", n)
	// A name is looked up by its player: a join that reads the players of
	// the guild by the guild alone read them all for every row of the
	// other side (the season's partnerships took 3.8 s over the ATP
	// history when SQLite put the players in the outer loops).
	for _, s := range sent() {
		for _, d := range testdb.SQLitePlan(t, db.SQL(), s.SQL, s.Vars...) {
			if (strings.HasPrefix(d, "SEARCH") || strings.HasPrefix(d, "SCAN")) && strings.Contains(d, "players_1 (guild_id=?)") &&
				!strings.Contains(d, "match_players") {
				t.Errorf("Got(plan of %s) has %q, want players read by guild and user", strings.Join(strings.Fields(s.SQL), " "), d)
			}
		}
	}
}
