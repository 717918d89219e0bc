package fakediscord_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// gateway is a bare gateway client: it identifies with intents and reads
// dispatches in order.
type gateway struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialGateway(t *testing.T, s *fakediscord.Server, intents int) *gateway {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(s.URL(), "http")+"/gateway", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	g := &gateway{t: t, ws: ws}
	g.next() // hello
	if err := ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": "x", "intents": intents}}); err != nil {
		t.Fatal(err)
	}
	if typ, _ := g.next(); typ != "READY" {
		t.Fatalf("Got(first dispatch) = %s, want READY", typ)
	}
	return g
}

// next returns the next frame's event name and data ("" for a frame that
// is no dispatch).
func (g *gateway) next() (string, map[string]any) {
	g.t.Helper()
	g.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	var f struct {
		T string         `json:"t"`
		D map[string]any `json:"d"`
	}
	if err := g.ws.ReadJSON(&f); err != nil {
		g.t.Fatalf("gateway read: %v", err)
	}
	return f.T, f.D
}

// TestVoiceStates drives voice states with the real discordgo and a bare
// gateway client: moves and disconnects by PATCH member channel_id with
// Discord's error codes (40032 not in voice, 10007 unknown member, 10003
// a target that is no voice channel, 50013 without Move Members), and
// VOICE_STATE_UPDATE dispatched only to a session that identified with the
// GUILD_VOICE_STATES intent.
func TestVoiceStates(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	const u1, u2, stranger = "300000000000000001", "300000000000000002", "300000000000000009"
	s.AddMember(g, u1)
	s.AddMember(g, u2)
	text := s.AddChannel(g, "ranked", fakediscord.ChannelText)
	lobby := s.AddChannel(g, "Lobby", fakediscord.ChannelVoice)
	team := s.AddChannel(g, "match-1-team-1", fakediscord.ChannelVoice)

	// Without the intent: no voice events, the next dispatch is the
	// channel deletion.
	plain := dialGateway(t, s, 1)
	s.SetVoice(g, u1, lobby)
	other := s.AddChannel(g, "old", fakediscord.ChannelText)
	s.DeleteChannel(other)
	if typ, _ := plain.next(); typ != "CHANNEL_DELETE" {
		t.Errorf("Got(dispatch to a session without GUILD_VOICE_STATES) = %s, want CHANNEL_DELETE only", typ)
	}
	plain.ws.Close()

	voice := dialGateway(t, s, 1|fakediscord.IntentGuildVoiceStates)
	want := func(what, user string, channel any) {
		t.Helper()
		typ, d := voice.next()
		if typ != "VOICE_STATE_UPDATE" || d["user_id"] != user || d["channel_id"] != channel || d["guild_id"] != g {
			t.Errorf("%s: Got(dispatch) = %s %v, want VOICE_STATE_UPDATE of %s in %v", what, typ, d, user, channel)
		}
	}
	s.SetVoice(g, u2, lobby)
	want("joins by hand", u2, lobby)
	if err := dg.GuildMemberMove(g, u1, &team); err != nil || s.VoiceChannel(g, u1) != team {
		t.Fatalf("GuildMemberMove = %v, in %q, want moved to %s", err, s.VoiceChannel(g, u1), team)
	}
	want("moved", u1, team)
	if got := s.VoiceMembers(g, team); len(got) != 1 || got[0] != u1 {
		t.Errorf("Got(members of the team channel) = %v, want [%s]", got, u1)
	}
	// channel_id null disconnects; a second disconnect is refused with
	// 40032, as Discord answers for a member not in voice.
	if err := dg.GuildMemberMove(g, u1, nil); err != nil || s.VoiceChannel(g, u1) != "" {
		t.Fatalf("GuildMemberMove(nil) = %v, in %q, want disconnected", err, s.VoiceChannel(g, u1))
	}
	want("disconnected", u1, nil)
	if err := dg.GuildMemberMove(g, u1, nil); restCode(err) != fakediscord.CodeNotInVoice {
		t.Errorf("Got(disconnect of a member not in voice) = %v, want 40032", err)
	}
	if err := dg.GuildMemberMove(g, stranger, nil); restCode(err) != fakediscord.CodeUnknownMember {
		t.Errorf("Got(disconnect of a non-member) = %v, want 10007", err)
	}
	if err := dg.GuildMemberMove(g, u2, &text); restCode(err) != fakediscord.CodeUnknownChannel {
		t.Errorf("Got(move into a text channel) = %v, want 10003", err)
	}
	s.SetChannelPermission(g, fakediscord.PermMoveMembers, false)
	if err := dg.GuildMemberMove(g, u2, nil); restCode(err) != fakediscord.CodeMissingPermissions || s.VoiceChannel(g, u2) != lobby {
		t.Errorf("Got(disconnect without Move Members) = %v, in %q, want 50013 and still in the lobby", err, s.VoiceChannel(g, u2))
	}
	// A voice channel deleted under its member disconnects them first.
	s.DeleteChannel(lobby)
	want("channel deleted", u2, nil)
	if typ, d := voice.next(); typ != "CHANNEL_DELETE" || d["id"] != lobby {
		t.Errorf("Got(dispatch after the disconnect) = %s %v, want CHANNEL_DELETE of %s", typ, d, lobby)
	}
}

