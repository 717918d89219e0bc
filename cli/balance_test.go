package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestBalanceCommand(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"json", []string{"balance", "--json", "1800", "1500", "1600", "1700"}, 0,
			`{"team_size":2,"gap":0,"a":[0,1],"b":[2,3],"sit_out":[],"sum_a":3300,"sum_b":3300,"exact":true}`, ""},
		{"odd lobby json", []string{"balance", "--json", "1000", "1200", "1500", "1800", "2000"}, 0,
			`"a":[0,4],"b":[1,3],"sit_out":[2]`, ""},
		{"text", []string{"balance", "1800", "1500", "1600", "1700"}, 0,
			"Team A, sum 3300: #1 (1800), #2 (1500)", ""},
		{"size", []string{"balance", "--size", "1", "1500", "1400", "1520"}, 0, "1v1, gap 20 (optimal)", ""},
		{"all sizes", []string{"balance", "--all-sizes", "--json", "1", "2", "3", "4", "5", "6"}, 0, `[{"team_size":2,`, ""},
		{"bad rating", []string{"balance", "1500", "abc"}, 1, "", `rating 2 ("abc") is not a number`},
		{"not finite", []string{"balance", "1500", "NaN"}, 1, "", "rating 2 is not a usable number"},
		{"team too big", []string{"balance", "--size", "3", "1", "2", "3", "4"}, 1, "", "team size must be from 1 to 2"},
		{"one rating", []string{"balance", "1500"}, 2, "", "at least two ratings"},
		{"negative ratings (OpenSkill ordinals)", []string{"balance", "--json", "-2.5", "3", "-1", "0.5"}, 0,
			`"gap":1,"a":[0,1],"b":[2,3],"sit_out":[],"sum_a":0.5,"sum_b":-0.5`, ""},
		{"negative rating after a flag's value", []string{"balance", "--size", "1", "-3", "-1", "-2.5"}, 0, "1v1, gap 0.5 (optimal)", ""},
		{"flags after the ratings", []string{"balance", "-2", "2", "1", "-1", "--json"}, 0, `"gap":0`, ""},
		{"an unknown flag is still one", []string{"balance", "--sizes", "1", "2"}, 2, "", "flag provided but not defined: -sizes"},
		{"both size flags", []string{"balance", "--size", "2", "--all-sizes", "1", "2", "3", "4"}, 2, "", "exclude each other"},
		// 0 is the flag's "not given"; given, it is refused, not read as ⌊N/2⌋.
		{"size 0 given", []string{"balance", "--size", "0", "1", "2", "3", "4"}, 1, "", "team size must be from 1 to 2 for 4 players, not 0"},
		{"size 0 with all sizes", []string{"balance", "--size", "0", "--all-sizes", "1", "2", "3", "4"}, 2, "", "exclude each other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, nil, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("Got(Main(%q)) = %d, want %d (stderr %q)", tt.args, code, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("Got(stdout) = %q, want it to contain %q", stdout.String(), tt.wantStdout)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("Got(stderr) = %q, want it to contain %q", stderr.String(), tt.wantStderr)
			}
		})
	}
}

func TestBalanceCommandJSONIsValid(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"balance", "--json", "1500", "1510", "1490", "1700", "1300", "1600", "1400"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(exit) = %d, want 0 (%s)", code, stderr.String())
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("Got(json error) = %v, want a JSON object", err)
	}
	for _, k := range []string{"gap", "a", "b", "sit_out"} {
		if _, ok := got[k]; !ok {
			t.Errorf("Got(keys) = %v, want %q", got, k)
		}
	}
}
