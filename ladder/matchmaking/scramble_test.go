package matchmaking

import (
	"errors"
	"testing"
)

func TestScrambleDue(t *testing.T) {
	tests := []struct {
		name      string
		winners   []int
		threshold int
		want      bool
	}{
		{"no rounds", nil, 0, false},
		{"three for team 1, default threshold", []int{1, 1, 1}, 0, true},
		{"three for team 2 after a loss", []int{1, 2, 2, 2}, 0, true},
		{"two in a row", []int{2, 1, 1}, 0, false},
		{"streak broken by the latest round", []int{1, 1, 1, 2}, 0, false},
		{"a stalemate breaks the streak", []int{1, 1, 0, 1}, 0, false},
		{"stalemates are no streak", []int{0, 0, 0}, 0, false},
		{"longer streak still due", []int{2, 2, 2, 2, 2}, 0, true},
		{"threshold 2", []int{1, 2, 2}, 2, true},
		{"threshold 5 not reached", []int{1, 1, 1, 1}, 5, false},
		{"threshold 1", []int{2}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ScrambleDue(tt.winners, tt.threshold)
			if err != nil || got != tt.want {
				t.Errorf("Got(ScrambleDue(%v, %d)) = %v, %v, want %v", tt.winners, tt.threshold, got, err, tt.want)
			}
		})
	}
}

func TestScrambleDueRejectsBadInput(t *testing.T) {
	tests := []struct {
		name      string
		winners   []int
		threshold int
	}{
		{"team 3", []int{1, 3, 1}, 0},
		{"negative winner", []int{-1}, 0},
		{"negative threshold", []int{1}, -1},
		{"huge threshold", []int{1}, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ScrambleDue(tt.winners, tt.threshold)
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Got(ScrambleDue) error %v, want an *Error", err)
			}
		})
	}
}
