package bot

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

// roomEnv is a lobby env whose matches get rooms: the commands and the
// scheduler share one rooms.Manager calling Discord through the running
// bot, and the queue plays in a channel the fake knows (queueCh).
type roomEnv struct {
	*lobbyEnv
	late    *lateBot
	queueCh string
	logCh   string
}

// lateBot is the rooms' Discord: the bot of the moment (a restart makes a
// new one).
type lateBot struct{ rooms.Discord }

func newRoomEnv(t testing.TB, dsn string) *roomEnv {
	t.Helper()
	return newRoomEnvOver(t, dsn, nil)
}

// newRoomEnvOver is newRoomEnv with opened called on the database before
// anything uses it.
func newRoomEnvOver(t testing.TB, dsn string, opened func(*storage.DB)) *roomEnv {
	t.Helper()
	db, err := openDB(dsn)
	if err != nil {
		t.Fatalf("storage.Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if opened != nil {
		opened(db)
	}
	c := ladder.NewManualClock(lobbyStart)
	e := &env{t: t, transport: TransportGateway, ctx: waitCtx(t), fake: newFake(t), db: db, svc: ladder.NewService(db, c)}
	late := &lateBot{}
	e.rooms = rooms.New(db, late, e.svc, nil)
	e.start()
	late.Discord = e.h.bot
	r := &roomEnv{lobbyEnv: &lobbyEnv{env: e, clock: c}, late: late}
	r.sched = r.newScheduler()
	r.queueCh = e.fake.AddChannel(testGuild, "ranked", fakediscord.ChannelText)
	r.logCh = e.fake.AddChannel(testGuild, "mod-log", fakediscord.ChannelText)
	wantText(t, "queue channel", e.slash(owner, "config queue set", map[string]any{"queue": "2v2", "channel": r.queueCh}), "saved")
	wantText(t, "log channel", e.slash(owner, "config channels", map[string]any{"log": r.logCh}), "Saved")
	return r
}

func (r *roomEnv) newScheduler() *jobs.Scheduler {
	return jobs.New(r.svc, r.h.bot, nil, jobs.Options{PostBackoff: time.Millisecond, Rooms: r.env.rooms})
}

// restart is a new process: a new bot, a new rooms manager and scheduler
// over the same database and fake Discord.
func (r *roomEnv) restart() {
	r.env.restart()
	r.late = &lateBot{Discord: r.h.bot}
	r.env.rooms = rooms.New(r.db, r.late, r.svc, nil)
	r.sched = r.newScheduler()
}

// in is a call made in channel ch.
func in(ch string, u fakediscord.User) fakediscord.Call {
	return fakediscord.Call{GuildID: testGuild, ChannelID: ch, User: u}
}

// clickIn clicks the button labelled label on m as u, in m's channel.
func (r *roomEnv) clickIn(u fakediscord.User, m fakediscord.Message, label string) fakediscord.Response {
	r.t.Helper()
	b, ok := m.ButtonByLabel(label)
	if !ok {
		r.t.Fatalf("message %q has no button %q (buttons %+v)", m.Text(), label, m.Buttons())
	}
	p, err := r.fake.Click(in(m.ChannelID, u), m.ID, b.CustomID)
	if err != nil {
		r.t.Fatal(err)
	}
	return r.result(p)
}

// The room scenarios share their set-up through these helpers: the env
// (newRoomEnv: the guild, the 2v2 queue in queueCh with rooms on, the log
// channel), the queue's room settings (configRoom), the match formed by
// the four players' joins with its room (form, formRoom), a match of any
// teams made beside it (newMatch, openMatch) and a substitute asked for
// (askSub).

// configRoom sets the 2v2 queue's room settings as the owner would, by
// /config queue room with opts, and checks the answer contains want.
func (r *roomEnv) configRoom(opts map[string]any, want string) {
	r.t.Helper()
	all := map[string]any{"queue": "2v2"}
	maps.Copy(all, opts)
	wantText(r.t, "room settings", r.slash(owner, "config queue room", all), want)
}

// form queues the four players in the queue's channel and returns the
// open match.
func (r *roomEnv) form() ladder.Match {
	r.t.Helper()
	for _, p := range players {
		if _, err := r.fake.Slash(in(r.queueCh, p), "queue join", nil); err != nil {
			r.t.Fatal(err)
		}
		r.clock.Add(time.Second)
	}
	m := r.waitOpen("the match")
	// The room is opened as the announcement is posted, after the last
	// join is answered; the queue channel then gets the link line, or the
	// announcement itself when there is no room.
	r.message(r.queueCh, fmt.Sprintf("**Match #%d**", m.ID))
	return m
}

// formRoom is form, with the match's stored room.
func (r *roomEnv) formRoom() (ladder.Match, rooms.Room) {
	r.t.Helper()
	m := r.form()
	return m, r.room(m.ID)
}

// waitOpen waits until the guild has exactly one open match and returns it.
func (r *roomEnv) waitOpen(what string) ladder.Match {
	r.t.Helper()
	var ms []ladder.Match
	err := r.fake.Wait(r.ctx, what, func() bool {
		ms, _ = r.svc.Matches(r.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
		return len(ms) == 1
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return ms[0]
}

// queue returns the 2v2 queue.
func (r *roomEnv) queue() ladder.Queue {
	r.t.Helper()
	q, _, err := r.svc.Lobby(r.ctx, testGuild, "2v2")
	if err != nil {
		r.t.Fatal(err)
	}
	return q
}

// newMatch makes a match of teams in the 2v2 queue, played in the
// queue's channel, as the matchmaking would form it (its room not opened).
func (r *roomEnv) newMatch(teams [2][]string, source string) ladder.FormedMatch {
	r.t.Helper()
	q := r.queue()
	m, err := r.svc.CreateMatch(r.ctx, ladder.NewMatch{GuildID: testGuild, QueueID: q.ID, Teams: teams, ChannelID: r.queueCh, Source: source})
	if err != nil {
		r.t.Fatal(err)
	}
	return ladder.FormedMatch{Match: m, Queue: q}
}

// openMatch is newMatch with the room opened; it returns the channel
// Open answered (the room, or the queue's channel when it fell back).
func (r *roomEnv) openMatch(teams [2][]string) (ladder.Match, string) {
	r.t.Helper()
	f := r.newMatch(teams, "test")
	return f.Match, r.env.rooms.Open(r.ctx, f, r.queueCh)
}

// askSub has leaver ask for a substitute by /sub request in channel ch
// and returns the request posted in the queue's channel.
func (r *roomEnv) askSub(ch string, leaver fakediscord.User) fakediscord.Message {
	r.t.Helper()
	p, err := r.fake.Slash(in(ch, leaver), "sub request", nil)
	if err != nil {
		r.t.Fatal(err)
	}
	wantText(r.t, "sub request", r.result(p), "Asked for a substitute")
	return r.message(r.queueCh, "needs a substitute")
}

// message waits for a message in channel ch containing text.
func (r *roomEnv) message(ch, text string) fakediscord.Message {
	r.t.Helper()
	m, err := r.fake.WaitChannelMessage(r.ctx, ch, func(m fakediscord.Message) bool { return strings.Contains(m.Text(), text) })
	if err != nil {
		r.t.Fatalf("%v\nlog:\n%s", err, r.h.logs)
	}
	return m
}

// room returns the match's stored room.
func (r *roomEnv) room(matchID int64) rooms.Room {
	r.t.Helper()
	got, err := r.db.Room(r.ctx, matchID)
	if err != nil {
		r.t.Fatalf("Room(%d) = %v", matchID, err)
	}
	return got
}

// channelNamed returns the guild's live channel or thread called name.
func (r *roomEnv) channelNamed(name string) (fakediscord.GuildChannel, bool) {
	for _, c := range r.fake.GuildChannels(testGuild) {
		if c.Name == name {
			return c, true
		}
	}
	return fakediscord.GuildChannel{}, false
}

// play readies the match and reports and confirms a team 1 win, all by
// buttons on the room's messages, and checks it is rated.
func (r *roomEnv) play(ch string, m ladder.Match) {
	r.t.Helper()
	r.report(ch, m, r.ready(ch, m))
}

// ready clicks Ready for every player and returns the message once on.
func (r *roomEnv) ready(ch string, m ladder.Match) fakediscord.Message {
	r.t.Helper()
	ann := r.message(ch, fmt.Sprintf("**Match #%d** formed", m.ID))
	var on fakediscord.Response
	for _, u := range m.Players() {
		on = r.clickIn(userByID(u), ann, "Ready")
	}
	if !strings.Contains(on.Message.Text(), "is on") {
		r.t.Fatalf("Got(last Ready) = %q, want the match on", on.Message.Text())
	}
	return on.Message
}

// report reports a team 1 win on the match's message on and confirms it
// as team 2, by buttons.
func (r *roomEnv) report(ch string, m ladder.Match, on fakediscord.Message) {
	r.t.Helper()
	rep := r.clickIn(userByID(m.Teams[0][0]), on, "We won")
	wantText(r.t, "report", rep, "Reported match")
	ask := r.message(ch, fmt.Sprintf("reported match #%d", m.ID))
	wantText(r.t, "confirm", r.clickIn(userByID(m.Teams[1][0]), ask, "Confirm"), "")
	if got := r.match(m.ID); !got.State.Rated() || got.Winner != 1 {
		r.t.Fatalf("Got(match after confirm) = %s winner %d, want rated, team 1", got.State, got.Winner)
	}
}

func (r *roomEnv) runRooms() {
	r.t.Helper()
	r.run(jobs.JobRooms)
}

func TestRoomsEndToEnd(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, r *roomEnv)
	}{
		{"thread room played by buttons", testThreadRoom},
		{"channel room with voice", testChannelRoom},
		{"substitute admitted to the thread", testRoomSub},
		{"a cancelled match's room closes too", testRoomCancelled},
		{"formed by the matchmaking job", testRoomScheduled},
		{"crash between creating and storing", testRoomCrash},
		{"the answer to a thread create lost", testRoomLostAnswer},
		{"the answer to a voice channel create lost", testRoomLostVoice},
		{"missing permissions fall back to the queue channel", testRoomFallback},
		{"a rush of rooms over small buckets", testRoomRush},
		{"two processes close a room once", testRoomTwoProcesses},
		{"missing Move Members keeps the room, unmoved", testRoomNoMove},
		{"a room_category that is no category", testRoomBadCategory},
		{"a room the bot may no longer remove", testRoomCleanupRefused},
		{"the largest room, 8v8 with a moderator role", testRoomLargest},
	}
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, newRoomEnv(t, freshDSN(t, backend))) })
		}
	})
}

