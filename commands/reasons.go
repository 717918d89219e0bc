package commands

import (
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// reasonCorrectPreview is the reason of a correction applied with the
// button of /mod correct's preview, which has no reason option.
const reasonCorrectPreview = "applied from the /mod correct preview"

// ReasonText is a stored reason, its English text and its code, as the
// reader reads it in language l: a reason the ladder wrote itself (its
// code, ladder.Reason.Code: a dispute it opened for conflicting reports, a
// failed ready check, a cancel vote, an abandoned match, a no-show) from
// the catalogs' reason.* texts, naming players with who (nil: their IDs);
// anything else, a person's own words, as it is.
func ReasonText(l *i18n.Lang, text, code string, who func(userID string) string) string {
	if text == reasonCorrectPreview {
		return l.T("reason.correct_preview")
	}
	r, ok := ladder.ReasonFromCode(code)
	if !ok {
		return text
	}
	if who == nil {
		who = func(id string) string { return id }
	}
	users := func(ids []string) string {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = who(id)
		}
		return strings.Join(parts, ", ")
	}
	switch r.Key {
	case ladder.ReasonConflicting:
		return l.T("reason.conflicting_reports", "Player", users(r.Users), "Outcome", l.T("outcome."+string(r.Outcome)))
	case ladder.ReasonReadyFailed:
		if r.Cause == ladder.ReasonReadyDeclined {
			return l.T("reason.ready_failed_declined", "Players", users(r.Users))
		}
		return l.T("reason.ready_failed_missed", "Players", users(r.Users))
	case ladder.ReasonCancelVote:
		return l.N("reason.cancel_vote", r.Votes, "Players", l.Int(r.Players))
	case ladder.ReasonNoReport:
		return l.T("reason.no_report", "After", l.Duration(r.After))
	case ladder.ReasonNoShowOf:
		return l.T("reason.no_show_of", "Players", users(r.Users))
	}
	return l.T("reason." + r.Key)
}
