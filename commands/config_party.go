package commands

import (
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// setPartyRating applies /config queue set's party-rating options (seed
// 003's musigma) to q; options not given keep their value.
func setPartyRating(req Request, q *ladder.Queue) {
	if f, ok := req.Float("party_max_weight"); ok {
		q.PartyMaxWeight = f
	}
	if f, ok := req.Float("party_median_weight"); ok {
		q.PartyMedianWeight = f
	}
	if f, ok := req.Float("ordinal_deviations"); ok {
		q.OrdinalDeviations = f
	}
}

// partyRatingText is the queue line's note on the party rating, "" while
// it is off (both weights 0), so queues that never set it read as before.
func partyRatingText(tr *i18n.Lang, q ladder.Queue) string {
	if q.PartyMaxWeight <= 0 && q.PartyMedianWeight <= 0 {
		return ""
	}
	return " · " + tr.T("cfg.party_rating", "Max", tr.Float(q.PartyMaxWeight), "Median", tr.Float(q.PartyMedianWeight), "RDs", tr.Float(q.OrdinalDeviations))
}