func testThreadRoom(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	if room.State != rooms.StateOpen || room.Mode != rooms.ModeThread || room.HomeChannelID != r.queueCh {
		t.Fatalf("Got(room) = %+v, want an open thread room of the queue channel", room)
	}
	th, ok := r.fake.Channel(room.ChannelID)
	if !ok || th.Type != fakediscord.ChannelPrivateThread || th.ParentID != r.queueCh || th.Name != fmt.Sprintf("match-%d", m.ID) {
		t.Fatalf("Got(thread) = %+v, want private thread match-%d in the queue channel", th, m.ID)
	}
	for _, u := range m.Players() {
		if !slices.Contains(th.Members, u) {
			t.Errorf("Got(thread members) = %v, want player %s among them", th.Members, u)
		}
	}
	if r.fake.CanSee(th.ID, alice.ID) {
		t.Errorf("Got(outsider sees the thread) = true, want false")
	}
	if got := r.match(m.ID).ChannelID; got != th.ID {
		t.Errorf("Got(match channel) = %s, want the thread %s", got, th.ID)
	}
	// Opening it again (a repeated post, another process) makes nothing new.
	if again := r.env.rooms.Open(r.ctx, ladder.FormedMatch{Match: m, Queue: r.queue()}, r.queueCh); again != th.ID {
		t.Errorf("Got(second Open) = %s, want the same thread %s", again, th.ID)
	}
	threads := 0
	for _, c := range r.fake.GuildChannels(testGuild) {
		if c.Type == fakediscord.ChannelPrivateThread {
			threads++
		}
	}
	if threads != 1 {
		t.Errorf("Got(threads) = %d, want 1", threads)
	}
	// The queue channel gets one line with the link and no announcement.
	link := r.message(r.queueCh, "<#"+th.ID+">")
	if len(link.Buttons()) != 0 || len(r.fake.ChannelMessages(r.queueCh)) != 1 {
		t.Errorf("Got(queue channel) = %d messages, the link %q, want only the link line", len(r.fake.ChannelMessages(r.queueCh)), link.Text())
	}
	// An outsider cannot even reach the thread's buttons.
	ann := r.message(th.ID, fmt.Sprintf("**Match #%d** formed", m.ID))
	if b, ok := ann.ButtonByLabel("Ready"); ok {
		if _, err := r.fake.Click(in(th.ID, alice), ann.ID, b.CustomID); err == nil {
			t.Errorf("Got(outsider's click in the private thread) = accepted, want refused")
		}
	}
	r.play(th.ID, m)

	// Rated: the thread stays for room_linger (300 s), then is archived and
	// locked, and the match points at the queue channel again.
	r.runRooms()
	r.clock.Add(299 * time.Second)
	r.runRooms()
	if th, _ := r.fake.Channel(th.ID); th.Archived {
		t.Fatalf("Got(thread archived 1 s before the linger ends) = true, want false")
	}
	r.clock.Add(2 * time.Second)
	r.runRooms()
	if th, _ := r.fake.Channel(th.ID); !th.Archived || !th.Locked {
		t.Errorf("Got(thread after the linger) = archived %v locked %v, want both", th.Archived, th.Locked)
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	if got := r.match(m.ID).ChannelID; got != r.queueCh {
		t.Errorf("Got(match channel after close) = %s, want the queue channel %s", got, r.queueCh)
	}
	// Running again changes nothing.
	r.runRooms()
	if calls, n429 := r.fake.ChannelRequests(); n429 != 0 {
		t.Errorf("Got(429s of %d channel calls) = %d, want 0", calls, n429)
	}
}

func testChannelRoom(t *testing.T, r *roomEnv) {
	category := r.fake.AddChannel(testGuild, "Matches", fakediscord.ChannelCategory)
	lobby := r.fake.AddChannel(testGuild, "Lobby", fakediscord.ChannelVoice)
	r.configRoom(map[string]any{"room": "channel", "room_category": category, "voice": true, "lobby_voice": lobby, "room_linger": 60}, "only its players and the moderators see")
	show := r.slash(owner, "config show", nil)
	wantText(t, "config show", show, "rooms: each match gets a channel only its players and the moderators see in <#"+category+">, with a voice channel per team")
	// Three players wait in the lobby voice channel; the fourth is not in voice.
	for _, p := range players[:3] {
		r.fake.SetVoice(testGuild, p.ID, lobby)
	}
	m, room := r.formRoom()
	text, ok := r.fake.Channel(room.ChannelID)
	if !ok || text.Type != fakediscord.ChannelText || text.ParentID != category {
		t.Fatalf("Got(room channel) = %+v, want a text channel in the category", text)
	}
	for _, u := range m.Players() {
		if !r.fake.CanSee(text.ID, u) {
			t.Errorf("Got(player %s sees the room) = false, want true", u)
		}
	}
	if r.fake.CanSee(text.ID, alice.ID) {
		t.Errorf("Got(outsider sees the room) = true, want false")
	}
	var voice [2]fakediscord.GuildChannel
	for i, id := range room.VoiceIDs {
		v, ok := r.fake.Channel(id)
		if !ok || v.Type != fakediscord.ChannelVoice || v.ParentID != category {
			t.Fatalf("Got(team %d voice) = %+v, want a voice channel in the category", i+1, v)
		}
		voice[i] = v
		// Joinable by the team only: @everyone is denied Connect, each
		// player of the team allowed it, the other team not mentioned.
		if !overwrite(v, testGuild, "deny", fakediscord.PermConnect) {
			t.Errorf("Got(team %d voice overwrites) = %+v, want @everyone denied Connect", i+1, v.Overwrites)
		}
		for team, us := range m.Teams {
			for _, u := range us {
				if got := overwrite(v, u, "allow", fakediscord.PermConnect); got != (team == i) {
					t.Errorf("Got(player %s of team %d allowed to join team %d's voice) = %v", u, team+1, i+1, got)
				}
			}
		}
	}
	// Each lobby player is in their team's voice channel; the fourth was
	// not in voice and is not moved.
	for _, p := range players {
		team := m.Team(p.ID)
		want := voice[team-1].ID
		if p.ID == players[3].ID {
			want = ""
		}
		if got := r.fake.VoiceChannel(testGuild, p.ID); got != want {
			t.Errorf("Got(voice of %s, team %d) = %q, want %q", p.Name, team, got, want)
		}
	}
	// The fourth joins their team's channel by hand.
	fourth := players[3]
	r.fake.SetVoice(testGuild, fourth.ID, voice[m.Team(fourth.ID)-1].ID)

	r.play(text.ID, m)
	r.runRooms()
	// Moved players are back in the lobby; the fourth, who came by hand,
	// stays, so their team's channel stays too.
	for _, p := range players[:3] {
		if got := r.fake.VoiceChannel(testGuild, p.ID); got != lobby {
			t.Errorf("Got(voice of %s after the match) = %q, want the lobby", p.Name, got)
		}
	}
	busy := voice[m.Team(fourth.ID)-1].ID
	for _, v := range voice {
		_, live := r.fake.Channel(v.ID)
		if c, _ := r.fake.Channel(v.ID); live && c.Deleted != (v.ID != busy) {
			t.Errorf("Got(voice %s deleted) = %v, want deleted only when empty (busy %s)", v.ID, c.Deleted, busy)
		}
	}
	r.fake.SetVoice(testGuild, fourth.ID, "")
	r.clock.Add(59 * time.Second)
	r.runRooms()
	if c, _ := r.fake.Channel(busy); !c.Deleted {
		t.Errorf("Got(emptied voice channel deleted) = false, want true")
	}
	if c, _ := r.fake.Channel(text.ID); c.Deleted {
		t.Fatalf("Got(room deleted 1 s before the linger ends) = true, want false")
	}
	r.clock.Add(time.Second)
	r.runRooms()
	for _, id := range []string{text.ID, voice[0].ID, voice[1].ID} {
		if c, _ := r.fake.Channel(id); !c.Deleted {
			t.Errorf("Got(channel %s %s deleted after the linger) = false, want true", c.Name, id)
		}
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
	if calls, n429 := r.fake.ChannelRequests(); n429 != 0 {
		t.Errorf("Got(429s of %d channel calls) = %d, want 0", calls, n429)
	}
}

// testRoomSub asks for a substitute from inside a thread room: the
// request goes to the queue's channel, where outsiders see it; the
// substitute is added to the thread at once and plays on from there.
func testRoomSub(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	on := r.ready(room.ChannelID, m)
	leaver := userByID(m.Teams[0][1])
	ask := r.askSub(room.ChannelID, leaver)
	r.clickIn(alice, ask, "Take the seat")
	// The room hears of it once alice was added.
	r.message(room.ChannelID, fmt.Sprintf("<@%s> takes <@%s>'s seat", alice.ID, leaver.ID))
	th, _ := r.fake.Channel(room.ChannelID)
	if !slices.Contains(th.Members, alice.ID) {
		t.Fatalf("Got(thread members after the sub) = %v, want %s added", th.Members, alice.ID)
	}
	now := r.match(m.ID)
	if now.Team(alice.ID) != 1 {
		t.Fatalf("Got(alice's team) = %d, want 1", now.Team(alice.ID))
	}
	r.report(room.ChannelID, now, on)
	// The job has nobody left to add.
	r.runRooms()
	if got := r.room(m.ID); !slices.Contains(got.Members, alice.ID) {
		t.Errorf("Got(room members) = %v, want alice recorded", got.Members)
	}
}

// testRoomScheduled forms the match in the matchmaking job instead of a
// join: the job opens the room as the join does.
func testRoomScheduled(t *testing.T, r *roomEnv) {
	// Four new players' match (quality 0.83) is below a q_start of 1, so it
	// forms only once the anchor's wait lowers the bar (q_floor 0.5).
	wantText(t, "strict start", r.slash(owner, "config queue set", map[string]any{"queue": "2v2", "q_start": 1.0}), "saved")
	for _, p := range players {
		pend, err := r.fake.Slash(in(r.queueCh, p), "queue join", nil)
		if err != nil {
			t.Fatal(err)
		}
		wantText(t, "join", r.result(pend), "You joined queue")
	}
	if ms, _ := r.svc.Matches(r.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5}); len(ms) != 0 {
		t.Fatalf("Got(matches before the wait) = %d, want none yet", len(ms))
	}
	r.clock.Add(10 * time.Minute)
	r.run(jobs.JobMatchmake)
	ms, err := r.svc.Matches(r.ctx, ladder.MatchFilter{GuildID: testGuild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 5})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(matches after the pass) = %d, %v, want 1", len(ms), err)
	}
	room := r.room(ms[0].ID)
	if room.State != rooms.StateOpen {
		t.Fatalf("Got(room) = %+v, want open", room)
	}
	r.message(r.queueCh, "<#"+room.ChannelID+">")
	r.play(room.ChannelID, r.match(ms[0].ID))
}

