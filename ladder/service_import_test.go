package ladder_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TestImportNames checks that the match CSV's names reach the players'
// rows and come back out in the export: the latest name of a player wins,
// a player without one keeps none, and importing again with names added
// names the players of the first import.
func TestImportNames(t *testing.T) {
	behaviours(t, []behaviour{
		{"stored and exported", func(t *testing.T, e *env) {
			day := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
			recs := []rating.MatchRecord{
				{Date: day, Team1: users[:2], Team2: users[2:4], Winner: 1, Names: map[string]string{users[0]: "Ann", users[1]: "Bo"}},
				{Date: day.Add(time.Hour), Team1: users[:2], Team2: users[2:4], Winner: 2, Names: map[string]string{users[0]: "Annie"}},
			}
			if _, err := e.svc.ImportMatches(e.ctx, guild, "", recs, nil); err != nil {
				t.Fatalf("ImportMatches() = %v", err)
			}
			names := must(e.svc.PlayerNames(e.ctx, guild, users[:4]))
			if want := map[string]string{users[0]: "Annie", users[1]: "Bo", users[2]: "", users[3]: ""}; !reflect.DeepEqual(names, want) {
				t.Errorf("Got(PlayerNames) = %v, want %v", names, want)
			}
			out := must(e.svc.ExportMatches(e.ctx, guild, "", 0))
			want := map[string]string{users[0]: "Annie", users[1]: "Bo"}
			if len(out) != 2 || !reflect.DeepEqual(out[0].Names, want) || !reflect.DeepEqual(out[1].Names, want) {
				t.Errorf("Got(ExportMatches) = %+v, want two matches named %v", out, want)
			}
			recs[1].Names = map[string]string{users[2]: "Cy"}
			rep := must(e.svc.ImportMatches(e.ctx, guild, "", recs, nil))
			if rep.Imported != 0 || rep.Skipped != 2 {
				t.Errorf("Got(ImportMatches again) = %+v, want 0 imported, 2 skipped", rep)
			}
			if n := must(e.svc.PlayerNames(e.ctx, guild, users[2:3]))[users[2]]; n != "Cy" {
				t.Errorf("Got(name of %s after the second import) = %q, want Cy", users[2], n)
			}
		}},
	})
}
