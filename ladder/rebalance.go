package ladder

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/ladderbot/ladderbot/ladder/matchmaking"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// TeamStore writes new teams into an open match, one of the concerns of Tx.
type TeamStore interface {
	// SetMatchTeams stores m.Teams as the match's teams and seats; the
	// players are the same, only their team and seat change. Calls made
	// on the match's sides before (predictions) are dropped: they were
	// made, and priced, on other teams.
	SetMatchTeams(ctx context.Context, m Match) error
}

// TeamMove is one player changing teams in a rebalance.
type TeamMove struct {
	UserID   string
	From, To int
}

// MatchRebalance answers RebalanceMatch: the match before and after, who
// moves, the rating-sum gaps |Σ1 − Σ2| before and after, and whether the
// new teams were written.
type MatchRebalance struct {
	Before, After       Match
	Moves               []TeamMove
	GapBefore, GapAfter float64
	Ratings             map[string]float64
	// Exact reports that the split is the optimum (false only for lobbies
	// too large for the exact searches).
	Exact   bool
	Applied bool
}

// RebalanceMatch rebalances the teams of a formed match that has not been
// reported yet (seed 001, "Generalization to TF2 outside Arena"): first
// the autobalance of a running lobby evens out team sizes that differ by
// two or more (matchmaking.Autobalance: ⌊Δk/2⌋ players chosen jointly),
// then, with sizes within one, the best split of the same sizes by the
// players' displayed ratings (matchmaking.BalanceLobby), oriented to move
// the fewest players. Anyone may preview (apply false); a moderator's
// apply writes the teams and the new win chance when the gap shrinks. A match that
// is already as even as it can be changes nothing.
func (s *Service) RebalanceMatch(ctx context.Context, actor Actor, guildID string, matchID int64, apply bool) (MatchRebalance, error) {
	if apply && !actor.Moderator {
		return MatchRebalance{}, Errorf(CodeForbidden, "only moderators can rebalance a match; anyone may preview it")
	}
	var res MatchRebalance
	err := s.store.InTx(ctx, func(tx Tx) error {
		m, err := lockGuildMatch(ctx, tx, guildID, matchID)
		if err != nil {
			return err
		}
		if m.State != StateOpen {
			return Errorf(CodeConflict, "match #%d is %s; only an open match that nobody has reported can be rebalanced", m.ID, m.State)
		}
		if err := refuseWhileDrafting(ctx, tx, m); err != nil {
			return err
		}
		ratings, err := displayRatings(ctx, tx, m)
		if err != nil {
			return err
		}
		res, err = rebalance(m, ratings)
		if err != nil || !apply || len(res.Moves) == 0 {
			return err
		}
		now := s.now()
		after := res.After
		if after.PTeam1, after.PRaw, err = s.predict(ctx, tx, after, now); err != nil {
			return err
		}
		if err := tx.SetMatchTeams(ctx, after); err != nil {
			return err
		}
		if err := tx.UpdateMatch(ctx, after); err != nil {
			return err
		}
		res.After, res.Applied = after, true
		return audit(ctx, tx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "match.rebalance", MatchID: m.ID, At: now},
			matchAudit(m), matchAudit(after))
	})
	if err != nil {
		return MatchRebalance{}, fmt.Errorf("ladder: rebalance match: %w", err)
	}
	return res, nil
}

// displayRatings are the ratings /balance and the leaderboard show, a new
// player's for one without a row.
func displayRatings(ctx context.Context, tx Tx, m Match) (map[string]float64, error) {
	q, err := tx.Queue(ctx, m.QueueID)
	if err != nil {
		return nil, err
	}
	model, err := modelFor(q)
	if err != nil {
		return nil, err
	}
	rs, err := tx.Ratings(ctx, Key{QueueID: m.QueueID, SeasonID: m.SeasonID}, m.Players())
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(m.Players()))
	for _, u := range m.Players() {
		out[u], _ = model.Display(model.New())
	}
	for _, r := range rs {
		out[r.UserID], _ = model.Display(r.State)
	}
	return out, nil
}

