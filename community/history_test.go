package community_test

import (
	"testing"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestHistoryPaging walks a player's matches back in pages of three and
// forward again: every match once, newest first, cursors only where a page
// lies.
func TestHistoryPaging(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		var ids []int64
		q := community.HistoryQuery{GuildID: guild, Player: user(1), Limit: 3}
		var pages []community.HistoryPage
		for {
			p, err := e.com.History(e.ctx, q)
			if err != nil {
				t.Fatalf("History(%+v): %v", q, err)
			}
			pages = append(pages, p)
			for _, m := range p.Matches {
				ids = append(ids, m.ID)
				if m.Queue == "" || m.Season != 1 || len(m.Team1)+len(m.Team2) != 4 {
					t.Errorf("Got(match) = %+v, want its queue, season 1 and four players", m)
				}
			}
			if p.Older == 0 {
				break
			}
			q.Before = p.Older
		}
		if len(ids) != 8 || len(pages) != 3 {
			t.Fatalf("Got(%d matches in %d pages), want 8 in 3", len(ids), len(pages))
		}
		for i := 1; i < len(ids); i++ {
			if ids[i] >= ids[i-1] {
				t.Errorf("Got(IDs) = %v, want strictly newest first", ids)
			}
		}
		if pages[0].Newer != 0 || pages[1].Newer != ids[3] || pages[2].Newer != ids[6] {
			t.Errorf("Got(newer cursors) = %d %d %d, want 0 %d %d", pages[0].Newer, pages[1].Newer, pages[2].Newer, ids[3], ids[6])
		}
		// Forward from the last page gives the middle page back.
		back, err := e.com.History(e.ctx, community.HistoryQuery{GuildID: guild, Player: user(1), Limit: 3, After: pages[2].Newer})
		if err != nil || len(back.Matches) != 3 || back.Matches[0].ID != ids[3] || back.Older != ids[5] || back.Newer != ids[3] {
			t.Errorf("Got(page after %d) = %+v, %v, want the middle page", pages[2].Newer, back, err)
		}
		// The other guild's matches never show, whatever the cursor.
		all, err := e.com.History(e.ctx, community.HistoryQuery{GuildID: guild, Limit: 100, Before: 1 << 40})
		if err != nil || len(all.Matches) != 8 {
			t.Errorf("Got(all of the guild) = %d matches, %v, want 8", len(all.Matches), err)
		}
	})
}

func TestHistoryHostile(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		cases := []struct {
			name string
			q    community.HistoryQuery
			want ladder.Code
		}{
			{"unknown player", community.HistoryQuery{GuildID: guild, Player: user(99)}, ladder.CodeNotFound},
			{"another guild's player", community.HistoryQuery{GuildID: guild, Player: user(11)}, ladder.CodeNotFound},
			{"player not an ID", community.HistoryQuery{GuildID: guild, Player: "<@1>"}, ladder.CodeInvalid},
			{"unknown queue", community.HistoryQuery{GuildID: guild, Queue: "9v9"}, ladder.CodeNotFound},
			{"unknown season", community.HistoryQuery{GuildID: guild, Season: 2}, ladder.CodeNotFound},
			{"negative cursor", community.HistoryQuery{GuildID: guild, Before: -5}, ladder.CodeInvalid},
			{"both cursors", community.HistoryQuery{GuildID: guild, Before: 5, After: 2}, ladder.CodeInvalid},
			{"limit too big", community.HistoryQuery{GuildID: guild, Limit: 101}, ladder.CodeInvalid},
			{"bad guild", community.HistoryQuery{GuildID: "guild"}, ladder.CodeInvalid},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := e.com.History(e.ctx, tc.q)
				if ladder.ErrorCode(err) != tc.want {
					t.Errorf("Got(History error) = %v (%s), want %s", err, ladder.ErrorCode(err), tc.want)
				}
			})
		}
		// A cursor past the end is an empty page, not an error.
		p, err := e.com.History(e.ctx, community.HistoryQuery{GuildID: guild, Before: 1})
		if err != nil || len(p.Matches) != 0 || p.Older != 0 || p.Newer != 0 {
			t.Errorf("Got(before 1) = %+v, %v, want an empty page", p, err)
		}
	})
}

