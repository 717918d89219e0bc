package commands_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
)

// leaf is one runnable command path and its options.
type leaf struct {
	path string
	opts []commands.Option
}

func leavesOf(prefix string, opts []commands.Option) []leaf {
	var out []leaf
	sub := false
	for _, o := range opts {
		if o.Type == commands.OptSubcommand || o.Type == commands.OptSubcommandGroup {
			sub = true
			out = append(out, leavesOf(prefix+" "+o.Name, o.Options)...)
		}
	}
	if !sub {
		out = append(out, leaf{prefix, opts})
	}
	return out
}

// FuzzCommandOptions runs every slash command, as a guild admin, on
// embedded SQLite with fuzzed option values of the declared types (and,
// when wrong is set, of other types, as a modified client could send):
// no handler panics or answers an internal error, and whatever was
// accepted leaves the guild working (its settings and leaderboard load).
func FuzzCommandOptions(f *testing.F) {
	ctx := context.Background()
	db, err := storage.Open(ctx, "sqlite:"+filepath.Join(f.TempDir(), "ladder.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	jn := joins.New(db, svc)
	svc.SetJoinGate(jn)
	set := commands.New(commands.Deps{Service: svc, Rooms: rooms.New(db, nil, svc, nil), Community: community.New(db, svc), Formats: formats.New(db, svc), Joins: jn, Integrity: integrity.New(db, nil)})
	var all []leaf
	for _, c := range set.Commands() {
		all = append(all, leavesOf(c.Name, c.Options)...)
	}
	slices.SortFunc(all, func(a, b leaf) int { return strings.Compare(a.path, b.path) })
	if _, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild, Team1: []string{"601", "602"}, Team2: []string{"603", "604"}, Winner: 1, Source: "test"}); err != nil {
		f.Fatal(err)
	}
	for i := range all {
		f.Add(uint8(i), "601", int64(1), 1500.0, true, uint8(0), false)
		f.Add(uint8(i), "Gold:NaN, x", int64(-1), -1e308, false, uint8(255), true)
	}
	f.Fuzz(func(t *testing.T, pick uint8, s string, n int64, x float64, b bool, omit uint8, wrong bool) {
		l := all[int(pick)%len(all)]
		opts := map[string]any{}
		for i, o := range l.opts {
			if omit&(1<<(i%8)) != 0 && !o.Required {
				continue
			}
			var v any
			switch o.Type {
			case commands.OptString, commands.OptUser, commands.OptChannel, commands.OptRole:
				v = s
			case commands.OptInteger:
				v = n
			case commands.OptNumber:
				v = x
			case commands.OptBool:
				v = b
			}
			if wrong {
				v = []any{s, n, x, b}[(i+int(omit))%4]
			}
			opts[o.Name] = v
		}
		req := commands.Request{Kind: commands.KindCommand, InteractionID: "1", GuildID: guild, ChannelID: channel,
			UserID: adminID, UserName: "admin", Permissions: commands.PermManageGuild, Command: l.path, Options: opts}
		if _, err := run(ctx, set, req); err != nil {
			if c := ladder.ErrorCode(err); c == ladder.CodeInternal || c == ladder.CodeUnavailable {
				t.Fatalf("/%s %v: Got(error) = %v (%s), want a clear error for the user", l.path, opts, err, c)
			}
		}
		if _, err := svc.EnsureGuild(ctx, guild); err != nil {
			t.Fatalf("after /%s %v the guild does not load: %v", l.path, opts, err)
		}
		if _, err := svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guild}); err != nil && ladder.ErrorCode(err) == ladder.CodeInternal {
			t.Fatalf("after /%s %v the leaderboard fails: %v", l.path, opts, err)
		}
	})
}
