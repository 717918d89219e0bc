package fakediscord

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestContentLimitInCharacters: Discord counts a message's 2,000
// characters of content in code points, as its API counts every length:
// 2,000 accented letters (4,000 bytes) are accepted, 2,001 letters are
// refused.
func TestContentLimitInCharacters(t *testing.T) {
	for _, c := range []struct {
		name, content string
		ok            bool
	}{
		{"2,000 accented letters", strings.Repeat("é", 2000), true},
		{"2,001 letters", strings.Repeat("a", 2001), false},
	} {
		var m Message
		err := m.apply(messagePayload{Content: &c.content}, nil, false)
		if (err == nil) != c.ok {
			t.Errorf("%s: Got(apply) = %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// TestModalLimits: Discord refuses a modal whose custom_id is over 100
// characters, and a text input whose value is longer than its own
// max_length or whose min_length is over its max_length.
func TestModalLimits(t *testing.T) {
	input := func(kv ...any) json.RawMessage {
		c := map[string]any{"type": 4, "custom_id": "reason", "label": "Reason", "style": 2}
		for i := 0; i < len(kv); i += 2 {
			c[kv[i].(string)] = kv[i+1]
		}
		raw, _ := json.Marshal([]any{map[string]any{"type": 1, "components": []any{c}}})
		return raw
	}
	for _, c := range []struct {
		name, id string
		rows     json.RawMessage
		want     string
	}{
		{"custom_id of 100", strings.Repeat("f", 100), input(), ""},
		{"custom_id of 101", strings.Repeat("f", 101), input(), "custom_id: must be between 1 and 100"},
		{"value within max_length", "f", input("value", "ééé", "max_length", 3), ""},
		{"value over max_length", "f", input("value", "abcd", "max_length", 3), "value: must be 3 or fewer"},
		{"min_length over max_length", "f", input("min_length", 5, "max_length", 3), "min_length"},
	} {
		_, err := parseModal(messagePayload{CustomID: c.id, Title: "t", Components: c.rows})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Got(parseModal) = %v, want accepted", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Got(parseModal) = %v, want refused with %q", c.name, err, c.want)
		}
	}
}

// TestAutocompleteChoiceRules: an autocomplete answer is refused as
// Discord refuses it: a choice whose name is empty or over 100 characters,
// or whose string value is over 100.
func TestAutocompleteChoiceRules(t *testing.T) {
	s := New()
	defer s.Close()
	type choice = struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	}
	for _, c := range []struct {
		name   string
		choice choice
		ok     bool
	}{
		{"name of 100 accented letters", choice{strings.Repeat("é", 100), "v"}, true},
		{"number value", choice{"Season 3", 3}, true},
		{"name of 101", choice{strings.Repeat("n", 101), "v"}, false},
		{"empty name", choice{"", "v"}, false},
		{"value of 101", choice{"n", strings.Repeat("v", 101)}, false},
	} {
		ix := &Interaction{Type: TypeAutocomplete, SentAt: time.Now()}
		s.mu.Lock()
		status, msg := s.callback(ix, CallbackAutocomplete, messagePayload{Choices: []choice{c.choice}}, nil)
		s.mu.Unlock()
		if (status == 0) != c.ok {
			t.Errorf("%s: Got(callback) = %d %s, want ok %v", c.name, status, msg, c.ok)
		}
	}
}

// TestRegistrationDefaultTexts: a command's own (default) texts follow
// the rules their localizations do: a description of 1 to 100 characters
// (not bytes), a choice name of 1 to 100 characters, a string choice
// value of at most 100, and a name under the naming rule.
func TestRegistrationDefaultTexts(t *testing.T) {
	s := New()
	defer s.Close()
	opt := func(choice string) string {
		return `[{"name":"queue","description":"d","options":[{"type":3,"name":"a","description":"a","choices":[` + choice + `]}]}]`
	}
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"description of 100 accented letters", `[{"name":"queue","description":"` + strings.Repeat("é", 100) + `"}]`, true},
		{"option description of 100 accented letters", `[{"name":"queue","description":"d","options":[{"type":3,"name":"a","description":"` + strings.Repeat("é", 100) + `"}]}]`, true},
		{"choice name of 101", opt(`{"name":"` + strings.Repeat("n", 101) + `","value":"v"}`), false},
		{"empty choice name", opt(`{"name":"","value":"v"}`), false},
		{"choice value of 101", opt(`{"name":"n","value":"` + strings.Repeat("v", 101) + `"}`), false},
		{"space in a name", `[{"name":"queue join","description":"d"}]`, false},
		{"space in an option name", `[{"name":"queue","description":"d","options":[{"type":3,"name":"a b","description":"a"}]}]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := put(t, s, tc.body)
			if (status == 200) != tc.ok {
				t.Errorf("Got(status) = %d (%s), want ok %v", status, body, tc.ok)
			}
		})
	}
}
