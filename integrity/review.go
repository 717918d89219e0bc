package integrity

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The season's-end review. The smurf test (smurf.go) decides at every
// game from an account's SmurfMinGames-th on, and its floor lets a smurf's
// early losses count for little; both are what an early flag needs, and
// both cost it: an ordinary newcomer's best run crosses a threshold
// somewhere, so the threshold that keeps such runs out is high, and a
// smurf who stops after a few dozen games stays under it. Judged once,
// over all of an account's first games, the same evidence tells them apart
// better: the sum of the games' log-likelihood ratios without the floor
// (Counter.Sum), against SmurfReview. Simulated seasons put the gain at
// about four smurfs in sixty at the same false flags (docs/commands.md,
// "Where the rest is lost").
//
// The season's end is when the review runs, for every new account of the
// ladder with SmurfMinGames early games or more (IntegritySeasonEnded,
// inside the transaction that ends the season). A result rated in the
// ladder after its season ended, or a rebuild of an ended ladder's
// counters, reviews again each account it folds: the flags of a review of
// the whole log at its end are then all stored, which is what Verify
// checks.

// Review returns the season's-end flags of the new accounts among the
// player counters of st: those with SmurfMinGames early games or more
// whose sum reached SmurfReview, judged against the ladder's established
// players as the ladder counter l has them now. A zero SmurfReview
// reviews nothing.
func (s State) Review(th Thresholds) []Flag {
	l := s[ladderKey]
	if th.SmurfReview <= 0 || l == nil {
		return nil
	}
	lo, hi, mean, sd, ok := l.hypotheses(th)
	if !ok {
		return nil
	}
	var flags []Flag
	for k, c := range s {
		u, player := strings.CutPrefix(k, "u:")
		if !player || !c.New || c.Early < th.SmurfMinGames || c.Sum < th.SmurfReview {
			continue
		}
		flags = append(flags, Flag{Kind: KindSmurf, Subjects: []string{u}, Matches: slices.Clone(c.Matches),
			Evidence: Evidence{Key: EvidenceSmurfReview,
				Counts:   map[string]int{"Games": c.Early, "Times": int(math.Round(math.Min(math.Exp(c.Sum), 1e12)))},
				Measures: map[string]float64{"Wins": c.EarlyO, "Expected": c.EarlyP},
				Ratings:  map[string]float64{"High": hi, "Low": lo, "Mean": mean, "Spread": sd, "From": c.Start, "Now": c.Now}},
			Score: c.Sum})
	}
	slices.SortFunc(flags, func(a, b Flag) int { return strings.Compare(a.Subjects[0], b.Subjects[0]) })
	return flags
}

// EndedLadder is a ladder of a season that has just ended, with its
// progress.
type EndedLadder struct {
	GuildID string
	Ladder
	Progress Progress
}

// SeasonStore is what the season's-end review needs inside the
// transaction that ends the season.
type SeasonStore interface {
	FoldStore
	// IntegritySeasonEnded marks the ladders of season seasonID ended
	// (every later fold of theirs reviews the accounts it touches) and
	// returns those that are live, their progress rows locked.
	IntegritySeasonEnded(ctx context.Context, seasonID int64) ([]EndedLadder, error)
	// IntegrityPlayers returns a ladder's ladder counter and player
	// counters.
	IntegrityPlayers(ctx context.Context, l Ladder) (State, error)
}

// SeasonEnded reviews the new accounts of every ladder of season
// seasonID, inside the transaction that ends it (storage's extension
// point of the season's end). A ladder the job is rebuilding is reviewed
// by the rebuild, which folds it as an ended ladder.
func (s *Service) SeasonEnded(ctx context.Context, tx SeasonStore, seasonID int64) error {
	ls, err := tx.IntegritySeasonEnded(ctx, seasonID)
	if err != nil {
		return fmt.Errorf("integrity: season end: %w", err)
	}
	for _, el := range ls {
		st, err := tx.IntegrityPlayers(ctx, el.Ladder)
		if err != nil {
			return fmt.Errorf("integrity: season end: %w", err)
		}
		flags := st.Review(s.th)
		if len(flags) == 0 {
			continue
		}
		for i := range flags {
			flags[i].GuildID, flags[i].QueueID, flags[i].SeasonID = el.GuildID, el.QueueID, el.SeasonID
			flags[i].Seq, flags[i].RaisedAt = el.Progress.Seq, s.now().UTC()
		}
		if err := tx.IntegritySave(ctx, el.GuildID, el.Ladder, State{}, flags, el.Progress); err != nil {
			return fmt.Errorf("integrity: season end: %w", err)
		}
	}
	return nil
}
