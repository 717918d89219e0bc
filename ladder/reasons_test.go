package ladder

import (
	"reflect"
	"testing"
	"time"
)

// TestReasonsReadBack: every reason the ladder writes reads back as the
// data it was written from, so the edges can word it in any language; a
// text it did not write is not taken for one.
func TestReasonsReadBack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		written string
		want    Reason
	}{
		{"conflicting reports", conflictingReason("123", Win), Reason{Key: ReasonConflicting, Users: []string{"123"}, Outcome: Win}},
		{"conflicting draw", conflictingReason("9", Tie), Reason{Key: ReasonConflicting, Users: []string{"9"}, Outcome: Tie}},
		{"ready check missed", readyFailedReason([]string{"1", "2"}, reasonReadyMissed), Reason{Key: ReasonReadyFailed, Users: []string{"1", "2"}, Cause: ReasonReadyMissed}},
		{"ready check declined", readyFailedReason([]string{"1"}, reasonReadyDecline), Reason{Key: ReasonReadyFailed, Users: []string{"1"}, Cause: ReasonReadyDeclined}},
		{"cancel vote", cancelVoteReason(3, 4), Reason{Key: ReasonCancelVote, Votes: 3, Players: 4}},
		{"no report", noReportReason(90 * time.Minute), Reason{Key: ReasonNoReport, After: 90 * time.Minute}},
		{"no report in hours", noReportReason(3 * time.Hour), Reason{Key: ReasonNoReport, After: 3 * time.Hour}},
		{"no-show of", noShowOfReason([]string{"5", "6"}), Reason{Key: ReasonNoShowOf, Users: []string{"5", "6"}}},
		{"no-show", reasonNoShow, Reason{Key: ReasonNoShow}},
		{"missed", reasonReadyMissed, Reason{Key: ReasonReadyMissed}},
		{"declined", reasonReadyDecline, Reason{Key: ReasonReadyDeclined}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseReason(tc.written)
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Got(ParseReason(%q)) = %+v, %v, want %+v", tc.written, got, ok, tc.want)
			}
		})
	}
	for _, s := range []string{"", "he was rude", "conflicting reports: bob says maybe", "no report within ages", "no-show of everyone"} {
		if r, ok := ParseReason(s); ok {
			t.Errorf("Got(ParseReason(%q)) = %+v, want none", s, r)
		}
	}
}
