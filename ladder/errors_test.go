package ladder

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder/matchmaking"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

func TestErrorCodeAndMessage(t *testing.T) {
	cause := errors.New("disk on fire")
	tests := []struct {
		name     string
		err      error
		wantCode Code
		wantMsg  string
	}{
		{"nil", nil, "", "internal error"},
		{"plain", cause, CodeInternal, "internal error"},
		{"coded", Errorf(CodeNotFound, "match %d not found", 7), CodeNotFound, "match 7 not found"},
		{"wrapped coded", fmt.Errorf("storage: get: %w", Errorf(CodeConflict, "already rated")), CodeConflict, "already rated"},
		{"internal hides cause", Wrap(CodeInternal, cause, "secret detail"), CodeInternal, "internal error"},
		{"rating invalid", func() error { _, err := rating.NewModel("nope", nil); return err }(), CodeInvalid,
			`unknown rating model "nope" (models: ` + strings.Join(rating.ModelNames(), ", ") + ")"},
		{"wrapped matchmaking invalid", fmt.Errorf("balance: %w", func() error { _, err := matchmaking.BalanceLobby([]float64{1}, 1); return err }()),
			CodeInvalid, "a lobby needs 2 to 1000 players, not 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErrorCode(tt.err); got != tt.wantCode {
				t.Errorf("ErrorCode() = %q, want %q", got, tt.wantCode)
			}
			if got := ErrorMessage(tt.err); got != tt.wantMsg {
				t.Errorf("ErrorMessage() = %q, want %q", got, tt.wantMsg)
			}
		})
	}
	if !errors.Is(Wrap(CodeUnavailable, cause, "try again"), cause) {
		t.Errorf("errors.Is(Wrap(cause), cause) = false, want true")
	}
}