func TestStats(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		st, err := e.com.Stats(e.ctx, guild, "", 0, 10)
		if err != nil {
			t.Fatalf("Stats: %v", err)
		}
		if len(st.Active) != 4 || st.Active[0].Count != 8 {
			t.Errorf("Got(active) = %+v, want four players with 8 matches", st.Active)
		}
		// 2 and 4 won the last two; 1 and 3 lost them.
		if len(st.Streaks) != 2 || st.Streaks[0].UserID != user(2) || st.Streaks[1].UserID != user(4) || st.Streaks[0].Count != 2 {
			t.Errorf("Got(streaks) = %+v, want users 2 and 4 on 2", st.Streaks)
		}
		if len(st.Upsets) != 7 {
			t.Fatalf("Got(%d upsets), want every decisive match (7)", len(st.Upsets))
		}
		for i, u := range st.Upsets {
			want := u.PTeam1
			if u.Winner == 2 {
				want = 1 - want
			}
			if u.Chance != want || (i > 0 && u.Chance < st.Upsets[i-1].Chance) || len(u.Team1) != 2 {
				t.Errorf("Got(upset %d) = %+v, want the winners' chance %v, ascending", i, u, want)
			}
		}
		wantPairs := []community.Partnership{
			{A: user(1), B: user(2), Record: community.Record{Wins: 4, Losses: 1, Draws: 1}},
			{A: user(3), B: user(4), Record: community.Record{Wins: 1, Losses: 4, Draws: 1}},
		}
		if len(st.Partnerships) != 2 {
			t.Fatalf("Got(partnerships) = %+v, want %+v", st.Partnerships, wantPairs)
		}
		for i, w := range wantPairs {
			if g := st.Partnerships[i]; g.A != w.A || g.B != w.B || g.Record != w.Record {
				t.Errorf("Got(partnership %d) = %+v, want %+v", i, g, w)
			}
		}
		// Everyone's longest run of the season: 1, 2 and 4 won two in a
		// row (1's run has ended), 3 won one.
		wantBest := []community.PlayerCount{{UserID: user(1), Count: 2}, {UserID: user(2), Count: 2}, {UserID: user(4), Count: 2}, {UserID: user(3), Count: 1}}
		if !sameCounts(st.BestStreaks, wantBest) {
			t.Errorf("Got(best streaks) = %+v, want %+v", st.BestStreaks, wantBest)
		}
		if _, err := e.com.Stats(e.ctx, guild, "", 0, 0); ladder.ErrorCode(err) != ladder.CodeInvalid {
			t.Errorf("Got(Stats limit 0) = %v, want invalid", err)
		}
		if _, err := e.com.Stats(e.ctx, "100000000000000001", "", 0, 5); ladder.ErrorCode(err) != ladder.CodeNotFound {
			t.Errorf("Got(Stats of an unknown guild) = %v, want not found", err)
		}
	})
}

// sameCounts reports whether got lists want's players and counts, in order.
func sameCounts(got, want []community.PlayerCount) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		if got[i].UserID != want[i].UserID || got[i].Count != want[i].Count {
			return false
		}
	}
	return true
}

// TestBestStreaksFollowCorrections: the season's longest runs of wins
// are kept with the record, so a moderator's correction of an early
// match, which replays the ladder, moves them at once (up, and back down
// when the match is voided), and verify finds the stored rows equal to a
// replay of the log.
func TestBestStreaksFollowCorrections(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, b string) {
		e := newEnv(t, b)
		all, err := e.com.History(e.ctx, community.HistoryQuery{GuildID: guild, Player: user(1), Limit: 10})
		if err != nil || len(all.Matches) != 8 {
			t.Fatalf("History() = %d matches, %v; want 8", len(all.Matches), err)
		}
		// The third match, 1+2's only loss to 3+4: won instead, 1 and 2
		// win five in a row.
		third := all.Matches[len(all.Matches)-3]
		best := func(step string, want []community.PlayerCount) {
			t.Helper()
			st, err := e.com.Stats(e.ctx, guild, "", 0, 10)
			if err != nil {
				t.Fatalf("%s: Stats() = %v", step, err)
			}
			if !sameCounts(st.BestStreaks, want) {
				t.Errorf("%s: Got(best streaks) = %+v, want %+v", step, st.BestStreaks, want)
			}
			rep, err := e.svc.Verify(e.ctx, guild)
			if err != nil || len(rep.Diffs) != 0 {
				t.Errorf("%s: Verify() = %v, %v; want no differences", step, rep.Diffs, err)
			}
		}
		if _, err := e.svc.Correct(e.ctx, moderator, guild, third.ID, 1, "1 and 2 won it"); err != nil {
			t.Fatalf("Correct() = %v", err)
		}
		best("corrected", []community.PlayerCount{{UserID: user(1), Count: 5}, {UserID: user(2), Count: 5}, {UserID: user(4), Count: 2}})
		if _, err := e.svc.Void(e.ctx, moderator, guild, third.ID, "never played"); err != nil {
			t.Fatalf("Void() = %v", err)
		}
		// Without it, 1 and 2 won four in a row; 3 never won.
		best("voided", []community.PlayerCount{{UserID: user(1), Count: 4}, {UserID: user(2), Count: 4}, {UserID: user(4), Count: 2}})
	})
}