// overwrite reports whether c's overwrite for id allows (or denies) perm.
func overwrite(c fakediscord.GuildChannel, id, kind string, perm int64) bool {
	for _, o := range c.Overwrites {
		if o.ID != id {
			continue
		}
		v := o.Allow
		if kind == "deny" {
			v = o.Deny
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		return n&perm != 0
	}
	return false
}

// testRoomCancelled: a Not ready click cancels the match; its room closes
// after the linger like a rated match's.
func testRoomCancelled(t *testing.T, r *roomEnv) {
	m, room := r.formRoom()
	ann := r.message(room.ChannelID, fmt.Sprintf("**Match #%d** formed", m.ID))
	r.clickIn(userByID(m.Players()[0]), ann, "Not ready")
	if got := r.match(m.ID).State; got != ladder.StateCancelled {
		t.Fatalf("Got(match after Not ready) = %s, want cancelled", got)
	}
	r.runRooms()
	r.clock.Add(300 * time.Second)
	r.runRooms()
	if c, _ := r.fake.Channel(room.ChannelID); !c.Archived {
		t.Errorf("Got(cancelled match's thread archived after the linger) = false, want true")
	}
	if got := r.room(m.ID).State; got != rooms.StateClosed {
		t.Errorf("Got(room state) = %s, want closed", got)
	}
}
