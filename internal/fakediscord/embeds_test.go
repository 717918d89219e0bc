package fakediscord

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestEmbedRules: a message's embeds are refused as Discord refuses them
// (50035 Invalid Form Body): a part over its own limit, a 26th field, a
// field with an empty name or value, or more than 6,000 characters over
// all the embeds, counted in characters, not bytes.
func TestEmbedRules(t *testing.T) {
	field := func(name, value string) map[string]any { return map[string]any{"name": name, "value": value} }
	embed := func(kv ...any) map[string]any {
		e := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			e[kv[i].(string)] = kv[i+1]
		}
		return e
	}
	many := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = field("n", "v")
		}
		return out
	}
	for _, c := range []struct {
		name   string
		embeds []any
		want   string // "" accepted
	}{
		{"ordinary", []any{embed("title", "Match 12", "description", "ready", "fields", []any{field("Team 1", "a, b")}, "footer", map[string]any{"text": "f"})}, ""},
		{"title at the limit in characters", []any{embed("title", strings.Repeat("é", 256))}, ""},
		{"title over", []any{embed("title", strings.Repeat("t", 257))}, "embeds.0.title"},
		{"description over", []any{embed("description", strings.Repeat("d", 4097))}, "embeds.0.description"},
		{"25 fields", []any{embed("fields", many(25))}, ""},
		{"26 fields", []any{embed("fields", many(26))}, "embeds.0.fields: must be 25 or fewer"},
		{"empty field name", []any{embed("fields", []any{field("", "v")})}, "embeds.0.fields.0.name"},
		{"empty field value", []any{embed("fields", []any{field("n", "")})}, "embeds.0.fields.0.value"},
		{"field value over", []any{embed("fields", []any{field("n", strings.Repeat("v", 1025))})}, "embeds.0.fields.0.value"},
		{"footer over", []any{embed("footer", map[string]any{"text": strings.Repeat("f", 2049)})}, "embeds.0.footer.text"},
		{"author over", []any{embed("title", "t", "author", map[string]any{"name": strings.Repeat("a", 257)})}, "embeds.0.author.name"},
		{"6,000 over two embeds", []any{embed("description", strings.Repeat("d", 4000)), embed("description", strings.Repeat("d", 2000))}, ""},
		{"6,001 over two embeds", []any{embed("description", strings.Repeat("d", 4000)), embed("description", strings.Repeat("d", 2000), "title", "x")}, "6001 characters in all"},
	} {
		raw, err := json.Marshal(c.embeds)
		if err != nil {
			t.Fatal(err)
		}
		var m Message
		err = m.apply(messagePayload{Embeds: raw}, nil, false)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Got(apply) = %v, want accepted", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Got(apply) = %v, want refused with %q", c.name, err, c.want)
		}
	}
}

// TestModalRules: a modal is refused as Discord refuses it: a title over
// 45 characters, a text input whose label is empty or over 45, whose
// placeholder is over 100, whose max_length is outside 1 to 4,000 or
// whose style is neither short nor paragraph.
func TestModalRules(t *testing.T) {
	input := func(kv ...any) json.RawMessage {
		c := map[string]any{"type": 4, "custom_id": "reason", "label": "Reason", "style": 2}
		for i := 0; i < len(kv); i += 2 {
			c[kv[i].(string)] = kv[i+1]
		}
		raw, err := json.Marshal([]any{map[string]any{"type": 1, "components": []any{c}}})
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	for _, c := range []struct {
		name, title string
		rows        json.RawMessage
		want        string
	}{
		{"ordinary", "Dispute match #12", input(), ""},
		{"title of 45 characters", strings.Repeat("é", 45), input(), ""},
		{"title of 46", strings.Repeat("t", 46), input(), "title: must be 45 or fewer"},
		{"label of 45", "t", input("label", strings.Repeat("l", 45)), ""},
		{"label of 46", "t", input("label", strings.Repeat("l", 46)), "label: must be between 1 and 45"},
		{"no label", "t", input("label", ""), "label: must be between 1 and 45"},
		{"placeholder of 101", "t", input("placeholder", strings.Repeat("p", 101)), "placeholder: must be 100 or fewer"},
		{"max_length 4001", "t", input("max_length", 4001), "max_length: must be from 1 to 4000"},
		{"max_length 0", "t", input("max_length", 0), "max_length: must be from 1 to 4000"},
		{"style 3", "t", input("style", 3), "style: must be 1 (short) or 2 (paragraph)"},
	} {
		_, err := parseModal(messagePayload{CustomID: "form", Title: c.title, Components: c.rows})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Got(parseModal) = %v, want accepted", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Got(parseModal) = %v, want refused with %q", c.name, err, c.want)
		}
	}
}

// TestButtonLabelLimit: Discord refuses a button label over 80 characters.
func TestButtonLabelLimit(t *testing.T) {
	row := func(label string) json.RawMessage {
		raw, _ := json.Marshal([]any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": 1, "custom_id": "b", "label": label}}}})
		return raw
	}
	var m Message
	if err := m.apply(messagePayload{Components: row(strings.Repeat("é", 80))}, nil, false); err != nil {
		t.Errorf("Got(label of 80 characters) = %v, want accepted", err)
	}
	if err := m.apply(messagePayload{Components: row(strings.Repeat("l", 81))}, nil, false); err == nil || !strings.Contains(err.Error(), "button label: must be 80 or fewer") {
		t.Errorf("Got(label of 81) = %v, want refused", err)
	}
}

// TestAllowedMentionRules: allowed_mentions.users is refused as Discord
// refuses it: more than 100 users, or one that is not a snowflake.
func TestAllowedMentionRules(t *testing.T) {
	users := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(700000000000000000 + i)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		users []string
		want  string // "" accepted
	}{
		{"none", nil, ""},
		{"one", []string{"700000000000000001"}, ""},
		{"100", users(100), ""},
		{"101", users(101), "must be 100 or fewer"},
		{"a name", []string{"700000000000000001", "Bob Bryan"}, `allowed_mentions.users.1: value "Bob Bryan" is not snowflake`},
		{"a dashboard actor", []string{"web:700000000000000001"}, "allowed_mentions.users.0"},
		{"empty", []string{""}, "allowed_mentions.users.0"},
		{"negative", []string{"-1"}, "allowed_mentions.users.0"},
	} {
		p := messagePayload{}
		p.AllowedMentions = &struct {
			Users []string `json:"users"`
			Parse []string `json:"parse"`
		}{Users: c.users}
		var m Message
		err := m.apply(p, nil, false)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Got(apply) = %v, want accepted", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Got(apply) = %v, want refused with %q", c.name, err, c.want)
		}
	}
}
