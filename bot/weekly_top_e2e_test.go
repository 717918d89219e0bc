package bot

import (
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
)

// TestWeeklyTopSwitch: a server's admins turn the weekly top 10 on and off
// with /config channels weekly_top, and /config show says which; before,
// no command set it and the weekly post could only be turned on in the
// database.
func TestWeeklyTopSwitch(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		r := e.slash(owner, "config channels", map[string]any{"announce": testChannel, "weekly_top": true})
		wantText(t, "on", r, "Saved")
		if g, err := e.svc.Guild(e.ctx, testGuild); err != nil || !g.WeeklyTop || g.AnnounceChannelID != testChannel {
			t.Fatalf("Got(guild) = weekly top %v, announce %q, %v; want on, %s", g.WeeklyTop, g.AnnounceChannelID, err, testChannel)
		}
		show := e.slash(owner, "config show", nil)
		wantText(t, "show", show, "Weekly top 10")
		for _, f := range show.Message.Embeds[0].Fields {
			if f.Name == "Weekly top 10" && f.Value != "on" {
				t.Errorf("Got(/config show weekly top) = %q, want on", f.Value)
			}
		}
		wantText(t, "off", e.slash(owner, "config channels", map[string]any{"weekly_top": false}), "Saved")
		if g, _ := e.svc.Guild(e.ctx, testGuild); g.WeeklyTop || g.AnnounceChannelID != testChannel {
			t.Errorf("Got(guild) = weekly top %v, announce %q; want off, the channel kept", g.WeeklyTop, g.AnnounceChannelID)
		}
		wantText(t, "none", e.slash(owner, "config channels", nil), "give announce, log, results, weekly_top or several")
		// Only the server's managers change it.
		wantText(t, "player", e.slash(players[0], "config channels", map[string]any{"weekly_top": true}), "Manage Server")
		if g, _ := e.svc.Guild(e.ctx, testGuild); g.WeeklyTop {
			t.Error("Got(weekly top after a player's try) = on, want off")
		}
	})
}
