package fakediscord_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// TestMessageEdits drives the fake's edit bucket, message deletion and
// guild channels with the real discordgo: edits paced by the headers
// never see a 429, raw edits past the bucket do, and a deleted message
// answers 10008 Unknown Message.
func TestMessageEdits(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const ch = "200000000000000001"
	s.SetEditRateLimit(2, 300*time.Millisecond)
	m, err := dg.ChannelMessageSend(ch, "v0")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if _, err := dg.ChannelMessageEdit(ch, m.ID, "v"+string(rune('1'+i))); err != nil {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if n := s.Edit429s(); n != 0 {
		t.Errorf("Got(429s of paced edits) = %d, want 0", n)
	}
	// A client that ignores the headers runs into the bucket.
	over := 0
	for range 3 {
		req, _ := http.NewRequest("PATCH", s.URL()+"/api/v10/channels/"+ch+"/messages/"+m.ID, strings.NewReader(`{"content":"x"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			over++
		}
	}
	if over == 0 || s.Edit429s() != over {
		t.Errorf("Got(%d raw edits answered 429, fake counted %d), want at least one, counted", over, s.Edit429s())
	}

	if err := dg.ChannelMessageDelete(ch, m.ID); err != nil {
		t.Fatal(err)
	}
	s.SetEditRateLimit(100, time.Second) // a fresh bucket: the answer is the message's
	if _, err := dg.ChannelMessageEdit(ch, m.ID, "gone"); restCode(err) != fakediscord.CodeUnknownMessage {
		t.Errorf("Got(edit of a deleted message) = %v, want 10008", err)
	}

	const g = "100000000000000001"
	c, err := dg.GuildChannelCreate(g, "Ladder Queue", discordgo.ChannelTypeGuildText)
	if err != nil || c.Name != "ladder-queue" {
		t.Fatalf("Got(channel created) = %+v, %v, want ladder-queue", c, err)
	}
	s.SetChannelPermission(g, fakediscord.PermManageChannels, false)
	if _, err := dg.GuildChannelCreate(g, "other", discordgo.ChannelTypeGuildText); restCode(err) != fakediscord.CodeMissingPermissions {
		t.Errorf("Got(create without Manage Channels) = %v, want 50013", err)
	}
	if chs, err := dg.GuildChannels(g); err != nil || len(chs) != 1 {
		t.Errorf("Got(channels) = %d, %v, want 1", len(chs), err)
	}
}

// TestEntitySelectRules: user, role and channel menus follow Discord's
// rules: alone in a row, no options, max 1 to 25.
func TestEntitySelectRules(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	one := 1
	send := func(menu discordgo.SelectMenu) error {
		_, err := dg.ChannelMessageSendComplex("200000000000000001", &discordgo.MessageSend{Content: "pick",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}})
		return err
	}
	for _, c := range []struct {
		name string
		menu discordgo.SelectMenu
		ok   bool
	}{
		{"user menu", discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, CustomID: "u:1", MinValues: &one, MaxValues: 1}, true},
		{"channel menu with types", discordgo.SelectMenu{MenuType: discordgo.ChannelSelectMenu, CustomID: "c:1", MaxValues: 1,
			ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}}, true},
		{"user menu with options", discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, CustomID: "u:2", MaxValues: 1,
			Options: []discordgo.SelectMenuOption{{Label: "a", Value: "a"}}}, false},
		{"role menu taking 26", discordgo.SelectMenu{MenuType: discordgo.RoleSelectMenu, CustomID: "r:1", MaxValues: 26}, false},
		{"channel types on a user menu", discordgo.SelectMenu{MenuType: discordgo.UserSelectMenu, CustomID: "u:3", MaxValues: 1,
			ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := send(c.menu); (err == nil) != c.ok {
				t.Errorf("Got(send) = %v, want ok %v", err, c.ok)
			}
		})
	}
}
