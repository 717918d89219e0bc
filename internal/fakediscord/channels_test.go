package fakediscord_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// TestChannelRoutes drives the fake's channel, thread, voice-state and
// move routes with the real discordgo, including the error codes a bot
// must handle.
func TestChannelRoutes(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	const u1, u2 = "300000000000000001", "300000000000000002"
	text := s.AddChannel(g, "ranked", fakediscord.ChannelText)
	cat := s.AddChannel(g, "Matches", fakediscord.ChannelCategory)
	lobby := s.AddChannel(g, "Lobby", fakediscord.ChannelVoice)

	// A private thread that only its members see.
	th, err := dg.ThreadStartComplex(text, &discordgo.ThreadStart{Name: "match-1", Type: discordgo.ChannelTypeGuildPrivateThread})
	if err != nil || th.Type != discordgo.ChannelTypeGuildPrivateThread || th.ParentID != text {
		t.Fatalf("ThreadStartComplex = %+v, %v, want a private thread of %s", th, err, text)
	}
	if err := dg.ThreadMemberAdd(th.ID, u1); err != nil {
		t.Fatal(err)
	}
	if !s.CanSee(th.ID, u1) || s.CanSee(th.ID, u2) {
		t.Errorf("Got(sees the thread) = %v, %v, want member yes, other no", s.CanSee(th.ID, u1), s.CanSee(th.ID, u2))
	}
	yes := true
	if _, err := dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelMessageSend(th.ID, "late"); restCode(err) != 50083 {
		t.Errorf("Got(message to a locked thread) = %v, want 50083", err)
	}
	if err := dg.ThreadMemberAdd(th.ID, u2); restCode(err) != 50083 {
		t.Errorf("Got(member added to an archived thread) = %v, want 50083", err)
	}

	// A channel with overwrites: @everyone denied, one member allowed.
	ch, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "match-2", Type: discordgo.ChannelTypeGuildText, ParentID: cat,
		PermissionOverwrites: []*discordgo.PermissionOverwrite{
			{ID: g, Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel},
			{ID: u1, Type: discordgo.PermissionOverwriteTypeMember, Allow: discordgo.PermissionViewChannel}}})
	if err != nil || ch.ParentID != cat {
		t.Fatalf("GuildChannelCreateComplex = %+v, %v", ch, err)
	}
	if !s.CanSee(ch.ID, u1) || s.CanSee(ch.ID, u2) {
		t.Errorf("Got(sees the channel) = %v, %v, want allowed yes, other no", s.CanSee(ch.ID, u1), s.CanSee(ch.ID, u2))
	}
	if err := dg.ChannelPermissionSet(ch.ID, u2, discordgo.PermissionOverwriteTypeMember, discordgo.PermissionViewChannel, 0); err != nil || !s.CanSee(ch.ID, u2) {
		t.Errorf("ChannelPermissionSet = %v, sees %v; want u2 let in", err, s.CanSee(ch.ID, u2))
	}
	if _, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "x", ParentID: text}); restCode(err) != fakediscord.CodeInvalidForm {
		t.Errorf("Got(parent that is not a category) = %v, want 50035", err)
	}
	cs, err := dg.GuildChannels(g)
	if err != nil || !slices.ContainsFunc(cs, func(c *discordgo.Channel) bool { return c.Name == "match-2" }) {
		t.Errorf("GuildChannels = %d channels, %v, want match-2 listed", len(cs), err)
	}
	if _, err := dg.ChannelDelete(ch.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.ChannelDelete(ch.ID); restCode(err) != fakediscord.CodeUnknownChannel {
		t.Errorf("Got(second delete) = %v, want 10003", err)
	}
	if _, err := dg.ChannelMessageSend(ch.ID, "gone"); restCode(err) != fakediscord.CodeUnknownChannel {
		t.Errorf("Got(message to a deleted channel) = %v, want 10003", err)
	}

	// Voice: moves need Move Members and a member in voice.
	v, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "match-2-team-1", Type: discordgo.ChannelTypeGuildVoice})
	if err != nil {
		t.Fatal(err)
	}
	if err := dg.GuildMemberMove(g, u1, &v.ID); restCode(err) != fakediscord.CodeNotInVoice {
		t.Errorf("Got(move of a member not in voice) = %v, want 40032", err)
	}
	s.SetVoice(g, u1, lobby)
	if err := dg.GuildMemberMove(g, u1, &v.ID); err != nil || s.VoiceChannel(g, u1) != v.ID {
		t.Errorf("GuildMemberMove = %v, in %q, want moved to %s", err, s.VoiceChannel(g, u1), v.ID)
	}
	s.SetChannelPermission(g, fakediscord.PermMoveMembers, false)
	if err := dg.GuildMemberMove(g, u1, &lobby); restCode(err) != 50013 {
		t.Errorf("Got(move without Move Members) = %v, want 50013", err)
	}
	// Deleting a voice channel disconnects who is in it.
	if _, err := dg.ChannelDelete(v.ID); err != nil || s.VoiceChannel(g, u1) != "" {
		t.Errorf("ChannelDelete(voice) = %v, member in %q, want disconnected", err, s.VoiceChannel(g, u1))
	}

	// Missing permissions.
	s.SetChannelPermission(g, fakediscord.PermCreatePrivateThreads, false)
	if _, err := dg.ThreadStartComplex(text, &discordgo.ThreadStart{Name: "match-3", Type: discordgo.ChannelTypeGuildPrivateThread}); restCode(err) != 50013 {
		t.Errorf("Got(private thread without the permission) = %v, want 50013", err)
	}
	s.SetChannelPermission(g, fakediscord.PermManageChannels, false)
	if _, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "match-4"}); restCode(err) != 50013 {
		t.Errorf("Got(channel without Manage Channels) = %v, want 50013", err)
	}
}

