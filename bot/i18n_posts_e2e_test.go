package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/ladder"
)

// postLanguages are the languages the posts outside the match flow are
// proven in: one whose ladder words are close to English (de) and one
// whose are not (pt-BR).
var postLanguages = []string{"de", "pt-BR"}

// TestLocalizedRoom: a server set to German or Portuguese gets its match
// room in its language, through the real bot against the fake Discord on
// both databases: the thread's name, the link line in the queue's
// channel, and the moderators' warning when the room cannot be made.
func TestLocalizedRoom(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, code := range postLanguages {
			t.Run(code, func(t *testing.T) { testLocalizedRoom(t, newRoomEnv(t, freshDSN(t, backend)), code) })
		}
	})
}

func testLocalizedRoom(t *testing.T, r *roomEnv, code string) {
	l, en := i18n.For(code), i18n.English()
	wantText(t, "/config language", r.slash(owner, "config language", map[string]any{"language": code}), l.Name())
	q := r.queue()
	m, room := r.openMatch([2][]string{{players[0].ID, players[1].ID}, {players[2].ID, players[3].ID}})
	if room == r.queueCh {
		t.Fatalf("Got(room) = the queue channel, want a thread\nlog:\n%s", r.h.logs)
	}
	link := r.message(r.queueCh, l.T("room.link", "ID", m.ID, "Queue", q.Name, "Channel", room))
	if english := en.T("room.link", "ID", m.ID, "Queue", q.Name, "Channel", room); code != "de" && strings.Contains(link.Text(), english) {
		t.Errorf("Got(link) = %q, the English line in %s", link.Text(), code)
	}
	name := l.T("room.name_text", "ID", m.ID)
	if c, ok := r.channelNamed(name); !ok || c.ID != room {
		t.Errorf("Got(thread %q) = %+v, %v, want the room %s", name, c, ok, room)
	}

	// A room that cannot be made: the warning is in the server's language.
	r.fake.SetChannelPermission(testGuild, fakediscord.PermCreatePrivateThreads, false)
	m2, home := r.openMatch([2][]string{{alice.ID, bob.ID}, {mod.ID, owner.ID}})
	if home != r.queueCh {
		t.Fatalf("Got(room without Create Private Threads) = %s, want the queue channel", home)
	}
	warn := r.message(r.logCh, l.T("room.problem.create_private_threads", "ID", m2.ID, "Where", "<#"+r.queueCh+">"))
	if strings.Contains(warn.Text(), "I could not") {
		t.Errorf("Got(warning) = %q, English in %s", warn.Text(), code)
	}
}

// TestLocalizedFlags: a German or Portuguese server's integrity flags are
// posted to its log channel in its language, kind and evidence included,
// and a moderator whose client speaks it is refused a second dismissal in
// it: a coded error outside the match flow.
func TestLocalizedFlags(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		for _, code := range postLanguages {
			t.Run(code, func(t *testing.T) { testLocalizedFlags(t, newEnv(t, freshDSN(t, backend)), code) })
		}
	})
}

func testLocalizedFlags(t *testing.T, e *env, code string) {
	l, en := i18n.For(code), i18n.English()
	g, err := e.svc.EnsureGuild(e.ctx, testGuild)
	if err != nil {
		t.Fatalf("EnsureGuild() = %v", err)
	}
	g.LogChannelID, g.Language = testChannel, code
	if _, err := e.svc.UpdateGuild(e.ctx, ladder.System, g); err != nil {
		t.Fatalf("UpdateGuild() = %v", err)
	}
	for i := range 20 {
		_, err := e.svc.RecordResult(e.ctx, ladder.ResultInput{GuildID: testGuild, Team1: []string{players[0].ID, players[1].ID},
			Team2: []string{players[2].ID, players[3].ID}, Winner: 1 + i%2, PlayedAt: time.Now().Add(-time.Hour)})
		if err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}
	}
	sched := jobs.New(e.svc, e.h.bot, nil, jobs.Options{PostBackoff: time.Millisecond, Integrity: integrityOf(e)})
	if _, err := sched.Run(e.ctx, jobs.JobIntegrity); err != nil {
		t.Fatalf("Run(integrity) = %v", err)
	}
	fs, err := integrityOf(e).Flags(e.ctx, testGuild, false, 10)
	if err != nil || len(fs) == 0 {
		t.Fatalf("Flags() = %d, %v, want the win-traders flagged", len(fs), err)
	}
	f := fs[0]
	evidence := commands.EvidenceText(l, f.Evidence)
	if f.Evidence.Key == "" || evidence == commands.EvidenceText(en, f.Evidence) || evidence == f.Evidence.Key {
		t.Fatalf("Got(evidence of %+v) = %q, want it rendered in %s", f.Evidence, evidence, code)
	}
	post := e.channelMessage(l.T("post.flag_title", "ID", f.ID, "Kind", commands.FlagKind(l, f.Kind)))
	for _, want := range []string{evidence, l.T("post.flag_footer")} {
		if !strings.Contains(post.Text(), want) {
			t.Errorf("Got(flag post) = %q, want it to contain %q", post.Text(), want)
		}
	}
	if strings.Contains(post.Text(), "standard deviations") || strings.Contains(post.Text(), "Integrity flag") {
		t.Errorf("Got(flag post) = %q, English in %s", post.Text(), code)
	}

	dismiss := func() fakediscord.Response {
		t.Helper()
		p, err := e.fake.Slash(callIn(owner, l.Discord()), "mod integrity", map[string]any{"dismiss": int(f.ID)})
		if err != nil {
			t.Fatal(err)
		}
		return e.result(p)
	}
	wantText(t, "dismiss", dismiss(), l.T("reply.flag_dismissed", "ID", f.ID, "Kind", commands.FlagKind(l, f.Kind), "Players", teamText(f.Subjects)))
	again := dismiss()
	wantText(t, "dismiss again", again, "⚠️ "+l.Error("flag %d was dismissed already by <@%s>", f.ID, owner.ID))
	if strings.Contains(again.Message.Text(), "dismissed already") {
		t.Errorf("Got(second dismissal) = %q, English in %s", again.Message.Text(), code)
	}
}
