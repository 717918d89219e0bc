package commands_test

import (
	"context"
	"math"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

const (
	guild      = "100000000000000001"
	otherGuild = "100000000000000002"
	channel    = "200000000000000001"
	adminID    = "400000000000000001"
)

// run passes req through the permission check and the command's handler,
// as the dispatch chain does.
func run(ctx context.Context, set *commands.Set, req commands.Request) (commands.Reply, error) {
	root, _, _ := strings.Cut(req.Command, " ")
	c, ok := set.Command(root)
	if req.Kind == commands.KindComponent {
		cp, ok := set.Component(req.CustomID.Action)
		if !ok {
			return commands.Reply{}, ladder.Errorf(ladder.CodeInvalid, "unknown action")
		}
		if err := set.Authorize(ctx, &req, cp.Access); err != nil {
			return commands.Reply{}, err
		}
		return cp.Handle(ctx, req)
	}
	if !ok {
		return commands.Reply{}, ladder.Errorf(ladder.CodeInvalid, "unknown command")
	}
	if err := set.Authorize(ctx, &req, c.Access); err != nil {
		return commands.Reply{}, err
	}
	return c.Handle(ctx, req)
}

// TestHostileOptions calls the handlers directly, as a guild admin, with
// option values the Discord client would never send but a modified one
// can: NaN and infinities, huge and negative numbers, wrong types,
// unknown and foreign IDs. Each must be a clear coded error (never an
// internal one) and leave the database exactly as it was.
func TestHostileOptions(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, name string) {
		ctx := context.Background()
		db, err := storage.Open(ctx, testdb.DSN(t, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		svc := ladder.NewService(db, nil)
		set := commands.New(commands.Deps{Service: svc, Rooms: rooms.New(db, nil, svc, nil), Community: community.New(db, svc), Formats: formats.New(db, svc)})
		for _, g := range []string{guild, otherGuild} {
			if _, err := svc.EnsureGuild(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		foreign, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: otherGuild, Team1: []string{"501", "502"}, Team2: []string{"503", "504"}, Winner: 1, Source: "test"})
		if err != nil {
			t.Fatal(err)
		}
		mine, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: []string{"601", "602"}, Team2: []string{"603", "604"}, Winner: 1, Source: "test"})
		if err != nil {
			t.Fatal(err)
		}
		nan, inf := math.NaN(), math.Inf(1)
		huge := int64(1) << 50
		tests := []struct {
			name    string
			command string
			opts    map[string]any
		}{
			{"rating NaN", "mod rating set", map[string]any{"player": "601", "rating": nan, "rd": 50.0}},
			{"rating +Inf", "mod rating set", map[string]any{"player": "601", "rating": inf, "rd": 50.0}},
			{"rating -Inf", "mod rating set", map[string]any{"player": "601", "rating": -inf, "rd": 50.0}},
			{"rating 1e308", "mod rating set", map[string]any{"player": "601", "rating": 1e308, "rd": 50.0}},
			{"rd NaN", "mod rating set", map[string]any{"player": "601", "rating": 1500.0, "rd": nan}},
			{"rd negative", "mod rating set", map[string]any{"player": "601", "rating": 1500.0, "rd": -1.0}},
			{"rating as a string", "mod rating set", map[string]any{"player": "601", "rating": "1500", "rd": 50.0}},
			{"rating set without a player", "mod rating set", map[string]any{"rating": 1500.0, "rd": 50.0}},
			{"rating set of a player ID that is not one", "mod rating set", map[string]any{"player": "'; DROP TABLE ratings; --", "rating": 1500.0, "rd": 50.0}},
			{"rating set in an unknown queue", "mod rating set", map[string]any{"player": "601", "rating": 1500.0, "rd": 50.0, "queue": "nope"}},
			{"reset in an unknown queue", "mod rating reset", map[string]any{"player": "601", "queue": "nope"}},
			{"ban for negative hours", "mod queue ban", map[string]any{"player": "601", "hours": int64(-5)}},
			{"ban for 2^50 hours (overflows a duration)", "mod queue ban", map[string]any{"player": "601", "hours": huge}},
			{"ban a player ID that is not one", "mod queue ban", map[string]any{"player": "abc"}},
			{"resolve with winner 7", "mod resolve", map[string]any{"match": mine.Match.ID, "winner": int64(7)}},
			{"resolve with winner -3", "mod resolve", map[string]any{"match": mine.Match.ID, "winner": int64(-3)}},
			{"resolve another guild's match", "mod resolve", map[string]any{"match": foreign.Match.ID, "winner": int64(2)}},
			{"void another guild's match", "mod void", map[string]any{"match": foreign.Match.ID}},
			{"correct another guild's match", "mod correct", map[string]any{"match": foreign.Match.ID, "winner": int64(2)}},
			{"void match -1", "mod void", map[string]any{"match": int64(-1)}},
			{"void the largest match ID", "mod void", map[string]any{"match": int64(math.MaxInt64)}},
			{"void match 1.5", "mod void", map[string]any{"match": 1.5}},
			{"queue of team size -2", "config queue add", map[string]any{"name": "neg", "team_size": int64(-2)}},
			{"queue of team size 0", "config queue add", map[string]any{"name": "zero", "team_size": int64(0)}},
			{"queue of team size 9", "config queue add", map[string]any{"name": "nine", "team_size": int64(9)}},
			{"queue of team size 2^50", "config queue add", map[string]any{"name": "big", "team_size": huge}},
			{"queue with an unknown model", "config queue add", map[string]any{"name": "m", "team_size": int64(2), "model": "nope"}},
			{"queue with an empty name", "config queue add", map[string]any{"name": "", "team_size": int64(2)}},
			{"queue with a 500-character name", "config queue add", map[string]any{"name": strings.Repeat("q", 500), "team_size": int64(2)}},
			{"queue set q_start NaN", "config queue set", map[string]any{"queue": "2v2", "q_start": nan}},
			{"queue set q_start 2", "config queue set", map[string]any{"queue": "2v2", "q_start": 2.0}},
			{"queue set q_floor -1", "config queue set", map[string]any{"queue": "2v2", "q_floor": -1.0}},
			{"queue set team size -1", "config queue set", map[string]any{"queue": "2v2", "team_size": int64(-1)}},
			{"set an unknown queue", "config queue set", map[string]any{"queue": "nope", "team_size": int64(2)}},
			{"queue set pick_mode draft", "config queue set", map[string]any{"queue": "2v2", "pick_mode": "draft"}},
			{"queue set pick_window 5", "config queue set", map[string]any{"queue": "2v2", "pick_window": int64(5)}},
			{"queue set pick_window 2^50 (overflows a duration)", "config queue set", map[string]any{"queue": "2v2", "pick_window": huge}},
			{"queue set ready_window 2^62 (overflows a duration)", "config queue set", map[string]any{"queue": "2v2", "ready_window": int64(1) << 62}},
			{"placement games -1", "config thresholds", map[string]any{"placement_games": int64(-1)}},
			{"placement games 2^50", "config thresholds", map[string]any{"placement_games": huge}},
			{"stale days 0", "config thresholds", map[string]any{"stale_days": int64(0)}},
			{"confirm minutes 2^50 (overflows a duration)", "config thresholds", map[string]any{"confirm_minutes": huge}},
			{"confirm minutes -1", "config thresholds", map[string]any{"confirm_minutes": int64(-1)}},
			{"queue minutes 0", "config thresholds", map[string]any{"queue_minutes": int64(0)}},
			{"season carry NaN", "config thresholds", map[string]any{"season_carry": nan}},
			{"season carry 2", "config thresholds", map[string]any{"season_carry": 2.0}},
			{"divisions with NaN", "config divisions", map[string]any{"list": "Bronze:0, Gold:NaN"}},
			{"divisions with 1e400", "config divisions", map[string]any{"list": "Bronze:0, Gold:1e400"}},
			{"divisions out of order", "config divisions", map[string]any{"list": "Gold:1600, Bronze:0"}},
			{"divisions twice the same", "config divisions", map[string]any{"list": "Bronze:0, Bronze:1500"}},
			{"divisions empty", "config divisions", map[string]any{"list": " , "}},
			{"season schedule of six fields", "config season", map[string]any{"schedule": "0 0 0 1 1 *"}},
			{"season schedule minute 61", "config season", map[string]any{"schedule": "61 * * * *"}},
			{"season schedule on February 30 (never fires)", "config season", map[string]any{"schedule": "0 0 30 2 *"}},
			{"season schedule on April 31 (never fires)", "config season", map[string]any{"schedule": "0 0 31 4 *"}},
			{"moderator role that is not an ID", "config moderator", map[string]any{"role": "everyone"}},
			{"announce channel that is not an ID", "config channels", map[string]any{"announce": "#general"}},
			{"report outcome banana", "report", map[string]any{"outcome": "banana", "match": mine.Match.ID}},
			{"report another guild's match", "report", map[string]any{"outcome": "win", "match": foreign.Match.ID}},
			{"join an unknown queue", "queue join", map[string]any{"queue": "nope"}},
			{"join with oneself as partner", "queue join", map[string]any{"partner": adminID}},
			{"join with a partner that is not an ID", "queue join", map[string]any{"partner": "bob"}},
			{"token with an empty name", "mod token create", map[string]any{"name": ""}},
			{"token with a 500-character name", "mod token create", map[string]any{"name": strings.Repeat("t", 500)}},
			{"revoke an unknown token", "mod token revoke", map[string]any{"name": "nope"}},
			// A web address cannot hold a path segment "." or "..": the
			// dashboard's page of such a queue, and the form revoking
			// such a token, could not be reached.
			{"token named .", "mod token create", map[string]any{"name": "."}},
			{"token named ..", "mod token create", map[string]any{"name": ".."}},
			{"queue named .", "config queue add", map[string]any{"name": ".", "team_size": int64(2)}},
			{"queue named ..", "config queue add", map[string]any{"name": "..", "team_size": int64(2)}},
			{"balance of one player", "balance", map[string]any{"p1": "601"}},
			{"balance of team size -1", "balance", map[string]any{"p1": "601", "p2": "602", "team_size": int64(-1)}},
			{"balance of team size 2^50", "balance", map[string]any{"p1": "601", "p2": "602", "team_size": huge}},
			{"balance of one player twice", "balance", map[string]any{"p1": "601", "p2": "601"}},
			{"match -1", "match", map[string]any{"match": int64(-1)}},
			{"another guild's match", "match", map[string]any{"match": foreign.Match.ID}},
			{"leaderboard season 2^50", "leaderboard", map[string]any{"season": huge}},
			{"leaderboard of an unknown division", "leaderboard", map[string]any{"division": "Mythic"}},
			{"profile of a player ID that is not one", "profile", map[string]any{"player": "<@601>"}},
			{"rd 9999 explodes the next win", "mod rating set", map[string]any{"player": "601", "rating": 1500.0, "rd": 9999.0}},
			{"rd below the model's floor", "mod rating set", map[string]any{"player": "601", "rating": 1500.0, "rd": 1.0}},
			{"room mode dungeon", "config queue room", map[string]any{"queue": "2v2", "room": "dungeon"}},
			{"room linger -1", "config queue room", map[string]any{"queue": "2v2", "room_linger": int64(-1)}},
			{"room linger a day and a second", "config queue room", map[string]any{"queue": "2v2", "room_linger": int64(86401)}},
			{"room linger 2^50 (overflows a duration)", "config queue room", map[string]any{"queue": "2v2", "room_linger": huge}},
			{"room category that is not an ID", "config queue room", map[string]any{"queue": "2v2", "room_category": "#matches"}},
			{"lobby voice with a NUL", "config queue room", map[string]any{"queue": "2v2", "lobby_voice": "1\x00"}},
			{"room of an unknown queue", "config queue room", map[string]any{"queue": "nope", "room": "thread"}},
			{"room with voice as a string", "config queue room", map[string]any{"queue": "2v2", "voice": "yes"}},
		}
		// Every string option, by the one identifier rule.
		for class, bad := range map[string]string{
			"NUL": "q\x00", "U+0001": "q\x01", "DEL": "q\x7f", "C1": "q\u0085", "bidi RLO": "q\u202e", "bidi LRI": "q\u2066", "invalid UTF-8": "q\xff",
		} {
			for _, c := range []struct{ command, opt string }{
				{"queue join", "queue"}, {"mod token create", "name"}, {"config queue add", "name"},
				{"mod rating set", "queue"}, {"leaderboard", "division"}, {"profile", "player"}, {"balance", "p1"},
			} {
				opts := map[string]any{c.opt: bad}
				switch c.command {
				case "config queue add":
					opts["team_size"] = int64(2)
				case "mod rating set":
					opts["player"], opts["rating"], opts["rd"] = "601", 1500.0, 50.0
				case "balance":
					opts["p2"] = "602"
				}
				tests = append(tests, struct {
					name    string
					command string
					opts    map[string]any
				}{class + " in /" + c.command + " " + c.opt, c.command, opts})
			}
		}
		before, err := testdb.TakeSnapshot(ctx, db.SQL(), db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				req := commands.Request{Kind: commands.KindCommand, InteractionID: "1", GuildID: guild, ChannelID: channel,
					UserID: adminID, UserName: "admin", Permissions: commands.PermManageGuild, Command: tt.command, Options: tt.opts}
				r, err := run(ctx, set, req)
				switch code := ladder.ErrorCode(err); {
				case err == nil:
					t.Errorf("Got(reply) = %q, want an error", r.Content)
				case code == ladder.CodeInternal || code == ladder.CodeUnavailable:
					t.Errorf("Got(error) = %v (%s), want a clear error for the user", err, code)
				case ladder.ErrorMessage(err) == "":
					t.Errorf("Got(error message) = empty for %v", err)
				}
			})
		}
		after, err := testdb.TakeSnapshot(ctx, db.SQL(), db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		if diff := before.Diff(after); len(diff) > 0 {
			t.Errorf("refused commands changed the database: %v", diff)
		}
	})
}
