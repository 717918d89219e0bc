package bot

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestCorrectionOfPlayersOutsideDiscord: a game server records results
// through the API with its own player IDs (here Steam's, beside one
// Discord user). A moderator's correction of such a match posts the
// outcome in the channel and pings its players; the bot listed every
// player in allowed_mentions.users, Discord refuses a message whose list
// holds anything but a snowflake, and the post was lost. It also wrote
// the IDs as mentions, "<@steam:…>", which Discord shows as raw text. The
// post now pings the Discord user alone and names the others as they are.
func TestCorrectionOfPlayersOutsideDiscord(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		e := newEnv(t, freshDSN(t, backend))
		e.slash(owner, "config moderator", map[string]any{"role": modRole})
		discordUser := players[0].ID
		res, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Winner: 1,
			Team1: []string{discordUser, "steam:76561198000000001"}, Team2: []string{"steam:76561198000000002", "steam:76561198000000003"}})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Match.ID
		prev := e.slash(mod, "mod correct", map[string]any{"match": int(id), "winner": 2})
		wantText(t, "preview", prev, "Nothing has changed yet")
		applied := e.clickLabel(mod, prev.Message, "Apply correction")
		wantText(t, "apply", applied, "Team 2 won")
		post := e.channelMessage(fmt.Sprintf("Match #%d is now", id))
		if !slices.Equal(post.Mentions, []string{discordUser}) {
			t.Errorf("Got(post's allowed mentions) = %v, want the Discord user alone", post.Mentions)
		}
		if strings.Contains(post.Content, "<@steam:") || !strings.Contains(post.Content, "steam:76561198000000002") || !strings.Contains(post.Content, "<@"+discordUser+">") {
			t.Errorf("Got(post) = %q, want the Discord user mentioned and the others named by their IDs", post.Content)
		}
	})
}
