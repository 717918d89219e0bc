package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/rooms"
)

// The rooms' voice channels and permission overwrites under attack or at
// Discord's limits (TestHostileRooms, TestRoomsEndToEnd): a player who
// leaves a match is taken out of its voice channel, with or without the
// permission to do it; a room whose channel holds Discord's 1000
// overwrites; the largest room the ladder makes.

// inTeamVoice puts every player of m in their team's voice channel of
// room, as their clients would.
func (r *roomEnv) inTeamVoice(m ladder.Match, room rooms.Room) {
	for _, u := range m.Players() {
		r.fake.SetVoice(testGuild, u, room.VoiceIDs[m.Team(u)-1])
	}
}

// wantVoice checks that every player of m but gone is still in their
// team's voice channel of room.
func (r *roomEnv) wantVoice(t *testing.T, m ladder.Match, room rooms.Room, gone string) {
	t.Helper()
	for _, u := range m.Players() {
		if want := room.VoiceIDs[m.Team(u)-1]; u != gone && r.fake.VoiceChannel(testGuild, u) != want {
			t.Errorf("Got(voice of player %s) = %q, want still %s", u, r.fake.VoiceChannel(testGuild, u), want)
		}
	}
}

// hostileRoomSubVoice: the substituted player is in their team's voice
// channel when the substitute takes the seat; they lose the right to join
// it and are disconnected at once, while the others stay. A player a
// moderator replaces by /mod sub in a queue with a lobby voice channel is
// moved back to the lobby instead.
func hostileRoomSubVoice(t *testing.T, r *roomEnv) {
	category := r.fake.AddChannel(testGuild, "Matches", fakediscord.ChannelCategory)
	r.configRoom(map[string]any{"room": "channel", "room_category": category, "voice": true}, "only its players")
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	r.inTeamVoice(m, room)
	leaver := r.subIn(room, m, alice)
	if got := r.fake.VoiceChannel(testGuild, leaver.ID); got != "" {
		t.Errorf("Got(voice of the substituted player) = %q, want disconnected", got)
	}
	if v, _ := r.fake.Channel(room.VoiceIDs[0]); overwrite(v, leaver.ID, "allow", fakediscord.PermConnect) {
		t.Errorf("Got(the substituted player may join the team voice) = true, want false")
	}
	r.wantVoice(t, m, room, leaver.ID)
	// The rooms job finds nothing left to do and tells nobody anything.
	r.runRooms()
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 0 {
		t.Errorf("Got(log channel messages) = %d, want none", n)
	}
	r.report(room.ChannelID, r.match(m.ID), on)

	// A moderator's /mod sub with a lobby voice channel: the replaced
	// player goes back to the lobby.
	lobby := r.fake.AddChannel(testGuild, "Lobby", fakediscord.ChannelVoice)
	r.configRoom(map[string]any{"lobby_voice": lobby}, "moved in and back")
	m2, ch := r.openMatch([2][]string{{players[0].ID, players[1].ID}, {players[2].ID, players[3].ID}})
	room2 := r.room(m2.ID)
	if ch == r.queueCh || room2.VoiceIDs[1] == "" {
		t.Fatalf("Got(second room) = %+v, want a channel room with voice", room2)
	}
	r.inTeamVoice(m2, room2)
	out := userByID(m2.Teams[1][0])
	wantText(t, "mod sub", r.slash(owner, "mod sub", map[string]any{"match": int(m2.ID), "out": out.ID, "in": bob.ID}), "now plays")
	r.message(room2.ChannelID, fmt.Sprintf("<@%s> takes <@%s>'s seat", bob.ID, out.ID))
	if got := r.fake.VoiceChannel(testGuild, out.ID); got != lobby {
		t.Errorf("Got(voice of the replaced player) = %q, want the lobby %s", got, lobby)
	}
	r.wantVoice(t, m2, room2, out.ID)
}

// hostileRoomSubVoiceRefused: the bot lost Move Members. The substituted
// player keeps their seat in the voice channel (they can no longer
// rejoin it), the moderators are told once in the log channel who to
// disconnect by hand, and the match goes on: the substitute is in, a
// second substitution tells nobody again, and the rooms job does not fail.
func hostileRoomSubVoiceRefused(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel", "voice": true}, "only its players")
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	r.inTeamVoice(m, room)
	r.fake.SetChannelPermission(testGuild, fakediscord.PermMoveMembers, false)
	leaver := r.subIn(room, m, alice)
	warn := r.message(r.logCh, "Move Members")
	for _, want := range []string{"<@" + leaver.ID + ">", fmt.Sprintf("match #%d", m.ID), "disconnect them by hand"} {
		if !strings.Contains(warn.Text(), want) {
			t.Errorf("Got(warning) = %q, want it to contain %q", warn.Text(), want)
		}
	}
	if got := r.fake.VoiceChannel(testGuild, leaver.ID); got != room.VoiceIDs[0] {
		t.Errorf("Got(voice of the substituted player) = %q, want left in %s", got, room.VoiceIDs[0])
	}
	if v, _ := r.fake.Channel(room.VoiceIDs[0]); overwrite(v, leaver.ID, "allow", fakediscord.PermConnect) || !overwrite(v, alice.ID, "allow", fakediscord.PermConnect) {
		t.Errorf("Got(team 1 voice overwrites) = %+v, want the leaver's gone and the substitute's there", v.Overwrites)
	}
	out := userByID(m.Teams[1][0])
	wantText(t, "mod sub", r.slash(owner, "mod sub", map[string]any{"match": int(m.ID), "out": out.ID, "in": bob.ID}), "now plays")
	r.message(room.ChannelID, fmt.Sprintf("<@%s> takes <@%s>'s seat", bob.ID, out.ID))
	r.runRooms()
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 1 {
		t.Errorf("Got(log channel messages) = %d, want the one warning", n)
	}
	if got := r.match(m.ID).ChannelID; got != room.ChannelID {
		t.Errorf("Got(match channel) = %s, want still the room %s", got, room.ChannelID)
	}
	r.report(room.ChannelID, r.match(m.ID), on)
}

