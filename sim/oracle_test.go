package sim

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/integrity"
)

// The smurf oracle: how many of a season's smurfs could any detector that
// reads only results find, at the false-flag goal (one per 200 players a
// season)? The oracle knows what no detector knows: every other player's
// true skill, the exact skill a smurf plays at (SmurfSkill), the spread
// ordinary players' skills are drawn from, and the simulator's own result
// model. For each account whose first game came after the ladder's first
// 100 (the accounts the smurf test looks at), it keeps the Bayes factor of
// the account's results so far: their likelihood if the account plays at
// the smurfs' skill, against their likelihood averaged over the ordinary
// players' skills. Flagging an account when its factor (at any game) passes
// a threshold is the most powerful test there is between those two
// hypotheses; the threshold is set so the oracle raises as many false flags
// as the goal allows. A smurf it misses at that threshold cannot be told
// from an ordinary newcomer by its results, and no rule on the ladder's
// results would find it without raising more false flags.
//
// Beside it, the same accounts are scored by rules that know less, to
// tell where a detector loses against it: the oracle's test on the
// ratings instead of the skills (the chance the ladder showed, moved by
// the account's share of its team's mean, as the smurf test reads a
// game); the test as the ladder itself can place it (its established
// players' mean and spread instead of the simulator's skills); and the
// smurf test's own sum, with and without its floor, flagged at any game
// from the 10th, 20th or 30th on or judged once at the season's end.
//
// It is an analysis, not a check: it runs seasons with injected cheaters
// (minutes each under -race) and prints a table. Run it with
//
//	LADDERBOT_ORACLE_SEEDS=1501-1510 go test -run TestSmurfOracle -v ./sim/
//
// LADDERBOT_ORACLE_LATE=N adds N late players (Config.LatePlayers) to each
// season, and LADDERBOT_ORACLE_LLR=30,10 also runs each season with the
// smurf test at those thresholds (times as likely) and scores its flags.

// oracleGrid is the skills the ordinary hypothesis integrates over.
const (
	oracleLo, oracleHi, oracleStep = 0.0, 4000.0, 10.0
)

type oracleAccount struct {
	p      *player
	first  int       // the ladder's game count before its first game
	loglik []float64 // log-likelihood of its results at each grid skill
	h1     float64   // log-likelihood at the smurfs' skill
	games  int
	// best is the highest log Bayes factor so far, bestAt its game;
	// best10 from the 10th game on (as the smurf test decides).
	best, best10 float64
	bestAt       int
	// final is the factor after its last game: the whole season's
	// results, the most powerful test of all those a season allows.
	final float64
	// The same test on what the smurf test sees instead of every skill:
	// the chance the ladder showed and the account's own rating, moved
	// by its share of the team's mean (as gameLLR does). It still knows
	// the smurfs' skill and the ordinary players' spread; what it loses
	// against the oracle above is what the ratings do not know.
	rloglik              []float64
	rh1, rfinal, rbest10 float64
	// The ladder's view: what the smurf test itself knows. Skills are
	// placed by the mean and spread of the ratings its established
	// players play at (as smurf.go keeps them), not by the simulator's.
	// zloglik integrates over ordinary skills drawn as those ratings are
	// spread (z spreads from their mean), against zh1 at SmurfHigh
	// spreads; point is the smurf test's own sum (SmurfHigh against
	// SmurfLow spreads, each game weighed by its settled share), without
	// its floor. Both are judged at the season's end.
	zloglik    []float64
	zh1, point float64
	zfinal     float64
	// cusum is the smurf test's sum with its floor (SmurfFloor), as the
	// bot keeps it; pointFrom and cusumFrom hold the highest value each
	// reached from the account's 10th, 20th and 30th game on (flagging
	// at any game from then on).
	cusum                float64
	pointFrom, cusumFrom [3]float64
}

func (a *oracleAccount) logBF(prior []float64) float64 {
	return logBF(a.h1, a.loglik, prior)
}

// logBF is h1 − log Σ prior(s) L(s), with the largest term factored out.
func logBF(h1 float64, loglik, prior []float64) float64 {
	m := math.Inf(-1)
	for i, l := range loglik {
		m = max(m, l+prior[i])
	}
	sum := 0.0
	for i, l := range loglik {
		sum += math.Exp(l + prior[i] - m)
	}
	return h1 - (m + math.Log(sum))
}

// resultLL is the log-likelihood of a win (won) or a loss at win chance q.
func resultLL(q float64, won bool) float64 {
	if won {
		return math.Log(q)
	}
	return math.Log1p(-q)
}

type oracleSeason struct {
	seed     uint64
	accounts []*oracleAccount
	flagged  map[string]bool // names the smurf test flagged as smurfs
	matches  int
	// at holds, for each other smurf threshold tried, the season's
	// integrity score (the flags do not change how a season plays, so
	// each run meets the same games).
	at []IntegrityStats
	// base is the season's score under the thresholds the bot runs with.
	base IntegrityStats
}

