package ladder

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The ladder writes some reasons itself: the reason of a dispute it opens
// for conflicting reports, and the reasons of the audit entries and
// cooldowns its jobs and the ready check make. They are stored as English
// text, like a moderator's own reason, for the JSON API and the command
// line, and beside it as their code (Reason.Code), from which the edges
// word them in the reader's language. A person's own words have no code
// and are shown as written. Rows stored before codes were have none
// recorded; the stores read their code from the text (ReasonCodeOf).

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

// Reason is a reason the ladder wrote, as data. Its JSON is its code.
type Reason struct {
	Key     string   `json:"key"`
	Users   []string `json:"users,omitempty"`
	Outcome Outcome  `json:"outcome,omitempty"`
	// Votes and Players count a cancel vote.
	Votes   int `json:"votes,omitempty"`
	Players int `json:"players,omitempty"`
	// After is how long a match waited for a report.
	After time.Duration `json:"after_ns,omitempty"`
	// Cause is why a ready check failed (ReasonReadyMissed or
	// ReasonReadyDeclined).
	Cause string `json:"cause,omitempty"`
}

// Text is the reason in English, as the reason column stores it.
func (r Reason) Text() string {
	switch r.Key {
	case ReasonConflicting:
		var user string
		if len(r.Users) > 0 {
			user = r.Users[0]
		}
		return fmt.Sprintf(reasonConflicting, user, r.Outcome)
	case ReasonReadyMissed:
		return reasonReadyMissed
	case ReasonReadyDeclined:
		return reasonReadyDecline
	case ReasonReadyFailed:
		cause := reasonReadyMissed
		if r.Cause == ReasonReadyDeclined {
			cause = reasonReadyDecline
		}
		return fmt.Sprintf(reasonReadyFailed, r.Users, cause)
	case ReasonCancelVote:
		return fmt.Sprintf(reasonCancelVote, r.Votes, r.Players)
	case ReasonNoReport:
		return fmt.Sprintf(reasonNoReport, shortDuration(r.After))
	case ReasonNoShowOf:
		return fmt.Sprintf(reasonNoShowOf, r.Users)
	case ReasonNoShow:
		return reasonNoShow
	}
	return r.Key
}

// Code is the reason as the reason code column stores it: its JSON.
func (r Reason) Code() string {
	b, err := json.Marshal(r)
	if err != nil { // a struct of strings and numbers always marshals
		panic(err)
	}
	return string(b)
}

// ReasonFromCode reads a stored reason code; false for "" (a person's own
// words) or a code that is not a Reason.
func ReasonFromCode(code string) (Reason, bool) {
	if code == "" {
		return Reason{}, false
	}
	var r Reason
	if err := json.Unmarshal([]byte(code), &r); err != nil || r.Key == "" {
		return Reason{}, false
	}
	return r, true
}

// ReasonCodeOf is the code of a reason stored as text alone, before codes
// were stored beside it: the code of the reason ParseReason reads from it,
// "" for a person's own words.
func ReasonCodeOf(text string) string {
	if r, ok := ParseReason(text); ok {
		return r.Code()
	}
	return ""
}

func conflictingReason(userID string, o Outcome) Reason {
	return Reason{Key: ReasonConflicting, Users: []string{userID}, Outcome: o}
}

func readyFailedReason(missing []string, cause string) Reason {
	return Reason{Key: ReasonReadyFailed, Users: missing, Cause: cause}
}

func cancelVoteReason(votes, players int) Reason {
	return Reason{Key: ReasonCancelVote, Votes: votes, Players: players}
}

func noReportReason(after time.Duration) Reason {
	return Reason{Key: ReasonNoReport, After: after}
}

func noShowOfReason(absent []string) Reason { return Reason{Key: ReasonNoShowOf, Users: absent} }

// because sets e's reason to one the ladder wrote: its English text and
// its code.
func (e AuditEntry) because(r Reason) AuditEntry {
	e.Reason, e.ReasonCode = r.Text(), r.Code()
	return e
}

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