// TestChannelLimit fills a guild to Discord's 500 channels: the next
// create answers 30013; threads do not count.
func TestChannelLimit(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	text := s.AddChannel(g, "ranked", fakediscord.ChannelText)
	for i := 1; i < fakediscord.MaxGuildChannels; i++ {
		s.AddChannel(g, fmt.Sprintf("c%d", i), fakediscord.ChannelText)
	}
	if _, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "one-too-many"}); restCode(err) != fakediscord.CodeMaxChannels {
		t.Errorf("Got(501st channel) = %v, want 30013", err)
	}
	if _, err := dg.ThreadStartComplex(text, &discordgo.ThreadStart{Name: "thread", Type: discordgo.ChannelTypeGuildPrivateThread}); err != nil {
		t.Errorf("Got(thread at the channel limit) = %v, want created", err)
	}
}

// TestChannelBuckets: discordgo paces itself by the channel routes'
// rate-limit headers, so a burst of creates over a small bucket gets no
// 429.
func TestChannelBuckets(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	s.SetChannelRateLimit(4)
	for i := range 10 {
		if _, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: fmt.Sprintf("match-%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if calls, n429 := s.ChannelRequests(); calls != 10 || n429 != 0 {
		t.Errorf("Got(calls, 429s) = %d, %d, want 10, 0", calls, n429)
	}
}

// TestChannelAccessRemoved: a member removed from a private thread, or
// whose overwrite of a channel is deleted, no longer sees it; removing
// again is a no-op (204); on a deleted channel both answer 10003, on an
// archived thread 50083, and without Manage Channels the overwrite's
// delete answers 50013.
func TestChannelAccessRemoved(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	const u1 = "300000000000000001"
	text := s.AddChannel(g, "ranked", fakediscord.ChannelText)
	th, err := dg.ThreadStartComplex(text, &discordgo.ThreadStart{Name: "match-1", Type: discordgo.ChannelTypeGuildPrivateThread})
	if err != nil {
		t.Fatal(err)
	}
	if err := dg.ThreadMemberAdd(th.ID, u1); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := dg.ThreadMemberRemove(th.ID, u1); err != nil || s.CanSee(th.ID, u1) {
			t.Errorf("ThreadMemberRemove = %v, sees %v; want removed", err, s.CanSee(th.ID, u1))
		}
	}
	ch, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "match-2", Type: discordgo.ChannelTypeGuildText,
		PermissionOverwrites: []*discordgo.PermissionOverwrite{
			{ID: g, Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel},
			{ID: u1, Type: discordgo.PermissionOverwriteTypeMember, Allow: discordgo.PermissionViewChannel}}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := dg.ChannelPermissionDelete(ch.ID, u1); err != nil || s.CanSee(ch.ID, u1) {
			t.Errorf("ChannelPermissionDelete = %v, sees %v; want the overwrite gone", err, s.CanSee(ch.ID, u1))
		}
	}
	if c, _ := s.Channel(ch.ID); len(c.Overwrites) != 1 || c.Overwrites[0].ID != g {
		t.Errorf("Got(overwrites) = %+v, want @everyone's only", c.Overwrites)
	}
	yes := true
	if _, err := dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &yes}); err != nil {
		t.Fatal(err)
	}
	if err := dg.ThreadMemberRemove(th.ID, u1); restCode(err) != 50083 {
		t.Errorf("Got(member removed from an archived thread) = %v, want 50083", err)
	}
	s.SetChannelPermission(g, fakediscord.PermManageChannels, false)
	if err := dg.ChannelPermissionDelete(ch.ID, g); restCode(err) != 50013 {
		t.Errorf("Got(overwrite deleted without Manage Channels) = %v, want 50013", err)
	}
	s.DeleteChannel(ch.ID)
	if err := dg.ChannelPermissionDelete(ch.ID, u1); restCode(err) != fakediscord.CodeUnknownChannel {
		t.Errorf("Got(overwrite of a deleted channel) = %v, want 10003", err)
	}
	s.DeleteChannel(th.ID)
	if err := dg.ThreadMemberRemove(th.ID, u1); restCode(err) != fakediscord.CodeUnknownChannel {
		t.Errorf("Got(member of a deleted thread) = %v, want 10003", err)
	}
}