// smurfFlagged is the names res's smurf flags name.
func smurfFlagged(st IntegrityStats) map[string]bool {
	out := map[string]bool{}
	for _, line := range append(slices.Clone(st.Hits), st.False...) {
		rest, ok := strings.CutPrefix(line, "smurf:")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, " (skill")
		out[name] = true
	}
	return out
}

func runOracleSeason(t *testing.T, seed uint64, late int, llrs []float64) oracleSeason {
	cfg := Defaults()
	cfg.Seed, cfg.LatePlayers = seed, late
	cfg.PartySynergy = 100 // as `ladderbot simulate` sets it
	cfg.Cheaters = map[string]int{CheatWinTrade: 2, CheatSmurf: 3, CheatBoost: 2}
	smurf := 1500 + 4*cfg.SkillSD
	var grid, prior []float64
	for s := oracleLo; s <= oracleHi; s += oracleStep {
		grid = append(grid, s)
	}
	// The ordinary players' skills: normal around 1500, SkillSD wide
	// (normalised over the grid, in logs).
	z := 0.0
	for _, s := range grid {
		d := (s - 1500) / cfg.SkillSD
		prior = append(prior, -d*d/2)
		z += math.Exp(-d * d / 2)
	}
	for i := range prior {
		prior[i] -= math.Log(z)
	}
	th := integrity.DefaultThresholds()
	var zgrid, zprior []float64
	zz := 0.0
	for z := -4.0; z <= 8.0001; z += 0.1 {
		zgrid = append(zgrid, z)
		zprior = append(zprior, -z*z/2)
		zz += math.Exp(-z * z / 2)
	}
	for i := range zprior {
		zprior[i] -= math.Log(zz)
	}
	// The ladder's established players' ratings, as smurf.go weighs them.
	popN, popMean, popVar := 0, 0.0, 0.0
	rating := func(p *player) float64 {
		if k := len(p.trajectory); k > 0 {
			return p.trajectory[k-1].Rating
		}
		return 1500
	}
	out := oracleSeason{seed: seed, flagged: map[string]bool{}}
	byID := map[string]*oracleAccount{}
	seen := map[string]bool{}
	games := 0
	elo := func(x float64) float64 { return 1 / (1 + math.Pow(10, -x/400)) }
	cfg.observe = func(teams [2][]*player, playing [2][]float64, pTeam1 float64, team1Won bool) {
		var sum [2]float64
		for t := range 2 {
			for _, v := range playing[t] {
				sum[t] += v
			}
		}
		popSD := math.Sqrt(max(popVar, 0))
		popOK := popN >= 100 && popSD > 0
		for t := range 2 {
			n := float64(len(teams[t]))
			won := team1Won == (t == 0)
			for i, p := range teams[t] {
				if !seen[p.id] {
					seen[p.id] = true
					if games >= 100 {
						a := &oracleAccount{p: p, first: games, loglik: make([]float64, len(grid)), rloglik: make([]float64, len(grid)), zloglik: make([]float64, len(zgrid)), rbest10: math.Inf(-1), best: math.Inf(-1), best10: math.Inf(-1)}
						for i := range a.pointFrom {
							a.pointFrom[i], a.cusumFrom[i] = math.Inf(-1), math.Inf(-1)
						}
						byID[p.id] = a
						out.accounts = append(out.accounts, a)
					}
				}
				a := byID[p.id]
				if a == nil {
					continue
				}
				// The account's own part of its team's mean is what the
				// hypotheses change; a party's synergy stays.
				rest := sum[t] - playing[t][i]
				syn := playing[t][i] - p.skill
				oppMean := sum[1-t] / float64(len(teams[1-t]))
				ll := func(s float64) float64 { return resultLL(elo((rest+s+syn)/n-oppMean), won) }
				for k, s := range grid {
					a.loglik[k] += ll(s)
				}
				a.h1 += ll(smurf)
				// What the ratings say: the shown chance, moved by the gap
				// between a skill and the account's rating, shared.
				shown := pTeam1
				if t == 1 {
					shown = 1 - pTeam1
				}
				shown = min(max(shown, 1e-9), 1-1e-9)
				x := math.Log(shown / (1 - shown))
				r := rating(p)
				rll := func(s float64) float64 { return resultLL(1/(1+math.Exp(-(x+math.Ln10/400*(s-r)/n))), won) }
				for k, s := range grid {
					a.rloglik[k] += rll(s)
				}
				a.rh1 += rll(smurf)
				if popOK {
					for k, z := range zgrid {
						a.zloglik[k] += rll(popMean + z*popSD)
					}
					a.zh1 += rll(popMean + th.SmurfHigh*popSD)
					// The smurf test's game: its two points, weighed by
					// the share of the other players who are established.
					others, settled := 0, 0
					for tt := range 2 {
						for _, v := range teams[tt] {
							if v != p {
								others++
								if v.games >= th.SmurfEstablished {
									settled++
								}
							}
						}
					}
					g := float64(settled) / float64(others) * (rll(popMean+th.SmurfHigh*popSD) - rll(popMean+th.SmurfLow*popSD))
					a.point += g
					a.cusum = max(a.cusum+g, th.SmurfFloor)
				}
				for i, from := range []int{10, 20, 30} {
					if a.games+1 >= from {
						a.pointFrom[i] = max(a.pointFrom[i], a.point)
						a.cusumFrom[i] = max(a.cusumFrom[i], a.cusum)
					}
				}
				a.games++
				bf := a.logBF(prior)
				if bf > a.best {
					a.best, a.bestAt = bf, a.games
				}
				a.final = bf
				a.rfinal = logBF(a.rh1, a.rloglik, prior)
				a.zfinal = logBF(a.zh1, a.zloglik, zprior)
				if a.games >= 10 {
					a.rbest10 = max(a.rbest10, a.rfinal)
				}
				if a.games >= 10 && bf > a.best10 {
					a.best10 = bf
				}
			}
		}
		for t := range 2 {
			for _, p := range teams[t] {
				if p.games < th.SmurfEstablished {
					continue
				}
				popN++
				x := rating(p)
				w := max(1.0/500, 1/float64(popN))
				d := x - popMean
				popMean += w * d
				popVar = (1 - w) * (popVar + w*d*d)
			}
		}
		games++
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Errorf("seed %d: %v", seed, err)
		return out
	}
	out.matches = res.Matches
	out.flagged = smurfFlagged(res.Integrity)
	out.base = res.Integrity
	cfg.observe = nil
	for _, llr := range llrs {
		th := th
		th.SmurfLLR = math.Log(llr)
		cfg.Thresholds = &th
		r, err := Run(context.Background(), cfg)
		if err != nil {
			t.Errorf("seed %d at %g times: %v", seed, llr, err)
			return out
		}
		if r.Matches != res.Matches {
			t.Errorf("seed %d at %g times: %d matches, want the same season (%d)", seed, llr, r.Matches, res.Matches)
		}
		out.at = append(out.at, r.Integrity)
	}
	return out
}

