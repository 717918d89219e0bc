package bot

import (
	"fmt"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestSQLiteLadderNightReadsNoHistory plays ladder nights through the fake
// Discord by buttons (a room played by Ready, We won and Confirm, a
// substitute, a cancelled match, a match formed by the matchmaking job,
// map bans in turn with one timed out, and the commands that read the
// ladder) on a SQLite ladder whose players already
// have a history, recording every statement the bot, the rooms, the
// formats and the jobs send, and asks SQLite for each one's plan: none may
// scan a table that grows with the history, nor read one by the guild
// alone (testdb.NoHistoryScans). What a night costs must be its own work,
// however long the guild has played.
func TestSQLiteLadderNightReadsNoHistory(t *testing.T) {
	rooms := func(run func(*testing.T, *roomEnv)) func(*testing.T, func(*storage.DB)) (*ladder.Service, *storage.DB, func()) {
		return func(t *testing.T, opened func(*storage.DB)) (*ladder.Service, *storage.DB, func()) {
			r := newRoomEnvOver(t, freshDSN(t, testdb.SQLite), opened)
			return r.svc, r.db, func() { run(t, r) }
		}
	}
	lobby := func(run func(*testing.T, *lobbyEnv)) func(*testing.T, func(*storage.DB)) (*ladder.Service, *storage.DB, func()) {
		return func(t *testing.T, opened func(*storage.DB)) (*ladder.Service, *storage.DB, func()) {
			l := newLobbyEnvOpened(t, freshDSN(t, testdb.SQLite), TransportGateway, opened)
			return l.svc, l.db, func() { run(t, l) }
		}
	}
	for _, sc := range []struct {
		name string
		env  func(*testing.T, func(*storage.DB)) (*ladder.Service, *storage.DB, func())
	}{
		{"thread room played by buttons", rooms(testThreadRoom)},
		{"substitute admitted to the thread", rooms(testRoomSub)},
		{"a cancelled match's room closes too", rooms(testRoomCancelled)},
		{"formed by the matchmaking job", rooms(testRoomScheduled)},
		{"map bans in turn", lobby(testMapBans)},
		{"the read commands", rooms(testReadCommands)},
	} {
		t.Run(sc.name, func(t *testing.T) {
			var sent func() []testdb.Statement
			svc, db, play := sc.env(t, func(db *storage.DB) {
				// Before the bot starts, so that no query runs while
				// the callbacks are registered.
				sent = testdb.CaptureStatements(t, db.Gorm())
			})
			// A history: 60 rated results of the default queue among the
			// night's players and 12 others.
			others := make([]string, 12)
			for i := range others {
				others[i] = fmt.Sprintf("6000000000000000%02d", i+1)
			}
			if _, err := svc.EnsureGuild(t.Context(), testGuild); err != nil {
				t.Fatalf("EnsureGuild() = %v", err)
			}
			ids := append([]string{players[0].ID, players[1].ID, players[2].ID, players[3].ID}, others...)
			laddertest.RecordHistory(t, svc, testGuild, ids, 60)
			play()
			// The guild's history page walks its matches newest first and
			// keeps the rated ones, nearly all of a guild's.
			n := testdb.NoHistoryScans(t, db.SQL(), sent(),
				testdb.HistoryPageWalk)
			if n < 40 {
				t.Errorf("Got(%d distinct statements), want a night's reads and writes (at least 40)", n)
			}
			t.Logf("%d distinct statements planned", n)
		})
	}
}

// testReadCommands runs the commands that read the ladder, as a player and
// as the server's owner, and wants an answer from each.
func testReadCommands(t *testing.T, r *roomEnv) {
	p1, p2 := players[0], players[1]
	for _, c := range []struct {
		u    fakediscord.User
		path string
		opts map[string]any
	}{
		{p1, "leaderboard", nil},
		{p1, "profile", nil},
		{p1, "profile", map[string]any{"player": p2.ID}},
		{p1, "match show", nil},
		{p1, "queue status", nil},
		{p1, "history", nil},
		{p1, "history", map[string]any{"player": p2.ID}},
		{p1, "stats", nil},
		{p1, "compare", map[string]any{"a": p1.ID, "b": p2.ID}},
		{owner, "mod disputes", nil},
		{owner, "mod flags", map[string]any{"player": p2.ID}},
	} {
		if res := r.slash(c.u, c.path, c.opts); res.Message.Text() == "" {
			t.Errorf("Got(/%s) = an empty answer, want one", c.path)
		}
	}
}
