package sim

import (
	"cmp"
	"context"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"slices"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// Point is a player's rating after one match.
type Point struct {
	At     time.Time
	Rating float64
	RD     float64
}

// Prediction is one played match: the model's P(team 1 wins) when it
// formed, the true probability from hidden skill, and what happened.
type Prediction struct {
	P        float64
	PTrue    float64
	Team1Won bool
	// Newcomers counts the players who had played fewer than
	// NewcomerGames rated matches when the match was played.
	Newcomers int
	// Settled counts the other players of the match.
	Settled int
	// Parties counts the premade pairs on each team.
	Parties [2]int
}

// Final is one player at the end of the season, with the hidden skill.
type Final struct {
	UserID      string
	Name        string
	Skill       float64
	Rating      float64
	RD          float64
	Games       int
	Wins        int
	Losses      int
	Provisional bool
	Trajectory  []Point
}

// Baseline is what a season of single games measured, beside a season
// of series.
type Baseline struct {
	Matches  int     `json:"matches"`
	Brier    float64 `json:"brier"`
	Spearman float64 `json:"spearman_true_skill"`
}

// Result is what a season measured (the --json keys of docs/spec.md 8 are tagged).
type Result struct {
	Matches           int     `json:"matches"`
	WaitP50           float64 `json:"wait_p50_s"`
	WaitP95           float64 `json:"wait_p95_s"`
	MeanQuality       float64 `json:"mean_quality"`
	MeanAbsPMinusHalf float64 `json:"mean_abs_p_minus_half"`
	Brier             float64 `json:"brier"`
	Spearman          float64 `json:"spearman_true_skill"`
	// Expired counts players whose ticket timed out unmatched.
	Expired int `json:"expired"`
	// ReadyFailed counts formed matches cancelled by a missed ready check.
	ReadyFailed int `json:"ready_failed"`
	// Verified reports that the stored ratings equal the replay of the log.
	Verified bool `json:"verified"`
	// Placement measures how fast newcomers reach their level and what
	// their matches cost everyone else (seed 002's calibration matches).
	Placement Placement `json:"placement"`
	// Parties measures the matches with premade pairs (Config.Parties).
	Parties PartyStats `json:"parties"`
	// BestOf is Config.BestOf (1 for single games).
	BestOf int `json:"best_of"`
	// BestOf1, set by `simulate --best-of N` for N above 1, is the same
	// season (same seed) played in single games, to compare with.
	BestOf1 *Baseline `json:"best_of_1,omitempty"`
	// IntegrityRecall is the share of injected cheaters (Config.Cheaters)
	// some integrity flag names (1 when none was injected);
	// IntegrityFalseFlags counts the flags naming no cheater.
	IntegrityRecall     float64        `json:"integrity_recall"`
	IntegrityFalseFlags int            `json:"integrity_false_flags"`
	Integrity           IntegrityStats `json:"integrity"`

	Waits       []float64    `json:"-"`
	Qualities   []float64    `json:"-"`
	Predictions []Prediction `json:"-"`
	// Players are every player who played, by final rating.
	Players []Final `json:"-"`
	// Leaderboard is the listed (not provisional, not stale) standings.
	Leaderboard []ladder.Standing `json:"-"`
	Start, End  time.Time         `json:"-"`
}

func (s *season) finish(ctx context.Context) (*Result, error) {
	r := &s.res
	r.Start, r.End = s.start, s.clock.Now()
	r.Matches = len(r.Predictions)
	r.WaitP50, r.WaitP95 = percentile(r.Waits, 0.50), percentile(r.Waits, 0.95)
	r.MeanQuality = mean(r.Qualities)
	var absP, brier float64
	for _, p := range r.Predictions {
		absP += math.Abs(p.P - 0.5)
		o := 0.0
		if p.Team1Won {
			o = 1
		}
		brier += (p.P - o) * (p.P - o)
	}
	if n := float64(len(r.Predictions)); n > 0 {
		r.MeanAbsPMinusHalf, r.Brier = absP/n, brier/n
	}
	season, err := s.db.CurrentSeason(ctx, guildID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Ratings(ctx, ladder.Key{QueueID: s.queue.ID, SeasonID: season.ID}, nil)
	if err != nil {
		return nil, err
	}
	model, err := rating.NewModel(s.queue.Model, s.queue.Params)
	if err != nil {
		return nil, err
	}
	var skill, rating []float64
	for _, row := range rows {
		p := s.byID[row.UserID]
		if p == nil || row.State.Games == 0 {
			continue
		}
		rt, rd := model.Display(row.State)
		r.Players = append(r.Players, Final{UserID: p.id, Name: p.name, Skill: p.skill, Rating: rt, RD: rd,
			Games: row.State.Games, Wins: row.Wins, Losses: row.Losses, Provisional: row.Provisional, Trajectory: p.trajectory})
		skill, rating = append(skill, p.skill), append(rating, rt)
	}
	slices.SortFunc(r.Players, func(a, b Final) int { return cmp.Compare(b.Rating, a.Rating) })
	r.Spearman = spearman(skill, rating)
	for after := ""; ; {
		page, err := s.svc.Leaderboard(ctx, ladder.LeaderboardQuery{GuildID: guildID, Limit: 200, After: after})
		if err != nil {
			return nil, err
		}
		r.Leaderboard = append(r.Leaderboard, page.Standings...)
		if after = page.Next; after == "" {
			break
		}
	}
	rep, err := s.svc.Verify(ctx, guildID)
	if err != nil {
		return nil, err
	}
	r.Verified = len(rep.Diffs) == 0
	r.Placement = measurePlacement(r)
	r.Parties = measureParties(r)
	if r.Integrity, err = s.measureIntegrity(ctx); err != nil {
		return nil, err
	}
	r.IntegrityRecall, r.IntegrityFalseFlags = 1, r.Integrity.FalseFlags
	if r.Integrity.Cheaters > 0 {
		r.IntegrityRecall = float64(r.Integrity.Found) / float64(r.Integrity.Cheaters)
	}
	return r, nil
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// percentile is the nearest-rank percentile of xs (0 when empty).
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// ranks returns the 1-based ranks of xs, ties sharing their mean rank.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

// spearman is the rank correlation of x and y (Pearson's r of their ranks).
func spearman(x, y []float64) float64 {
	if len(x) < 2 || len(x) != len(y) {
		return 0
	}
	rx, ry := ranks(x), ranks(y)
	mx, my := mean(rx), mean(ry)
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}
