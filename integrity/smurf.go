package integrity

import (
	"math"
	"slices"
)

// The smurf detector. A smurf is a strong player's new account: its
// rating starts at the ladder's default and lags far behind its play for
// dozens of games. So does the rating of every strong newcomer, and in a
// team game a smurf lifts its team by only a share of its edge, so how far
// a new account beats the chances shown does not tell the two apart well
// (the best ordinary newcomers of a season beat them about as far as
// smurfs do). What tells them apart better is how strong the results say
// the account is, against the ladder's own players: a smurf plays above
// every established player, a strong newcomer among the best of them.
//
// Each of a new account's first SmurfGames games adds to a sequential
// probability ratio test between two hypotheses about the account's true
// rating: SmurfHigh spreads above the mean of the ratings the ladder's
// established players play at, against SmurfLow spreads. Under either, the
// account's team would have had the shown chance moved by the gap between
// that rating and the account's own, shared among its team (a team plays
// at its players' mean, on the Elo scale: 400 points are 10 to 1). The
// game adds log(P(result | high) / P(result | low)), weighed by the share
// of the game's other players (partners and opponents) who are
// established: the shown chance is only as right as their ratings, and a
// player with few games is rated where the ladder started them, not where
// they play (in a young ladder, where most players are new, a strong
// newcomer's wins say little). A game the account's rating has not caught
// up with yet tells little (both hypotheses expect a win); a game once it
// is rated among the best tells most. The sum never falls below
// SmurfFloor (−2: a CUSUM whose losses count against what follows up to
// about 7 times, so early losses do not bury it, while an ordinary
// newcomer's lucky run after losses must pay them back first), and
// the account is flagged when it reaches SmurfLLR, from its
// SmurfMinGames-th game on. A newcomer who plays below the midpoint of the
// two hypotheses drifts down; a smurf, above it, drifts up. Each game costs
// a few operations on the account's and the ladder's counters and the
// match's own entry, whatever the account's or the ladder's history.
//
// The ladder's mean and spread come from every game of a player with
// SmurfEstablished rated games or more before it, each weighing popWeight
// against the earlier ones (an exponentially weighted mean and variance, so
// they follow the ratings as the season spreads them), kept in the
// ladder's counter.

// popWeight is the weight of one established player's game in the
// ladder's mean and variance: about the last 500 such games count.
const popWeight = 1.0 / 500

// popMin is how many established players' games the ladder needs before
// its spread places the hypotheses: fewer, and a new account's games add
// nothing to its test.
const popMin = 100

// eloLogit is the logit of a win chance per rating point on the Elo scale.
const eloLogit = math.Ln10 / 400

// foldPopulation counts the ratings of the match's established players.
func (l *Counter) foldPopulation(e Entry, th Thresholds) {
	for t := range 2 {
		for _, u := range e.Teams[t] {
			if e.Games[u] < th.SmurfEstablished {
				continue
			}
			l.PopN++
			x := e.Before[u]
			a := max(popWeight, 1/float64(l.PopN))
			d := x - l.PopMean
			l.PopMean += a * d
			l.PopVar = (1 - a) * (l.PopVar + a*d*d)
		}
	}
}

// hypotheses returns the low and high ratings the test compares, from
// the ladder's established players; ok is false while it has too few.
func (l *Counter) hypotheses(th Thresholds) (lo, hi, mean, sd float64, ok bool) {
	mean, sd = l.PopMean, math.Sqrt(max(l.PopVar, 0))
	return mean + th.SmurfLow*sd, mean + th.SmurfHigh*sd, mean, sd, l.PopN >= popMin && sd > 0
}

// logSigmoid is log(1 / (1 + e^−x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// gameLLR is one game's log-likelihood ratio of a player rated r on a
// team of n whose shown chance was p, with result o (1, 0.5, 0), for a
// true rating hi against lo.
func gameLLR(p, o, r, lo, hi float64, n int) float64 {
	p = min(max(p, 1e-9), 1-1e-9)
	x := math.Log(p / (1 - p))
	x0 := x + eloLogit*(lo-r)/float64(n)
	x1 := x + eloLogit*(hi-r)/float64(n)
	return o*(logSigmoid(x1)-logSigmoid(x0)) + (1-o)*(logSigmoid(-x1)-logSigmoid(-x0))
}

// settled is the share of the other players of e (u's partners and
// opponents) who had SmurfEstablished rated games or more before it.
func settled(e Entry, u string, th Thresholds) float64 {
	n, k := 0, 0
	for t := range 2 {
		for _, v := range e.Teams[t] {
			if v == u {
				continue
			}
			n++
			if e.Games[v] >= th.SmurfEstablished {
				k++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// foldSmurf adds a new account's game to its test; l is the ladder's
// counter before the match.
func (c *Counter) foldSmurf(e Entry, u string, team int, l *Counter, th Thresholds) (Flag, bool) {
	p, o := chance(e, team), outcome(e, team)
	c.Early++
	c.EarlyO += o
	c.EarlyP += p
	c.Now = e.Before[u] + e.Delta[u]
	c.note(&c.Matches, e.MatchID)
	lo, hi, mean, sd, ok := l.hypotheses(th)
	if !ok {
		return Flag{}, false
	}
	g := settled(e, u, th) * gameLLR(p, o, e.Before[u], lo, hi, len(e.Teams[team-1]))
	c.LLR = max(c.LLR+g, th.SmurfFloor)
	c.Sum += g
	if c.Early < th.SmurfMinGames || c.LLR < th.SmurfLLR {
		return Flag{}, false
	}
	return Flag{Kind: KindSmurf, Subjects: []string{u}, Matches: slices.Clone(c.Matches),
		Evidence: Evidence{Key: EvidenceSmurf,
			Counts:   map[string]int{"Games": c.Early, "Times": int(math.Round(math.Min(math.Exp(c.LLR), 1e12)))},
			Measures: map[string]float64{"Wins": c.EarlyO, "Expected": c.EarlyP},
			Ratings:  map[string]float64{"High": hi, "Low": lo, "Mean": mean, "Spread": sd, "From": c.Start, "Now": c.Now}},
		Score: c.LLR}, true
}
