package fakediscord

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSelectMenuRules checks the fake holds bots to Discord's rules for
// string select menus, so a menu the real Discord would refuse fails here.
func TestSelectMenuRules(t *testing.T) {
	opts := func(n int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`{"label":"p%d","value":"%d"}`, i, i))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	menu := func(extra string) string {
		return `{"type":3,"custom_id":"pick:1:0","options":` + opts(2) + extra + `}`
	}
	cases := []struct {
		name, rows, bad string
	}{
		{"a menu alone in its row", `[{"type":1,"components":[` + menu("") + `]}]`, ""},
		{"a menu beside a button", `[{"type":1,"components":[` + menu("") + `,{"type":2,"custom_id":"x:1","label":"x","style":1}]}]`, "alone in its row"},
		{"no options", `[{"type":1,"components":[{"type":3,"custom_id":"pick:1:0","options":[]}]}]`, "0 options"},
		{"26 options", `[{"type":1,"components":[{"type":3,"custom_id":"pick:1:0","options":` + opts(26) + `}]}]`, "26 options"},
		{"no custom ID", `[{"type":1,"components":[{"type":3,"options":` + opts(2) + `}]}]`, "without custom_id"},
		{"a value twice", `[{"type":1,"components":[{"type":3,"custom_id":"p:1","options":[{"label":"a","value":"1"},{"label":"b","value":"1"}]}]}]`, "twice"},
		{"an empty label", `[{"type":1,"components":[{"type":3,"custom_id":"p:1","options":[{"label":"","value":"1"}]}]}]`, "1 to 100"},
		{"max above the options", `[{"type":1,"components":[` + menu(`,"max_values":3`) + `]}]`, "max_values 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m Message
			err := m.apply(messagePayload{Components: json.RawMessage(c.rows)}, nil, false)
			if c.bad == "" && err != nil || c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
				t.Errorf("Got(apply) = %v, want %q", err, c.bad)
			}
		})
	}
}