// TestOverwriteLimits: Discord's limits on permission overwrites, with
// their real answers: a create whose body carries more than 100 answers
// 50035 naming permission_overwrites; a channel holds up to 1000, the
// next target answers 30060 while editing one it has still works.
func TestOverwriteLimits(t *testing.T) {
	s := fakediscord.New()
	t.Cleanup(s.Close)
	dg := session(t, s)
	const g = "100000000000000001"
	ows := func(n int) []*discordgo.PermissionOverwrite {
		out := []*discordgo.PermissionOverwrite{{ID: g, Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel}}
		for i := 1; i < n; i++ {
			out = append(out, &discordgo.PermissionOverwrite{ID: fmt.Sprintf("3%017d", i), Type: discordgo.PermissionOverwriteTypeMember, Allow: discordgo.PermissionViewChannel})
		}
		return out
	}
	_, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "too-many", PermissionOverwrites: ows(fakediscord.MaxBodyOverwrites + 1)})
	if restCode(err) != fakediscord.CodeInvalidForm || !strings.Contains(err.Error(), "permission_overwrites") || !strings.Contains(err.Error(), "BASE_TYPE_MAX_LENGTH") {
		t.Errorf("Got(create with 101 overwrites) = %v, want 50035 naming permission_overwrites", err)
	}
	ch, err := dg.GuildChannelCreateComplex(g, discordgo.GuildChannelCreateData{Name: "full", PermissionOverwrites: ows(fakediscord.MaxBodyOverwrites)})
	if err != nil {
		t.Fatalf("Got(create with 100 overwrites) = %v, want created", err)
	}
	for i := fakediscord.MaxBodyOverwrites; i < fakediscord.MaxChannelOverwrites; i++ {
		if !s.AddOverwrite(ch.ID, fakediscord.PermOverwrite{ID: fmt.Sprintf("4%017d", i), Type: 1, Allow: "1024"}) {
			t.Fatalf("AddOverwrite(%d) = false, want added", i)
		}
	}
	if s.AddOverwrite(ch.ID, fakediscord.PermOverwrite{ID: "500000000000000001", Type: 1, Allow: "1024"}) {
		t.Errorf("Got(AddOverwrite past the limit) = true, want false")
	}
	err = dg.ChannelPermissionSet(ch.ID, "500000000000000001", discordgo.PermissionOverwriteTypeMember, discordgo.PermissionViewChannel, 0)
	if restCode(err) != fakediscord.CodeMaxOverwrites {
		t.Errorf("Got(the 1001st overwrite) = %v, want 30060", err)
	}
	if err := dg.ChannelPermissionSet(ch.ID, fmt.Sprintf("3%017d", 1), discordgo.PermissionOverwriteTypeMember, discordgo.PermissionViewChannel|discordgo.PermissionSendMessages, 0); err != nil {
		t.Errorf("Got(an existing target's overwrite edited on a full channel) = %v, want done", err)
	}
	if err := dg.ChannelPermissionDelete(ch.ID, fmt.Sprintf("3%017d", 2)); err != nil {
		t.Fatal(err)
	}
	if err := dg.ChannelPermissionSet(ch.ID, "500000000000000001", discordgo.PermissionOverwriteTypeMember, discordgo.PermissionViewChannel, 0); err != nil {
		t.Errorf("Got(an overwrite once one was deleted) = %v, want done", err)
	}
	if c, _ := s.Channel(ch.ID); len(c.Overwrites) != fakediscord.MaxChannelOverwrites {
		t.Errorf("Got(overwrites) = %d, want %d", len(c.Overwrites), fakediscord.MaxChannelOverwrites)
	}
}