// rebalance is RebalanceMatch's pure part: the new teams of m by ratings.
func rebalance(m Match, ratings map[string]float64) (MatchRebalance, error) {
	res := MatchRebalance{Before: m, Ratings: ratings, Exact: true, Moves: []TeamMove{}}
	teams := [2][]string{slices.Clone(m.Teams[0]), slices.Clone(m.Teams[1])}
	sum := func(ts [2][]string) float64 {
		var d float64
		for _, u := range ts[0] {
			d += ratings[u]
		}
		for _, u := range ts[1] {
			d -= ratings[u]
		}
		return math.Abs(d)
	}
	res.GapBefore = sum(teams)
	// Sizes first: the running-lobby autobalance moves ⌊Δk/2⌋ players.
	if d := len(teams[0]) - len(teams[1]); d >= 2 || d <= -2 {
		l := matchmaking.RunningLobby{}
		for _, u := range teams[0] {
			l.Team1 = append(l.Team1, ratings[u])
		}
		for _, u := range teams[1] {
			l.Team2 = append(l.Team2, ratings[u])
		}
		rb, err := matchmaking.Autobalance(l)
		if err != nil {
			return MatchRebalance{}, Wrap(CodeInvalid, err, err.Error())
		}
		all := append(slices.Clone(teams[0]), teams[1]...)
		teams = [2][]string{nil, nil}
		for _, i := range rb.Team1 {
			teams[0] = append(teams[0], all[i])
		}
		for _, i := range rb.Team2 {
			teams[1] = append(teams[1], all[i])
		}
		res.Exact = rb.Exact
	}
	// Then sums, at the same sizes: the best split, if it is better.
	if a, b, exact, ok := bestSplit(teams, ratings); ok && gapOf(a, b, ratings) < sum(teams)-1e-9 {
		// Orient the split so that the fewest players change teams.
		if len(a) == len(b) {
			stay := 0
			for _, u := range a {
				if slices.Contains(teams[0], u) {
					stay++
				}
			}
			if 2*stay < len(a) {
				a, b = b, a
			}
		} else if len(a) != len(teams[0]) {
			a, b = b, a
		}
		teams = [2][]string{a, b}
		res.Exact = res.Exact && exact
	}
	for t := range 2 {
		for _, u := range teams[t] {
			if from := m.Team(u); from != t+1 {
				res.Moves = append(res.Moves, TeamMove{UserID: u, From: from, To: t + 1})
			}
		}
	}
	after := m
	after.Teams = teams
	res.After, res.GapAfter = after, sum(teams)
	return res, nil
}

func gapOf(a, b []string, ratings map[string]float64) float64 {
	var d float64
	for _, u := range a {
		d += ratings[u]
	}
	for _, u := range b {
		d -= ratings[u]
	}
	return math.Abs(d)
}

// bestSplit is the split of the players of teams into two teams of the
// same sizes with the smallest rating gap: matchmaking.BalanceLobby when
// the sizes are equal, an exhaustive search over the smaller team when
// they differ by one (at most 17 players, 24,310 subsets). ok is false
// when there is nothing to choose (a team of one against none).
func bestSplit(teams [2][]string, ratings map[string]float64) (a, b []string, exact, ok bool) {
	all := append(slices.Clone(teams[0]), teams[1]...)
	k := min(len(teams[0]), len(teams[1]))
	if k == 0 || len(all) < 2 {
		return nil, nil, false, false
	}
	rs := make([]float64, len(all))
	for i, u := range all {
		rs[i] = ratings[u]
	}
	if len(teams[0]) == len(teams[1]) {
		split, err := matchmaking.BalanceLobby(rs, k)
		if err != nil {
			return nil, nil, false, false
		}
		for _, i := range split.A {
			a = append(a, all[i])
		}
		for _, i := range split.B {
			b = append(b, all[i])
		}
		return a, b, split.Exact, true
	}
	if len(all) > 2*rating.MaxTeamSize+1 {
		return nil, nil, false, false
	}
	var total float64
	for _, r := range rs {
		total += r
	}
	best, bestGap := 0, math.Inf(1)
	for mask := 0; mask < 1<<len(all); mask++ {
		if bits.OnesCount(uint(mask)) != k {
			continue
		}
		var s float64
		for i := range all {
			if mask&(1<<i) != 0 {
				s += rs[i]
			}
		}
		if g := math.Abs(total - 2*s); g < bestGap {
			best, bestGap = mask, g
		}
	}
	for i, u := range all {
		if best&(1<<i) != 0 {
			a = append(a, u)
		} else {
			b = append(b, u)
		}
	}
	// a is the smaller team; put it where the smaller team was.
	if len(teams[0]) > len(teams[1]) {
		a, b = b, a
	}
	return a, b, true, true
}