// hostileRoomOverwriteLimit: a moderator filled the room's channel with
// Discord's 1000 permission overwrites by hand; the substitute's
// overwrite is refused (30060). The moderators hear why, once, naming the
// substitute; the match moves to the queue's channel with its buttons and
// is finished there; the rooms job does not fail.
func hostileRoomOverwriteLimit(t *testing.T, r *roomEnv) {
	r.configRoom(map[string]any{"room": "channel"}, "only its players")
	m, room := r.formRoom()
	r.ready(room.ChannelID, m)
	c, _ := r.fake.Channel(room.ChannelID)
	for i := len(c.Overwrites); i < fakediscord.MaxChannelOverwrites; i++ {
		if !r.fake.AddOverwrite(room.ChannelID, fakediscord.PermOverwrite{ID: fmt.Sprintf("6%017d", i), Type: 1, Allow: "1024"}) {
			t.Fatalf("AddOverwrite(%d) = false", i)
		}
	}
	leaver := userByID(m.Teams[0][1])
	ask := r.askSub(room.ChannelID, leaver)
	r.clickIn(alice, ask, "Take the seat")
	r.message(r.queueCh, fmt.Sprintf("every player of **match #%d** into its room", m.ID))
	on := r.message(r.queueCh, fmt.Sprintf("**Match #%d** is on", m.ID))
	warn := r.message(r.logCh, "1000 permission overwrites")
	for _, want := range []string{"<@" + alice.ID + ">", fmt.Sprintf("match #%d", m.ID)} {
		if !strings.Contains(warn.Text(), want) {
			t.Errorf("Got(warning) = %q, want it to contain %q", warn.Text(), want)
		}
	}
	if got := r.match(m.ID).ChannelID; got != r.queueCh {
		t.Fatalf("Got(match channel) = %s, want the queue channel %s", got, r.queueCh)
	}
	if r.fake.CanSee(room.ChannelID, alice.ID) {
		t.Fatalf("Got(substitute sees the full room) = true; the scenario is moot")
	}
	r.runRooms()
	r.runRooms()
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 1 {
		t.Errorf("Got(log channel messages) = %d, want the one warning", n)
	}
	r.report(r.queueCh, r.match(m.ID), on)
}

// testRoomLargest: the largest room the ladder makes, 8v8 with a
// moderator role and voice channels, carries 19 overwrites on its text
// channel (@everyone, the bot, the role, 16 players) and 11 on each
// team's voice channel: well under the 100 Discord takes in one request
// (the fake refuses more, 50035), so no room is refused for its size.
func testRoomLargest(t *testing.T, r *roomEnv) {
	r.slash(owner, "config moderator", map[string]any{"role": modRole})
	q, err := r.svc.CreateQueue(r.ctx, ladder.Actor{UserID: owner.ID, Moderator: true}, ladder.NewQueue(testGuild, "8v8", rating.MaxTeamSize))
	if err != nil {
		t.Fatal(err)
	}
	wantText(t, "room settings", r.slash(owner, "config queue room", map[string]any{"queue": "8v8", "room": "channel", "voice": true}), "only its players")
	var teams [2][]string
	for i := range 2 * rating.MaxTeamSize {
		teams[i%2] = append(teams[i%2], fmt.Sprintf("9%017d", i+1))
	}
	m, err := r.svc.CreateMatch(r.ctx, ladder.NewMatch{GuildID: testGuild, QueueID: q.ID, Teams: teams, ChannelID: r.queueCh, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if ch := r.env.rooms.Open(r.ctx, ladder.FormedMatch{Match: m, Queue: q}, r.queueCh); ch == r.queueCh {
		t.Fatalf("Got(8v8 room) = the queue channel, want a room\nlog:\n%s", r.h.logs)
	}
	room := r.room(m.ID)
	text, _ := r.fake.Channel(room.ChannelID)
	if want := 2*rating.MaxTeamSize + 3; len(text.Overwrites) != want || want > fakediscord.MaxBodyOverwrites {
		t.Errorf("Got(text channel overwrites) = %d, want %d (at most %d)", len(text.Overwrites), want, fakediscord.MaxBodyOverwrites)
	}
	if !overwrite(text, modRole, "allow", fakediscord.PermViewChannel) {
		t.Errorf("Got(moderators see the room) = false, want true")
	}
	for _, u := range m.Players() {
		if !r.fake.CanSee(text.ID, u) {
			t.Errorf("Got(player %s sees the room) = false, want true", u)
		}
	}
	for i, id := range room.VoiceIDs {
		v, _ := r.fake.Channel(id)
		if want := rating.MaxTeamSize + 3; len(v.Overwrites) != want {
			t.Errorf("Got(team %d voice overwrites) = %d, want %d", i+1, len(v.Overwrites), want)
		}
	}
	if n := len(r.fake.ChannelMessages(r.logCh)); n != 0 {
		t.Errorf("Got(log channel messages) = %d, want none", n)
	}
}
