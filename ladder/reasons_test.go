package ladder

import (
	"reflect"
	"testing"
	"time"
)

// TestReasonsReadBack: every reason the ladder writes keeps its English
// text, and reads back as the data it was written from both from its code
// and, for rows stored before codes were, from its text; a text it did not
// write is not taken for one.
func TestReasonsReadBack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		written Reason
		text    string
		want    Reason
	}{
		{"conflicting reports", conflictingReason("123", Win), "conflicting reports: 123 says win", Reason{Key: ReasonConflicting, Users: []string{"123"}, Outcome: Win}},
		{"conflicting draw", conflictingReason("9", Tie), "conflicting reports: 9 says draw", Reason{Key: ReasonConflicting, Users: []string{"9"}, Outcome: Tie}},
		{"ready check missed", readyFailedReason([]string{"1", "2"}, ReasonReadyMissed), "ready check failed: [1 2] missed the ready check", Reason{Key: ReasonReadyFailed, Users: []string{"1", "2"}, Cause: ReasonReadyMissed}},
		{"ready check declined", readyFailedReason([]string{"1"}, ReasonReadyDeclined), "ready check failed: [1] declined the ready check", Reason{Key: ReasonReadyFailed, Users: []string{"1"}, Cause: ReasonReadyDeclined}},
		{"cancel vote", cancelVoteReason(3, 4), "3 of 4 players voted to cancel", Reason{Key: ReasonCancelVote, Votes: 3, Players: 4}},
		{"no report", noReportReason(90 * time.Minute), "no report within 1h30m", Reason{Key: ReasonNoReport, After: 90 * time.Minute}},
		{"no report in hours", noReportReason(3 * time.Hour), "no report within 3h", Reason{Key: ReasonNoReport, After: 3 * time.Hour}},
		{"no-show of", noShowOfReason([]string{"5", "6"}), "no-show of [5 6]", Reason{Key: ReasonNoShowOf, Users: []string{"5", "6"}}},
		{"no-show", Reason{Key: ReasonNoShow}, "no-show", Reason{Key: ReasonNoShow}},
		{"missed", Reason{Key: ReasonReadyMissed}, "missed the ready check", Reason{Key: ReasonReadyMissed}},
		{"declined", Reason{Key: ReasonReadyDeclined}, "declined the ready check", Reason{Key: ReasonReadyDeclined}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.written.Text(); got != tc.text {
				t.Errorf("Got(Text) = %q, want %q", got, tc.text)
			}
			if got, ok := ReasonFromCode(tc.written.Code()); !ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Got(ReasonFromCode(%s)) = %+v, %v, want %+v", tc.written.Code(), got, ok, tc.want)
			}
			got, ok := ParseReason(tc.text)
			if !ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Got(ParseReason(%q)) = %+v, %v, want %+v", tc.text, got, ok, tc.want)
			}
			if got := ReasonCodeOf(tc.text); got != tc.written.Code() {
				t.Errorf("Got(ReasonCodeOf(%q)) = %s, want %s", tc.text, got, tc.written.Code())
			}
		})
	}
	for _, s := range []string{"", "he was rude", "conflicting reports: bob says maybe", "no report within ages", "no-show of everyone"} {
		if r, ok := ParseReason(s); ok {
			t.Errorf("Got(ParseReason(%q)) = %+v, want none", s, r)
		}
		if c := ReasonCodeOf(s); c != "" {
			t.Errorf("Got(ReasonCodeOf(%q)) = %s, want none", s, c)
		}
	}
	for _, code := range []string{"", "he was rude", "{}", `{"users":["1"]}`} {
		if r, ok := ReasonFromCode(code); ok {
			t.Errorf("Got(ReasonFromCode(%q)) = %+v, want none", code, r)
		}
	}
}
