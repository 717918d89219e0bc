package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func put(t *testing.T, s *Server, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, s.URL()+"/api/v10/applications/"+s.AppID+"/guilds/1/commands", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestLocalizedRegistration: Discord's rules for localized names and
// descriptions are enforced at registration, and what was registered is
// served back with its localizations, or localized for one client.
func TestLocalizedRegistration(t *testing.T) {
	s := New()
	defer s.Close()
	long := strings.Repeat("é", 101)
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"valid", `[{"name":"queue","description":"d","name_localizations":{"de":"warteschlange","pt-BR":"fila"},"description_localizations":{"es-ES":"cola ñ"},
			"options":[{"type":1,"name":"join","description":"j","name_localizations":{"fr":"rejoindre"},"options":[{"type":3,"name":"outcome","description":"o","choices":[{"name":"win","value":"win","name_localizations":{"de":"Sieg"}}]}]}]}]`, true},
		{"uppercase name", `[{"name":"queue","description":"d","name_localizations":{"de":"Warteschlange"}}]`, false},
		{"space in name", `[{"name":"queue","description":"d","name_localizations":{"de":"warte schlange"}}]`, false},
		{"name over 32", `[{"name":"queue","description":"d","name_localizations":{"de":"` + strings.Repeat("a", 33) + `"}}]`, false},
		{"unknown locale", `[{"name":"queue","description":"d","name_localizations":{"de-DE":"warteschlange"}}]`, false},
		{"description over 100", `[{"name":"queue","description":"d","description_localizations":{"fr":"` + long + `"}}]`, false},
		{"option description over 100", `[{"name":"queue","description":"d","options":[{"type":3,"name":"a","description":"a","description_localizations":{"fr":"` + long + `"}}]}]`, false},
		{"siblings collide in one locale", `[{"name":"queue","description":"d","options":[{"type":3,"name":"a","description":"a","name_localizations":{"de":"x"}},{"type":3,"name":"b","description":"b","name_localizations":{"de":"x"}}]}]`, false},
		{"localized name equals a sibling", `[{"name":"a","description":"d","name_localizations":{"fr":"b"}},{"name":"b","description":"d"}]`, false},
		{"choice over 100", `[{"name":"queue","description":"d","options":[{"type":3,"name":"a","description":"a","choices":[{"name":"w","value":"w","name_localizations":{"de":"` + long + `"}}]}]}]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := put(t, s, tc.body)
			if (status == 200) != tc.ok {
				t.Errorf("Got(status) = %d (%s), want ok %v", status, body, tc.ok)
			}
		})
	}
	put(t, s, `[{"name":"queue","description":"d","name_localizations":{"de":"warteschlange"},"description_localizations":{"de":"D"}}]`)
	get := func(query, locale string) []map[string]any {
		req, _ := http.NewRequest(http.MethodGet, s.URL()+"/api/v10/applications/"+s.AppID+"/guilds/1/commands"+query, nil)
		req.Header.Set("X-Discord-Locale", locale)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out []map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	all := get("?with_localizations=true", "")
	if nl, _ := all[0]["name_localizations"].(map[string]any); nl["de"] != "warteschlange" {
		t.Errorf("Got(with_localizations) = %v, want name_localizations.de", all[0])
	}
	de := get("", "de")
	if de[0]["name_localized"] != "warteschlange" || de[0]["description_localized"] != "D" || de[0]["name_localizations"] != nil {
		t.Errorf("Got(for a de client) = %v, want name_localized and description_localized only", de[0])
	}
}
