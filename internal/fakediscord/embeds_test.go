package fakediscord

import (
	"encoding/json"
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
