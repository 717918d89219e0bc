package commands

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/internal/showdown"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestReplayFindingsInLanguage: what the Showdown check finds (a battle
// that is not the match, a refused URL, a server that cannot be reached)
// reads in the reporter's language, from the err.showdown.* and replay.*
// entries, with no English left.
func TestReplayFindingsInLanguage(t *testing.T) {
	client, err := showdown.NewClient("", ladder.URLPolicy{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, refused := client.ReplayID("https://evil.example/gen9multirandombattle-1")
	multi := "|gametype|multi\n|player|p1|Ash\n|player|p2|Gary\n|player|p3|Brock\n|player|p4|Misty\n|win|Ash & Brock\n"
	_, sides := showdown.ParseLog(multi).Outcome([]string{"Ash", "Gary"}, []string{"Brock", "Misty"})
	_, doubles := showdown.ParseLog("|gametype|doubles\n").Outcome([]string{"Ash", "Brock"}, []string{"Gary", "Misty"})
	unreachable := fmt.Errorf("showdown: fetch x: %w", errors.New("dial tcp 1.2.3.4:443: connection refused"))
	for _, code := range []string{"de", "pt-BR"} {
		l := i18n.For(code)
		for _, tc := range []struct {
			name    string
			err     error
			want    string
			english string
		}{
			{"refused URL", refused, l.Error("only replays on %s are accepted, not %q", "replay.pokemonshowdown.com", "https://evil.example/gen9multirandombattle-1"), "only replays"},
			{"other sides", sides, l.Error("the teams played on other sides: %s & %s against %s & %s", "Ash", "Brock", "Gary", "Misty"), "other sides"},
			{"not multi", doubles, l.Error("the replay is not a 2v2 multi battle (game type %s)", "doubles"), "multi battle"},
			{"unreachable", unreachable, l.T("replay.fetch_failed"), "dial tcp"},
		} {
			if tc.err == nil {
				t.Fatalf("%s: the check found nothing", tc.name)
			}
			got := verifyDetail(l, tc.err)
			if got != tc.want || strings.Contains(got, tc.english) {
				t.Errorf("%s %s: Got(finding) = %q, want %q", code, tc.name, got, tc.want)
			}
			if english := verifyDetail(i18n.English(), tc.err); english == got {
				t.Errorf("%s %s: Got(finding) = %q, the same as English", code, tc.name, got)
			}
		}
	}
	if got := verifyDetail(i18n.English(), sides); got != "the teams played on other sides: Ash & Brock against Gary & Misty" {
		t.Errorf("Got(English finding) = %q", got)
	}
}

// TestReasonTextInLanguage: the reasons the ladder writes itself, as
// stored, read in the reader's language from the reason.* entries; a
// person's own words stay as written.
func TestReasonTextInLanguage(t *testing.T) {
	for _, code := range []string{"de", "pt-BR"} {
		l := i18n.For(code)
		for _, tc := range []struct {
			stored, want, english string
		}{
			{"conflicting reports: 123 says win", l.T("reason.conflicting_reports", "Player", "<@123>", "Outcome", l.T("outcome.win")), "conflicting"},
			{"ready check failed: [123 456] missed the ready check", l.T("reason.ready_failed_missed", "Players", "<@123>, <@456>"), "ready check"},
			{"ready check failed: [123] declined the ready check", l.T("reason.ready_failed_declined", "Players", "<@123>"), "declined"},
			{"missed the ready check", l.T("reason.ready_missed"), "missed"},
			{"declined the ready check", l.T("reason.ready_declined"), "declined"},
			{"3 of 4 players voted to cancel", l.N("reason.cancel_vote", 3, "Players", "4"), "voted"},
			{"1 of 2 players voted to cancel", l.N("reason.cancel_vote", 1, "Players", "2"), "voted"},
			{"no report within 3h", l.T("reason.no_report", "After", l.Duration(3*time.Hour)), "within"},
			{"no-show of [123]", l.T("reason.no_show_of", "Players", "<@123>"), "no-show"},
			{"no-show", l.T("reason.no_show"), "no-show"},
			{reasonCorrectPreview, l.T("reason.correct_preview"), "applied from"},
		} {
			code := ladder.ReasonCodeOf(tc.stored) // as the stores read a row written before codes were
			got := ReasonText(l, tc.stored, code, mention)
			if got != tc.want || strings.Contains(got, tc.english) || got == ReasonText(i18n.English(), tc.stored, code, mention) {
				t.Errorf("%s: Got(ReasonText(%q)) = %q, want %q", code, tc.stored, got, tc.want)
			}
		}
		if got := ReasonText(l, "he left after one game", "", mention); got != "he left after one game" {
			t.Errorf("%s: Got(own words) = %q, want them as written", code, got)
		}
		// A person's words that read like a reason the ladder writes have
		// no code, so they stay as written.
		if got := ReasonText(l, "no-show", "", mention); got != "no-show" {
			t.Errorf("%s: Got(own words like a ladder reason) = %q, want them as written", code, got)
		}
		// The dispute the bot opens reads in the channel's language.
		v := disputedView(l, ladder.Match{ID: 7, DisputedBy: "123", DisputeReason: "conflicting reports: 123 says loss",
			DisputeReasonCode: ladder.ReasonCodeOf("conflicting reports: 123 says loss")})
		if want := l.T("reason.conflicting_reports", "Player", "<@123>", "Outcome", l.T("outcome.loss")); !strings.Contains(v.Content, want) || strings.Contains(v.Content, "says") {
			t.Errorf("%s: Got(dispute post) = %q, want %q in it", code, v.Content, want)
		}
	}
	if got := ReasonText(i18n.English(), "conflicting reports: 123 says draw", ladder.ReasonCodeOf("conflicting reports: 123 says draw"), nil); got != "conflicting reports: 123 says draw" {
		t.Errorf("Got(English) = %q, want the stored text", got)
	}
}

// TestCooldownTimeLeftInLanguage: the refusal of a player on a cooldown
// words the time left in the player's language with the catalogs' unit.*
// plurals; the English message, for the log and the JSON API, keeps its
// short form.
func TestCooldownTimeLeftInLanguage(t *testing.T) {
	f := newFixture(t)
	f.ok(admin("config thresholds", map[string]any{"placement_games": int64(0)}))
	for i := 1; i <= 4; i++ {
		f.ok(cmd(user(i), "queue join", nil))
	}
	ms, err := f.svc.Matches(t.Context(), ladder.MatchFilter{GuildID: guild, States: []ladder.MatchState{ladder.StateOpen}, Limit: 1})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Got(open matches) = %v, %v", ms, err)
	}
	decliner := ms[0].Players()[0]
	f.ok(click(decliner, ID(actNotReady, ms[0].ID)))
	_, err = f.call(cmd(decliner, "queue join", nil))
	if ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Fatalf("Got(join on a cooldown) = %v, want a refusal", err)
	}
	format, args := ladder.ErrorFormat(err)
	if len(args) != 2 {
		t.Fatalf("Got(refusal arguments) = %v, want the player and the time left", args)
	}
	left, ok := args[1].(ladder.TimeLeft)
	if !ok {
		t.Fatalf("Got(time left) = %T, want ladder.TimeLeft", args[1])
	}
	if !strings.HasSuffix(err.Error(), ": "+left.String()+" left") || !strings.Contains(left.String(), "min") {
		t.Errorf("Got(English refusal) = %q, want %q in it", err.Error(), left.String()+" left")
	}
	for _, tc := range []struct{ code, words string }{
		{"de", "Minuten"}, {"pt-BR", "minutos"},
	} {
		l := i18n.For(tc.code)
		got := l.Error(format, args...)
		want := fmt.Sprintf(l.T("err.cooldown"), decliner, l.Duration(left.Span()))
		if got != want || !strings.Contains(got, tc.words) {
			t.Errorf("%s: Got(refusal) = %q, want %q", tc.code, got, want)
		}
	}
}
