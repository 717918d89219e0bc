package panel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

const resultsChannel = "200000000000000099"

// TestResultsChannel: /config channels results posts each rated result
// there once, with the teams, the chance beforehand and every player's
// change, an upset marked; a correction posts a follow-up; results rated
// before the channel was set are not posted.
func TestResultsChannel(t *testing.T) {
	for _, backend := range testdb.Backends() {
		t.Run(backend, func(t *testing.T) {
			e := newEnv(t, backend, fast)
			e.slash(admin, "config queue add", map[string]any{"name": "2v2", "team_size": 2})
			ids := func(from int) []string { return []string{player(from).ID, player(from + 1).ID} }
			old, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Team1: ids(1), Team2: ids(3), Winner: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := e.slash(admin, "config channels", map[string]any{"results": resultsChannel})
			if !strings.Contains(r.Message.Text(), "<#"+resultsChannel+">") {
				t.Errorf("Got(/config channels results) = %q, want the settings showing the results channel", r.Message.Text())
			}
			// Team 1 (who won the first match) is now the favourite; team 2
			// winning is an upset.
			res, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Team1: ids(1), Team2: ids(3), Winner: 2})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Match
			title := fmt.Sprintf("Match #%d · 2v2: Team 2 won ⚡ upset", m.ID)
			post, err := e.fake.WaitChannelMessage(e.ctx, resultsChannel, func(x fakediscord.Message) bool {
				return len(x.Embeds) == 1 && x.Embeds[0].Title == title
			})
			if err != nil {
				t.Fatalf("result never posted: %v\nlog:\n%s", err, e.logs)
			}
			text := post.Text()
			for _, c := range res.Changes {
				if want := fmt.Sprintf("<@%s> %.0f (%+.1f)", c.UserID, c.Rating, c.Delta); !strings.Contains(text, want) {
					t.Errorf("Got(result post) = %q, want %q", text, want)
				}
			}
			if want := fmt.Sprintf("Team 1 · %.0f%% to win", 100*m.PTeam1); !strings.Contains(text, want) {
				t.Errorf("Got(result post) = %q, want %q", text, want)
			}

			// A correction is followed up once; nothing else is posted
			// however many sweeps run.
			if _, err := e.svc.Correct(e.ctx, ladder.Actor{UserID: admin.ID, Moderator: true}, testGuild, m.ID, 1, "wrong side reported"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.fake.WaitChannelMessage(e.ctx, resultsChannel, func(x fakediscord.Message) bool {
				return len(x.Embeds) == 1 && x.Embeds[0].Title == fmt.Sprintf("Correction: Match #%d · 2v2: Team 1 won", m.ID)
			}); err != nil {
				t.Fatalf("correction never posted: %v\nlog:\n%s", err, e.logs)
			}
			e.panels.Sync(e.ctx)
			e.restart() // a new process finds nothing new to post
			e.panels.Sync(e.ctx)
			msgs := e.fake.ChannelMessages(resultsChannel)
			if len(msgs) != 2 {
				var titles []string
				for _, x := range msgs {
					titles = append(titles, x.Embeds[0].Title)
				}
				t.Errorf("Got(results channel) = %q, want the result and its correction, once each", titles)
			}
			for _, x := range msgs {
				if strings.Contains(x.Text(), fmt.Sprintf("#%d ", old.Match.ID)) {
					t.Errorf("Got(a post of match %d, rated before the channel was set), want none", old.Match.ID)
				}
			}

			// A game server's own player IDs are named as they are, not
			// written as mentions Discord would show as raw "<@…>".
			steam := []string{"steam:76561198000000001", "steam:76561198000000002"}
			res, err = e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Team1: ids(1), Team2: steam, Winner: 1})
			if err != nil {
				t.Fatal(err)
			}
			post, err = e.fake.WaitChannelMessage(e.ctx, resultsChannel, func(x fakediscord.Message) bool {
				return len(x.Embeds) == 1 && strings.HasPrefix(x.Embeds[0].Title, fmt.Sprintf("Match #%d ", res.Match.ID))
			})
			if err != nil {
				t.Fatalf("result never posted: %v\nlog:\n%s", err, e.logs)
			}
			if text := post.Text(); strings.Contains(text, "<@steam:") || !strings.Contains(text, steam[0]+" ") || !strings.Contains(text, "<@"+player(1).ID+">") {
				t.Errorf("Got(result post) = %q, want the Discord users mentioned and the game server's IDs named", text)
			}
		})
	}
}
