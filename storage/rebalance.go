package storage

import (
	"context"

	"github.com/ladderbot/ladderbot/ladder"
)

// SetMatchTeams implements ladder.Tx: the match's team columns and each
// player's team and seat. Spectators' calls on the match (predictions) go:
// each named a side by its number and was priced on the teams as they
// were, so a call on the underdog would be paid as one after a rebalance
// made that side the favourite. The match is open and unrated, so the
// calls counted for nothing yet; the new prediction post invites new ones.
func (t *tx) SetMatchTeams(ctx context.Context, m ladder.Match) error {
	r := toMatchRow(m)
	res := t.q(ctx).Model(&matchRow{}).Where("id = ?", m.ID).Updates(map[string]any{"team1": r.Team1, "team2": r.Team2})
	if err := found(res); err != nil {
		return wrap("set match teams", err, "match %d not found", m.ID)
	}
	for team, users := range m.Teams {
		for seat, u := range users {
			res := t.q(ctx).Model(&matchPlayerRow{}).Where("match_id = ? AND user_id = ?", m.ID, u).
				Updates(map[string]any{"team": team + 1, "seat": seat})
			if err := found(res); err != nil {
				return wrap("set match teams", err, "%s is not in match %d", u, m.ID)
			}
		}
	}
	return wrap("set match teams", t.q(ctx).Where("match_id = ?", m.ID).Delete(&predictionRow{}).Error, "")
}
