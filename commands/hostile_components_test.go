package commands_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/laddertest"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

// componentEnv is a guild with a match in its captains' draft, a match in
// its ready check and a rated match, beside another guild with a match in
// its ready check and a rated one: what forged and stale components aim at.
type componentEnv struct {
	svc                   *ladder.Service
	set                   *commands.Set
	db                    *storage.DB
	queue, otherQueue     int64
	drafting, readying    ladder.Match
	rated                 ladder.Match
	foreign, foreignRated ladder.Match
	captain, picked       string // the captain whose turn it is, a player left to pick
}

func newComponentEnv(t *testing.T, ctx context.Context, backend string) *componentEnv {
	t.Helper()
	db, err := storage.Open(ctx, testdb.DSN(t, backend), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	e := &componentEnv{svc: svc, db: db,
		set: commands.New(commands.Deps{Service: svc, Rooms: rooms.New(db, nil, svc, nil), Community: community.New(db, svc)})}
	form := func(g string, players []string, captains bool) (int64, ladder.Match) {
		t.Helper()
		q, l, err := svc.Lobby(ctx, g, "")
		if err != nil {
			t.Fatal(err)
		}
		l.ReadyWindow = time.Hour
		if captains {
			l.PickMode, l.PickWindow = ladder.PickCaptains, 10*time.Minute
		}
		if _, err := svc.UpdateLobby(ctx, ladder.System, g, l); err != nil {
			t.Fatal(err)
		}
		var formed []ladder.FormedMatch
		for _, u := range players {
			res, err := svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: g, UserID: u})
			if err != nil {
				t.Fatal(err)
			}
			formed = append(formed, res.Formed...)
		}
		if len(formed) != 1 {
			t.Fatalf("Got(formed) = %d matches, want 1", len(formed))
		}
		return q.ID, formed[0].Match
	}
	for _, g := range []string{guild, otherGuild} {
		if _, err := svc.EnsureGuild(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	e.queue, e.drafting = form(guild, []string{"601", "602", "603", "604"}, true)
	for _, u := range e.drafting.Players() {
		if _, err := svc.Ready(ctx, ladder.Actor{UserID: u}, guild, e.drafting.ID, true); err != nil {
			t.Fatal(err)
		}
	}
	d, err := svc.Draft(ctx, guild, e.drafting.ID)
	if err != nil || d.State != ladder.DraftPicking {
		t.Fatalf("Got(draft) = %+v, %v, want picking", d, err)
	}
	e.captain, e.picked = d.Captain(d.Turn()), d.Pool()[0].UserID
	_, e.readying = form(guild, []string{"605", "606", "607", "608"}, true)
	e.otherQueue, e.foreign = form(otherGuild, []string{"501", "502", "503", "504"}, false)
	rated, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: []string{"611", "612"}, Team2: []string{"613", "614"}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e.rated = rated.Match
	foreignRated, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: otherGuild, Team1: []string{"511", "512"}, Team2: []string{"513", "514"}, Winner: 1, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e.foreignRated = foreignRated.Match
	return e
}

// press runs a component interaction in guild by user, as the bot's chain
// does; moderator makes the user a Manage Server admin.
func (e *componentEnv) press(ctx context.Context, user, customID string, moderator bool, selected ...string) (commands.Reply, error) {
	id, err := commands.ParseCustomID(customID)
	if err != nil {
		return commands.Reply{}, err
	}
	req := commands.Request{Kind: commands.KindComponent, InteractionID: "1", GuildID: guild, ChannelID: channel,
		UserID: user, UserName: "u" + user, CustomID: id, Selected: selected, MessageID: "300000000000000001"}
	if moderator {
		req.Permissions = commands.PermManageGuild
	}
	return run(ctx, e.set, req)
}

// TestHostileComponents presses the buttons and menus of this round's
// surfaces (the queue panel, the ready check, the cancel vote, the
// captains' draft, the substitute and no-show buttons, the correction's
// Apply) as a modified client can: custom IDs naming another guild's
// match or queue, another player's seat or vote, values of the wrong type
// or out of range, oversize and control-character values. Each is a clear
// coded error, never an internal one, and the database is unchanged;
// stale and replayed presses answer "already done" and change nothing;
// concurrent duplicates count once. Both backends.
func TestHostileComponents(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		e := newComponentEnv(t, ctx, backend)
		d, f, r, fr := e.drafting.ID, e.foreign.ID, e.rated.ID, e.foreignRated.ID
		rd := e.readying.ID
		id := func(action string, n int64, args ...string) string { return commands.ID(action, n, args...) }
		huge := int64(1)<<53 + 1
		refused := []struct {
			name, user, customID string
			moderator            bool
			selected             []string
			code                 ladder.Code
		}{
			{"panel join of another guild's queue", "609", id(commands.ActPanelJoin, e.otherQueue), false, nil, ladder.CodeNotFound},
			{"panel join of queue 0", "609", id(commands.ActPanelJoin, 0), false, nil, ladder.CodeNotFound},
			{"panel join of a huge queue ID", "609", id(commands.ActPanelJoin, huge), false, nil, ladder.CodeNotFound},
			{"panel Join with… of another guild's queue", "609", id(commands.ActPanelWith, e.otherQueue), false, nil, ladder.CodeNotFound},
			{"panel partner in another guild's queue", "609", id("ppartner", e.otherQueue), false, []string{"610"}, ladder.CodeNotFound},
			{"panel partner that is not an ID", "609", id("ppartner", e.queue), false, []string{"bob"}, ladder.CodeInvalid},
			{"panel partner with a NUL", "609", id("ppartner", e.queue), false, []string{"610\x00"}, ladder.CodeInvalid},
			{"panel partner of 500 digits", "609", id("ppartner", e.queue), false, []string{strings.Repeat("9", 500)}, ladder.CodeInvalid},
			{"panel partner, two of them", "609", id("ppartner", e.queue), false, []string{"610", "615"}, ladder.CodeInvalid},
			{"panel partner, none", "609", id("ppartner", e.queue), false, nil, ladder.CodeInvalid},
			{"panel partner oneself", "609", id("ppartner", e.queue), false, []string{"609"}, ladder.CodeInvalid},
			{"ready in another guild's match", "501", id("rdy", f), false, nil, ladder.CodeNotFound},
			{"not ready in another guild's match", "501", id("nrdy", f), false, nil, ladder.CodeNotFound},
			{"ready in a match one is not in", "609", id("rdy", rd), false, nil, ladder.CodeForbidden},
			{"not ready for another player's seat", "601", id("nrdy", rd), false, nil, ladder.CodeForbidden},
			{"ready in match 0", "605", id("rdy", 0), false, nil, ladder.CodeInvalid},
			{"ready in a match without a check", "611", id("rdy", r), false, nil, ladder.CodeConflict},
			{"cancel vote in another guild's match", "501", id("cxv", f), false, nil, ladder.CodeNotFound},
			{"cancel vote in a match one is not in", "609", id("cxv", d), false, nil, ladder.CodeForbidden},
			{"pick in another guild's match", "501", id("pick", f, "0"), false, []string{"502"}, ladder.CodeNotFound},
			{"pick by a player who is not a captain", e.picked, id("pick", d, "0"), false, []string{e.picked}, ladder.CodeForbidden},
			{"pick by an outsider", "609", id("pick", d, "0"), false, []string{e.picked}, ladder.CodeForbidden},
			{"pick of another guild's player", e.captain, id("pick", d, "0"), false, []string{"502"}, ladder.CodeInvalid},
			{"pick of a captain", e.captain, id("pick", d, "0"), false, []string{e.captain}, ladder.CodeInvalid},
			{"pick of a value that is not an ID", e.captain, id("pick", d, "0"), false, []string{"<@&1> @everyone"}, ladder.CodeInvalid},
			{"pick of a control character", e.captain, id("pick", d, "0"), false, []string{"60\u202e1"}, ladder.CodeInvalid},
			{"pick of 500 characters", e.captain, id("pick", d, "0"), false, []string{strings.Repeat("6", 500)}, ladder.CodeInvalid},
			{"pick of two players", e.captain, id("pick", d, "0"), false, []string{e.picked, e.picked}, ladder.CodeInvalid},
			{"pick number that is not one", e.captain, id("pick", d, "x"), false, []string{e.picked}, ladder.CodeInvalid},
			{"pick without a pick number", e.captain, id("pick", d), false, []string{e.picked}, ladder.CodeInvalid},
			{"pick while the ready check runs", "605", id("pick", rd, "0"), false, []string{"606"}, ladder.CodeConflict},
			{"seat taken in another guild's match", "609", id("suba", f, "501"), false, nil, ladder.CodeNotFound},
			{"seat taken while the ready check runs", "609", id("suba", rd, "605"), false, nil, ladder.CodeNotFound},
			{"seat button without the seat", "609", id("suba", d), false, nil, ladder.CodeInvalid},
			{"no-show confirmed in another guild's match", "501", id("nsc", f), false, nil, ladder.CodeNotFound},
			{"correction applied by a player", "611", id("modfix", r, "2"), false, nil, ladder.CodeForbidden},
			{"correction of another guild's match", adminID, id("modfix", fr, "2"), true, nil, ladder.CodeNotFound},
			{"correction to winner 7", adminID, id("modfix", r, "7"), true, nil, ladder.CodeInvalid},
			{"correction to winner -1", adminID, id("modfix", r, "-1"), true, nil, ladder.CodeInvalid},
			{"correction without a winner", adminID, id("modfix", r), true, nil, ladder.CodeInvalid},
			{"correction of match 0", adminID, id("modfix", 0, "2"), true, nil, ladder.CodeInvalid},
			{"confirm another guild's match", "611", id("cf", fr), false, nil, ladder.CodeNotFound},
			{"party accept without an invitation", "609", id("party_ok", 0), false, nil, ladder.CodeNotFound},
		}
		before, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range refused {
			t.Run(c.name, func(t *testing.T) {
				reply, err := e.press(ctx, c.user, c.customID, c.moderator, c.selected...)
				switch code := ladder.ErrorCode(err); {
				case err == nil:
					t.Errorf("Got(reply) = %q, want a %s error", reply.Content, c.code)
				case code == ladder.CodeInternal || code == ladder.CodeUnavailable:
					t.Errorf("Got(error) = %v (%s), want a clear error for the user", err, code)
				case ladder.ErrorMessage(err) == "":
					t.Errorf("Got(error message) = empty for %v", err)
				case code != c.code:
					t.Errorf("Got(error) = %v (%s), want %s", err, code, c.code)
				}
			})
		}
		// Stale and replayed presses: answered, "already done", nothing changes.
		stale := []struct {
			name, user, customID string
			moderator            bool
			selected             []string
		}{
			{"ready after the check passed", "601", id("rdy", d), false, nil},
			{"not ready after the check passed", "602", id("nrdy", d), false, nil},
			{"a pick menu of a later pick", e.captain, id("pick", d, "3"), false, []string{e.picked}},
			{"the correction's Apply, replayed to the current result", adminID, id("modfix", r, "1"), true, nil},
		}
		for _, c := range stale {
			t.Run(c.name, func(t *testing.T) {
				reply, err := e.press(ctx, c.user, c.customID, c.moderator, c.selected...)
				if err != nil || !strings.Contains(reply.Content, "already done") {
					t.Errorf("Got(press) = %q, %v, want an \"already done\" answer", reply.Content, err)
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, e.db.SQL(), e.db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := before.Diff(after); len(diff) > 0 {
			t.Errorf("refused and stale presses changed the database: %v", diff)
		}

		// Concurrent duplicates: eight presses at once count once.
		burst := func(user, customID string, moderator bool, selected ...string) {
			t.Helper()
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for range 8 {
				wg.Go(func() {
					if _, err := e.press(ctx, user, customID, moderator, selected...); err != nil && ladder.ErrorCode(err) != ladder.CodeConflict {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Errorf("Got(concurrent %s) = %v, want an answer or a conflict to retry", customID, err)
			}
		}
		burst("605", id("rdy", rd), false)
		rc, err := e.svc.ReadyCheck(ctx, guild, rd)
		if err != nil || len(rc.Missing()) != 3 || !rc.IsReady("605") {
			t.Errorf("Got(ready check after 8 concurrent Ready by one player) = %+v, %v, want that player ready once", rc, err)
		}
		burst("601", id("cxv", d), false)
		if reply, err := e.press(ctx, "602", id("cxv", d), false); err != nil || !strings.Contains(reply.Content, "2 of 3") {
			t.Errorf("Got(second player's vote after 8 concurrent votes by the first) = %q, %v, want 2 of 3", reply.Content, err)
		}
		// One pick of the two left; the last goes to the other captain.
		burst(e.captain, id("pick", d, "0"), false, e.picked)
		if dd, err := e.svc.Draft(ctx, guild, d); err != nil || dd.Picks() != 2 || dd.State != ladder.DraftDone || len(dd.Team(1)) != 2 || len(dd.Team(2)) != 2 {
			t.Errorf("Got(draft after 8 concurrent picks of one) = %+v, %v, want done with two picks, 2 a side", dd, err)
		}
		corrections := func() int {
			es, err := e.svc.Audit(ctx, guild, 500)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, a := range es {
				if a.MatchID == r && a.Action == "match.correct" {
					n++
				}
			}
			return n
		}
		was := corrections()
		burst(adminID, id("modfix", r, "2"), true)
		n := corrections() - was
		if m, err := e.svc.Match(ctx, guild, r); err != nil || m.Winner != 2 || n != 1 {
			t.Errorf("Got(match after 8 concurrent Apply) = winner %d, %d audit entries, %v; want winner 2, one entry", m.Winner, n, err)
		}
		laddertest.MustVerify(t, e.svc, guild)
	})
}
