package storage

import (
	"context"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestMatchReplaysBackfill: migration 00710 keeps, for every replay that
// proved a match before it, the replay's ID as ladder.ReplayKey writes it
// (whatever spelling the player gave), the earliest match keeping a replay
// given twice, so that a replay used before the upgrade cannot prove a
// rematch after it.
func TestMatchReplaysBackfill(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		db, p := migrator(t, backend)
		if _, err := p.DownTo(ctx, 700); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
		urls := []struct {
			guild, url string
			match      int64
		}{
			{"1", "https://replay.pokemonshowdown.com/gen9multirandombattle-2641276114", 5},
			{"1", "  HTTPS://replay.pokemonshowdown.com/Gen9MultiRandomBattle-2641276114.json?p2#end  ", 9},
			{"1", "https://replay.pokemonshowdown.com/gen9doublesou-77.log/", 6},
			{"2", "https://replay.pokemonshowdown.com/gen9multirandombattle-2641276114?x=1", 3},
			{"2", "http://replay.pokemonshowdown.com/smogtours-gen9-123#turn3", 4},
		}
		for i, u := range urls {
			err := db.db.Exec("INSERT INTO audit_log (guild_id, actor_id, action, match_id, reason, at) VALUES (?, '7', 'replay_confirm', ?, ?, ?)",
				u.guild, u.match, u.url, at.Add(time.Duration(i)*time.Minute)).Error
			if err != nil {
				t.Fatal(err)
			}
		}
		// Another action's reason is no replay.
		if err := db.db.Exec("INSERT INTO audit_log (guild_id, actor_id, action, match_id, reason, at) VALUES ('1', '7', 'dispute', 8, 'https://x/y', ?)", at).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatal(err)
		}
		var rows []matchReplayRow
		if err := db.db.Order("guild_id, replay_id").Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		want := []matchReplayRow{
			{"1", "gen9doublesou-77", 6, at.Add(2 * time.Minute)},
			{"1", "gen9multirandombattle-2641276114", 5, at},
			{"2", "gen9multirandombattle-2641276114", 3, at.Add(3 * time.Minute)},
			{"2", "smogtours-gen9-123", 4, at.Add(4 * time.Minute)},
		}
		if len(rows) != len(want) {
			t.Fatalf("Got(match_replays) = %+v, want %+v", rows, want)
		}
		for i, r := range rows {
			w := want[i]
			if r.GuildID != w.GuildID || r.ReplayID != w.ReplayID || r.MatchID != w.MatchID || !r.At.Equal(w.At) {
				t.Errorf("Got(row %d) = %+v, want %+v", i, r, w)
			}
		}
		// The Go key agrees with the migration's on every spelling.
		for _, u := range urls {
			var id string
			if err := db.db.Raw("SELECT replay_id FROM match_replays WHERE guild_id = ? AND match_id = ?", u.guild, u.match).Scan(&id).Error; err != nil {
				t.Fatal(err)
			}
			if id != "" && id != ladder.ReplayKey(u.url) {
				t.Errorf("ReplayKey(%q) = %q, the migration kept %q", u.url, ladder.ReplayKey(u.url), id)
			}
		}
	})
}
