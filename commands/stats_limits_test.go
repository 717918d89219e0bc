package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/i18n"
)

// TestStatsWithinFieldLimits: /stats of an 8v8 queue lists its five
// upsets, each naming sixteen players, and players with the longest
// names an import keeps: in every language each list is whole lines
// within Discord's 1,024 characters a field, the lines left out counted,
// and the embed within 6,000 characters, rather than Discord's clip
// cutting a line (and a mention) off in the middle.
func TestStatsWithinFieldLimits(t *testing.T) {
	id := func(i int) string { return fmt.Sprintf("13000000000000%05d", i) }
	team := func(from int) []string {
		out := make([]string, 8) // the largest team a queue has
		for i := range out {
			out[i] = id(from + i)
		}
		return out
	}
	long := strings.Repeat("n", 128)
	var st community.Stats
	st.Queue.Name = strings.Repeat("q", 32)
	for i := range statsListed {
		p := community.PlayerCount{UserID: id(i), Name: long, Count: 100 + i}
		st.Active = append(st.Active, p)
		st.Streaks = append(st.Streaks, p)
		st.BestStreaks = append(st.BestStreaks, p)
		st.Upsets = append(st.Upsets, community.Upset{MatchSummary: community.MatchSummary{ID: int64(100000 + i), Winner: 2,
			Team1: team(100 * i), Team2: team(100*i + 50)}, Chance: 0.12})
		st.Partnerships = append(st.Partnerships, community.Partnership{A: id(i), B: id(i + 1), NameA: long, NameB: long,
			Record: community.Record{Wins: 30, Losses: 10}})
		st.Predictors = append(st.Predictors, community.PredictorRow{UserID: id(i), Name: long, Points: 40, Correct: 20, Called: 30})
		st.MVPs = append(st.MVPs, community.MVPRow{UserID: id(i), Name: long, MVPs: 5, Votes: 12})
		st.Improved = append(st.Improved, community.Improvement{UserID: id(i), Name: long, From: 1400, To: 1700, Games: 40})
	}
	for _, code := range []string{"en", "de", "fr", "es", "pt-BR"} {
		l := i18n.For(code)
		r := statsReply(l, st)
		e := r.Embeds[0]
		total := utf8.RuneCountInString(e.Title + e.Description + e.Footer)
		for _, f := range e.Fields {
			total += utf8.RuneCountInString(f.Name + f.Value)
			if n := utf8.RuneCountInString(f.Value); n > embedFieldValue {
				t.Errorf("%s: Got(field %q) = %d characters, want at most %d", code, f.Name, n, embedFieldValue)
			}
		}
		if total > embedTotal {
			t.Errorf("%s: Got(embed) = %d characters, want at most %d", code, total, embedTotal)
		}
		upsets := e.Fields[3].Value
		counted := false
		for k := 1; k < statsListed; k++ {
			counted = counted || strings.HasSuffix(upsets, l.T("mod.more", "Count", l.Int(k)))
		}
		if !strings.Contains(upsets, "#100000") || !counted {
			t.Errorf("%s: Got(upsets) = %q, want the first upset whole and the ones left out counted", code, upsets)
		}
		for _, line := range strings.Split(upsets, "\n") {
			if strings.Count(line, "<@") != strings.Count(line, ">") {
				t.Errorf("%s: Got(upset line) = %q, want its mentions whole", code, line)
			}
		}
	}
}
