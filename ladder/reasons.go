package ladder

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The ladder writes some reasons itself: the reason of a dispute it opens
// for conflicting reports, and the reasons of the audit entries and
// cooldowns its jobs and the ready check make. They are stored as English
// text, like a moderator's own reason; ParseReason reads them back as
// data, so the edges show them in the reader's language (a text it did
// not write is shown as it is).

// The formats of the reasons the ladder writes, one for each Reason.Key.
const (
	reasonConflicting  = "conflicting reports: %s says %s"
	reasonReadyMissed  = "missed the ready check"
	reasonReadyDecline = "declined the ready check"
	reasonReadyFailed  = "ready check failed: %v %s"
	reasonCancelVote   = "%d of %d players voted to cancel"
	reasonNoReport     = "no report within %s"
	reasonNoShowOf     = "no-show of %v"
	reasonNoShow       = "no-show"
)

// Keys of the reasons the ladder writes (Reason.Key).
const (
	ReasonConflicting   = "conflicting_reports" // Users[0] reported Outcome
	ReasonReadyMissed   = "ready_missed"
	ReasonReadyDeclined = "ready_declined"
	ReasonReadyFailed   = "ready_failed" // Users missed it; Cause is ready_missed or ready_declined
	ReasonCancelVote    = "cancel_vote"  // Votes of Players voted
	ReasonNoReport      = "no_report"    // within After
	ReasonNoShowOf      = "no_show_of"   // of Users
	ReasonNoShow        = "no_show"      // a cooldown's reason
)

// Reason is a reason the ladder wrote, as data.
type Reason struct {
	Key     string
	Users   []string
	Outcome Outcome
	// Votes and Players count a cancel vote.
	Votes, Players int
	// After is how long a match waited for a report.
	After time.Duration
	// Cause is why a ready check failed (ReasonReadyMissed or
	// ReasonReadyDeclined).
	Cause string
}

func conflictingReason(userID string, o Outcome) string {
	return fmt.Sprintf(reasonConflicting, userID, o)
}

func readyFailedReason(missing []string, cause string) string {
	return fmt.Sprintf(reasonReadyFailed, missing, cause)
}

func cancelVoteReason(votes, players int) string {
	return fmt.Sprintf(reasonCancelVote, votes, players)
}

func noReportReason(after time.Duration) string {
	return fmt.Sprintf(reasonNoReport, shortDuration(after))
}

func noShowOfReason(absent []string) string { return fmt.Sprintf(reasonNoShowOf, absent) }

var (
	conflictingRE = regexp.MustCompile(`^conflicting reports: (\d+) says (win|loss|draw)$`)
	readyFailedRE = regexp.MustCompile(`^ready check failed: \[([\d ]*)\] (missed the ready check|declined the ready check)$`)
	cancelVoteRE  = regexp.MustCompile(`^(\d+) of (\d+) players voted to cancel$`)
	noReportRE    = regexp.MustCompile(`^no report within ([0-9hms.]+)$`)
	noShowOfRE    = regexp.MustCompile(`^no-show of \[([\d ]*)\]$`)
)

// ParseReason reads a reason the ladder wrote; false for any other text
// (a moderator's or a player's own words).
func ParseReason(s string) (Reason, bool) {
	switch s {
	case reasonReadyMissed:
		return Reason{Key: ReasonReadyMissed}, true
	case reasonReadyDecline:
		return Reason{Key: ReasonReadyDeclined}, true
	case reasonNoShow:
		return Reason{Key: ReasonNoShow}, true
	}
	if m := conflictingRE.FindStringSubmatch(s); m != nil {
		return Reason{Key: ReasonConflicting, Users: []string{m[1]}, Outcome: Outcome(m[2])}, true
	}
	if m := readyFailedRE.FindStringSubmatch(s); m != nil {
		cause := ReasonReadyMissed
		if m[2] == reasonReadyDecline {
			cause = ReasonReadyDeclined
		}
		return Reason{Key: ReasonReadyFailed, Users: strings.Fields(m[1]), Cause: cause}, true
	}
	if m := cancelVoteRE.FindStringSubmatch(s); m != nil {
		var r Reason
		if _, err := fmt.Sscan(m[1]+" "+m[2], &r.Votes, &r.Players); err != nil {
			return Reason{}, false
		}
		r.Key = ReasonCancelVote
		return r, true
	}
	if m := noReportRE.FindStringSubmatch(s); m != nil {
		d, err := time.ParseDuration(m[1])
		if err != nil {
			return Reason{}, false
		}
		return Reason{Key: ReasonNoReport, After: d}, true
	}
	if m := noShowOfRE.FindStringSubmatch(s); m != nil {
		return Reason{Key: ReasonNoShowOf, Users: strings.Fields(m[1])}, true
	}
	return Reason{}, false
}
