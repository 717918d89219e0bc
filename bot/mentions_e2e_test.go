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

// TestProfileTitleNamesResolvedUser: /profile of a player the ladder has
// no name for (a moderator set their rating; they never queued) titled
// the embed "<@…> · 2v2 · Season 1", which Discord shows as raw text in
// a title. It now takes the name Discord resolved for the player option.
func TestProfileTitleNamesResolvedUser(t *testing.T) {
	e := newEnv(t, freshDSN(t, testdb.SQLite))
	e.establish()
	p := players[2]
	r := e.slash(alice, "profile", map[string]any{"player": p.ID})
	if len(r.Message.Embeds) == 0 {
		t.Fatalf("Got(/profile) = %q, want an embed", r.Message.Text())
	}
	// The fake resolves a user option's user with the username "user<ID>".
	if title := r.Message.Embeds[0].Title; !strings.HasPrefix(title, "user"+p.ID+" · ") {
		t.Errorf("Got(/profile title) = %q, want the resolved name first", title)
	}
}