// seedRange reads the seeds first-last of an analysis from the variable
// name, skipping the test (with why) when it is unset.
func seedRange(t *testing.T, name, why string) (first, last uint64) {
	t.Helper()
	spec := os.Getenv(name)
	if spec == "" {
		t.Skipf("%s: set %s=first-last to run it", why, name)
	}
	a, b, _ := strings.Cut(spec, "-")
	first, err1 := strconv.ParseUint(a, 10, 64)
	last, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil || last < first {
		t.Fatalf("%s=%q: want first-last", name, spec)
	}
	return first, last
}

func TestSmurfOracle(t *testing.T) {
	first, last := seedRange(t, "LADDERBOT_ORACLE_SEEDS", "an analysis of simulated seasons, minutes each")
	var llrs []float64
	if v := os.Getenv("LADDERBOT_ORACLE_LLR"); v != "" {
		for _, f := range strings.Split(v, ",") {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil || x <= 1 {
				t.Fatalf("LADDERBOT_ORACLE_LLR=%q: want thresholds above 1 (times as likely), comma-separated", v)
			}
			llrs = append(llrs, x)
		}
	}
	late := 0
	if v := os.Getenv("LADDERBOT_ORACLE_LATE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Fatalf("LADDERBOT_ORACLE_LATE=%q: want a count of late players", v)
		}
		late = n
	}
	seasons := make([]oracleSeason, last-first+1)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range seasons {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			seasons[i] = runOracleSeason(t, first+uint64(i), late, llrs)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	type row struct {
		seed            uint64
		a               *oracleAccount
		smurf, detected bool
	}
	var rows []row
	for _, s := range seasons {
		for _, a := range s.accounts {
			rows = append(rows, row{s.seed, a, a.p.cheat == CheatSmurf, s.flagged[a.p.name]})
		}
	}
	// Sweep: at each false-flag budget, the oracle's threshold is the
	// budget+1-th highest factor among accounts that are not smurfs.
	type rule struct {
		label string
		score func(*oracleAccount) float64
	}
	rules := []rule{
		{"at any game", func(a *oracleAccount) float64 { return a.best }},
		{"from the 10th game", func(a *oracleAccount) float64 { return a.best10 }},
		{"at the season's end", func(a *oracleAccount) float64 { return a.final }},
		{"on ratings, from the 10th game", func(a *oracleAccount) float64 { return a.rbest10 }},
		{"on ratings, at the season's end", func(a *oracleAccount) float64 { return a.rfinal }},
		{"as the ladder sees it, at the season's end", func(a *oracleAccount) float64 { return a.zfinal }},
		{"the smurf test's sum without its floor, at the season's end", func(a *oracleAccount) float64 { return a.point }},
	}
	for i, from := range []string{"10th", "20th", "30th"} {
		rules = append(rules,
			rule{"the smurf test (with its floor) from the " + from + " game", func(a *oracleAccount) float64 { return a.cusumFrom[i] }},
			rule{"the smurf test's sum without its floor from the " + from + " game", func(a *oracleAccount) float64 { return a.pointFrom[i] }})
	}
	for _, ru := range rules {
		score := func(r row) float64 { return ru.score(r.a) }
		var others []float64
		smurfs := 0
		for _, r := range rows {
			if r.smurf {
				smurfs++
			} else {
				others = append(others, score(r))
			}
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(others)))
		label := ru.label
		for _, budget := range []int{0, len(seasons) / 4, len(seasons) / 2, len(seasons), 2 * len(seasons)} {
			th := math.Inf(1)
			if budget < len(others) {
				th = others[budget]
			}
			found := 0
			for _, r := range rows {
				if r.smurf && score(r) > th {
					found++
				}
			}
			t.Logf("oracle %s, %d false flags allowed in %d seasons: threshold %.0f times, %d of %d smurfs", label, budget, len(seasons), math.Exp(th), found, smurfs)
		}
	}
	// The test at any game (as it runs, from the 10th game) at a higher
	// threshold, with a review at the season's end of the sum without the
	// floor at a lower one: an account is flagged by either.
	for _, anyTimes := range []float64{20, 50, 100, 300} {
		for _, review := range []float64{3, 5, 10, 20} {
			found, falseFlags, smurfs := 0, 0, 0
			for _, r := range rows {
				flagged := r.a.cusumFrom[0] >= math.Log(anyTimes) || r.a.point >= math.Log(review)
				if r.smurf {
					smurfs++
					if flagged {
						found++
					}
				} else if flagged {
					falseFlags++
				}
			}
			t.Logf("at any game from the 10th at %g times, or at the season's end at %g times: %d of %d smurfs, %d false flags in %d seasons",
				anyTimes, review, found, smurfs, falseFlags, len(seasons))
		}
	}
	// The smurf test at the thresholds tried: smurfs found, and false
	// flags of every kind (as `simulate` scores them).
	for k := -1; k < len(llrs); k++ {
		smurfs, found, falseFlags, cheaters, foundAll, lateFlagged := 0, 0, 0, 0, 0, 0
		label := "as the bot runs it"
		if k >= 0 {
			label = fmt.Sprintf("at %g times", llrs[k])
		}
		for _, s := range seasons {
			st := s.base
			if k >= 0 {
				st = s.at[k]
			}
			flagged := smurfFlagged(st)
			for _, a := range s.accounts {
				switch {
				case a.p.cheat == CheatSmurf:
					smurfs++
					if flagged[a.p.name] {
						found++
					}
				case a.p.cheat == "" && a.p.arrival >= Defaults().Days/3 && flagged[a.p.name]:
					lateFlagged++
				}
			}
			falseFlags += st.FalseFlags
			cheaters += st.Cheaters
			foundAll += st.Found
		}
		t.Logf("smurf test %s: %d of %d smurfs, %d of %d cheaters, %d false flags in %d seasons (%d smurf flags on late players)",
			label, found, smurfs, foundAll, cheaters, falseFlags, len(seasons), lateFlagged)
	}
	// The smurfs, and the ordinary accounts the oracle rates highest.
	sort.Slice(rows, func(i, j int) bool { return rows[i].a.best > rows[j].a.best })
	shown := 0
	for _, r := range rows {
		kind := r.a.p.cheat
		switch {
		case kind == "" && r.a.p.arrival >= Defaults().Days/3:
			kind = "late"
		case kind == "":
			kind = "ordinary"
		}
		if !r.smurf && shown >= 3*len(seasons) {
			continue
		}
		if !r.smurf {
			shown++
		}
		t.Logf("seed %d %-9s %-14s skill %4.0f games %3d  oracle best %9.1f times (game %d), from 10th %9.1f, at the end %9.1f  smurf test flagged %v",
			r.seed, kind, r.a.p.name, r.a.p.skill, r.a.games, math.Exp(r.a.best), r.a.bestAt, math.Exp(r.a.best10), math.Exp(r.a.final), r.detected)
	}
	for _, s := range seasons {
		fmt.Fprintf(os.Stderr, "seed %d: %d matches, %d accounts after the first 100 games\n", s.seed, s.matches, len(s.accounts))
	}
}
