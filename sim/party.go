package sim

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ladderbot/ladderbot/ladder"
)

// PartyStats is what premade pairs did in a season: how many matches had
// one, how often the team holding more pairs won against what the model
// predicted for it, and how fair (by true skill) those matches were.
type PartyStats struct {
	Pairs int `json:"pairs"`
	// Matches counts the matches in which one team held more pairs.
	Matches int `json:"matches"`
	// WinShare is how often that team won; Predicted is the model's mean
	// P of it winning, True the mean P by hidden skill (synergy included).
	WinShare  float64 `json:"win_share"`
	Predicted float64 `json:"predicted"`
	True      float64 `json:"true"`
	// TrueGap is the mean |P_true − 0.5| of those matches, TrueGapOthers of
	// the rest; lower is fairer.
	TrueGap       float64 `json:"true_gap"`
	TrueGapOthers float64 `json:"true_gap_others"`
}

// pair makes premade pairs of the first Parties share of the players
// (arrival order is random, so these are random players): the pair arrives
// together and its first player leads.
func (s *season) pair() {
	n := int(math.Round(s.cfg.Parties*float64(len(s.players)))) / 2
	for i := range n {
		a, b := s.players[2*i], s.players[2*i+1]
		a.partner, b.partner, a.leader = b, a, true
		b.arrival = a.arrival
		s.res.Parties.Pairs++
	}
}

// playing is u's skill in a match on team: PartySynergy more when u's
// partner is on the same team.
func (s *season) playing(u string, team []string) float64 {
	p := s.byID[u]
	if p.partner != nil && slices.Contains(team, p.partner.id) {
		return p.skill + s.cfg.PartySynergy
	}
	return p.skill
}

// pairsIn counts the premade pairs on a team.
func (s *season) pairsIn(team []string) int {
	n := 0
	for _, u := range team {
		p := s.byID[u]
		if p.leader && slices.Contains(team, p.partner.id) {
			n++
		}
	}
	return n
}

// joinParty queues a pair as players do: the leader invites with /queue
// join partner:, the partner accepts, and the pass after the acceptance runs.
func (s *season) joinParty(ctx context.Context, p *player) error {
	if !p.leader {
		p = p.partner
	}
	q := p.partner
	if p.queued || p.inMatch || q.queued || q.inMatch {
		return nil
	}
	if _, err := s.svc.JoinQueue(ctx, ladder.JoinRequest{GuildID: guildID, UserID: p.id, Name: p.name, PartnerID: q.id,
		ChannelID: "300000000000000000"}); err != nil {
		return fmt.Errorf("invite %s: %w", q.name, err)
	}
	res, err := s.svc.AcceptParty(ctx, guildID, q.id, q.name, nil)
	if err != nil {
		return fmt.Errorf("accept party %s: %w", q.name, err)
	}
	return s.queued(ctx, res, p, q)
}

func measureParties(r *Result) PartyStats {
	ps := r.Parties
	var wins, pred, tru, gap, others []float64
	for _, m := range r.Predictions {
		g := math.Abs(m.PTrue - 0.5)
		if m.Parties[0] == m.Parties[1] {
			others = append(others, g)
			continue
		}
		p, pt, won := m.P, m.PTrue, m.Team1Won
		if m.Parties[1] > m.Parties[0] {
			p, pt, won = 1-p, 1-pt, !won
		}
		w := 0.0
		if won {
			w = 1
		}
		wins, pred, tru, gap = append(wins, w), append(pred, p), append(tru, pt), append(gap, g)
	}
	ps.Matches = len(wins)
	ps.WinShare, ps.Predicted, ps.True = mean(wins), mean(pred), mean(tru)
	ps.TrueGap, ps.TrueGapOthers = mean(gap), mean(others)
	return ps
}
