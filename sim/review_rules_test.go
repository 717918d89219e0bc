package sim

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/integrity"
)

// TestSmurfReviewRules runs the real bot's integrity flags on simulated
// seasons under several smurf rules, each a pair of the test's threshold
// at any game and the season's-end review's (times as likely; a review of
// 0 is none), and prints for each how many injected cheaters and smurfs
// its flags found and how many false flags it raised. It is how the
// smurf thresholds were chosen and then held out on fresh seeds
// (docs/commands.md#integrity-flags). Each season is played once per rule
// from the same seed; the seasons must be the same.
//
//	LADDERBOT_REVIEW_SEEDS=1701-1720 LADDERBOT_REVIEW_RULES=20/0,100/5 go test -run TestSmurfReviewRules -v ./sim/
func TestSmurfReviewRules(t *testing.T) {
	first, last := seedRange(t, "LADDERBOT_REVIEW_SEEDS", "an analysis of simulated seasons, half a minute each per rule")
	type rule struct{ any, review float64 }
	var rules []rule
	for _, f := range strings.Split(cmp.Or(os.Getenv("LADDERBOT_REVIEW_RULES"), "20/0,100/5"), ",") {
		x, y, _ := strings.Cut(f, "/")
		r1, err1 := strconv.ParseFloat(x, 64)
		r2, err2 := strconv.ParseFloat(y, 64)
		if err1 != nil || err2 != nil || r1 <= 1 || (r2 != 0 && r2 <= 1) {
			t.Fatalf("LADDERBOT_REVIEW_RULES=%q: want any/review pairs of times as likely (above 1; review 0 for none), comma-separated", f)
		}
		rules = append(rules, rule{r1, r2})
	}
	late := 40
	if v := os.Getenv("LADDERBOT_REVIEW_LATE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Fatalf("LADDERBOT_REVIEW_LATE=%q: want a count of late players", v)
		}
		late = n
	}
	type cell struct {
		st      IntegrityStats
		matches int
		smurfs  int
		found   int
	}
	n := int(last - first + 1)
	cells := make([][]cell, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range n {
		cells[i] = make([]cell, len(rules))
		for j, r := range rules {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				cfg := Defaults()
				cfg.Seed, cfg.LatePlayers = first+uint64(i), late
				cfg.PartySynergy = 100 // as `ladderbot simulate` sets it
				cfg.Cheaters = map[string]int{CheatWinTrade: 2, CheatSmurf: 3, CheatBoost: 2}
				th := integrity.DefaultThresholds()
				th.SmurfLLR, th.SmurfReview = math.Log(r.any), 0
				if r.review > 0 {
					th.SmurfReview = math.Log(r.review)
				}
				cfg.Thresholds = &th
				res, err := Run(context.Background(), cfg)
				if err != nil {
					t.Errorf("seed %d, rule %g/%g: %v", cfg.Seed, r.any, r.review, err)
					return
				}
				c := cell{st: res.Integrity, matches: res.Matches}
				for _, m := range res.Integrity.Missed {
					if strings.HasPrefix(m, CheatSmurf+":") {
						c.smurfs++
					}
				}
				for _, h := range res.Integrity.Hits {
					if strings.HasPrefix(h, "smurf:") {
						c.found++
					}
				}
				c.smurfs += c.found
				cells[i][j] = c
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i := range n {
		for j := range rules {
			if cells[i][j].matches != cells[i][0].matches {
				t.Fatalf("seed %d: %d matches under rule %d, %d under the first: want the same season", first+uint64(i), cells[i][j].matches, j, cells[i][0].matches)
			}
		}
	}
	fmt.Printf("seeds %d-%d, %d late players\n", first, last, late)
	fmt.Printf("%-12s %9s %9s %12s %13s %18s\n", "rule", "cheaters", "found", "smurf flags", "false flags", "false smurf flags")
	for j, r := range rules {
		var cheaters, found, smurfHits, ff, ffSmurf int
		for i := range n {
			c := cells[i][j]
			cheaters += c.st.Cheaters
			found += c.st.Found
			smurfHits += c.found
			ff += c.st.FalseFlags
			for _, f := range c.st.False {
				if strings.HasPrefix(f, "smurf:") {
					ffSmurf++
				}
			}
		}
		fmt.Printf("%-12s %9d %9d %12d %13d %18d\n", fmt.Sprintf("%g/%g", r.any, r.review), cheaters, found, smurfHits, ff, ffSmurf)
	}
	for j, r := range rules {
		for i := range n {
			for _, m := range cells[i][j].st.Missed {
				fmt.Printf("rule %g/%g, seed %d: missed %s\n", r.any, r.review, first+uint64(i), m)
			}
		}
	}
}
