package showdown

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
)

// replayServer serves testdata/<id>.json fixtures the way the replay
// server does: GET /<id>.json, 404 for anything else.
func replayServer(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Errorf("fixture %s: %v", name, err)
			http.Error(w, "missing fixture", 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestVerifyReplays(t *testing.T) {
	srv := replayServer(t, map[string]string{
		"gen9multirandombattle-1000000001.json":   "multi-win-p1p3.json",
		"gen9randomdoublesbattle-1000000002.json": "doubles.json",
		"gen9multirandombattle-1000000003.json":   "multi-unfinished.json",
		// Played in Showdown's own simulator (testdata/README.md).
		"gen9multirandombattle-2000000001.json":   "sim-multi-p1p3.json",
		"gen9multirandombattle-2000000002.json":   "sim-multi-p2p4.json",
		"gen9randomdoublesbattle-2000000003.json": "sim-doubles.json",
	})
	c, err := NewClient(srv.URL, ladder.URLPolicy{AllowHTTP: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ash, misty, brock, gary := "ash k", "MISTY-W", "brock 42", "garyoak"
	tests := []struct {
		name         string
		id           string
		team1, team2 []string
		winner       int
		reason       string // "" for a match
	}{
		{"team 1 on p1+p3 wins", "gen9multirandombattle-1000000001", []string{ash, brock}, []string{misty, gary}, 1, ""},
		{"team 1 on p2+p4 loses", "gen9multirandombattle-1000000001", []string{gary, misty}, []string{brock, ash}, 2, ""},
		{"partners split across sides", "gen9multirandombattle-1000000001", []string{ash, misty}, []string{brock, gary}, 0, "other sides"},
		{"a stranger", "gen9multirandombattle-1000000001", []string{ash, brock}, []string{misty, "Team Rocket"}, 0, "teamrocket did not play"},
		{"a doubles battle", "gen9randomdoublesbattle-1000000002", []string{ash, brock}, []string{misty, gary}, 0, "not a 2v2 multi battle (game type doubles)"},
		{"no result", "gen9multirandombattle-1000000003", []string{ash, brock}, []string{misty, gary}, 0, "no result"},
		{"one linked player missing", "gen9multirandombattle-1000000001", []string{ash}, []string{misty, gary}, 0, "two linked players"},
		{"simulated: p1 and p3 win", "gen9multirandombattle-2000000001", []string{ash, brock}, []string{misty, gary}, 1, ""},
		{"simulated: p2 and p4 win", "gen9multirandombattle-2000000002", []string{ash, brock}, []string{misty, gary}, 2, ""},
		{"simulated: p2 and p4 win, teams the other way round", "gen9multirandombattle-2000000002", []string{gary, misty}, []string{brock, ash}, 1, ""},
		{"simulated: partners split across sides", "gen9multirandombattle-2000000001", []string{ash, misty}, []string{brock, gary}, 0, "other sides"},
		{"simulated: a doubles battle", "gen9randomdoublesbattle-2000000003", []string{ash, brock}, []string{misty, gary}, 0, "not a 2v2 multi battle (game type doubles)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.Fetch(context.Background(), srv.URL+"/"+tt.id)
			if err != nil {
				t.Fatalf("Got(Fetch) error %v, want none", err)
			}
			got, err := ParseLog(r.Log).Outcome(tt.team1, tt.team2)
			var mm *Mismatch
			switch {
			case tt.reason == "" && (err != nil || got != tt.winner):
				t.Errorf("Got(Outcome) = %d, %v, want team %d", got, err, tt.winner)
			case tt.reason != "" && (!errors.As(err, &mm) || !strings.Contains(mm.Reason, tt.reason)):
				t.Errorf("Got(Outcome) = %d, %v, want a mismatch saying %q", got, err, tt.reason)
			}
		})
	}
}

func TestParseLogMulti(t *testing.T) {
	b, err := os.ReadFile("testdata/multi-win-p1p3.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := replayServer(t, map[string]string{"gen9multirandombattle-1000000001.json": "multi-win-p1p3.json"})
	c, _ := NewClient(srv.URL+"/", ladder.URLPolicy{AllowHTTP: true}, nil)
	r, err := c.Fetch(context.Background(), srv.URL+"/gen9multirandombattle-1000000001.json?p2#x")
	if err != nil {
		t.Fatalf("Got(Fetch) error %v (fixture %d bytes), want none", err, len(b))
	}
	got := ParseLog(r.Log)
	want := Battle{GameType: "multi", Players: [4]string{"Ash K.", "Misty W", "Brock_42", "Gary Oak!"}, Win: "Ash K. & Brock_42"}
	if got != want {
		t.Errorf("Got(ParseLog) = %+v, want %+v (a leaving player's empty |player| line keeps the name)", got, want)
	}
}

func TestOutcomeTieAndAmbiguousWin(t *testing.T) {
	base := "|gametype|multi\n|player|p1|a|\n|player|p2|b|\n|player|p3|c|\n|player|p4|d|\n"
	tests := []struct {
		name, log string
		winner    int
		reason    string
	}{
		{"tie", base + "|tie\n", 0, ""},
		{"p2's side wins, names in either order", base + "|win|d & b\n", 2, ""},
		{"single-name win line", base + "|win|C\n", 1, ""},
		{"winner from nowhere", base + "|win|zed\n", 0, "not one side"},
		{"missing p4", "|gametype|multi\n|player|p1|a|\n|player|p2|b|\n|player|p3|c|\n|win|a & c\n", 0, "no player p4"},
		{"freeforall", strings.Replace(base, "multi", "freeforall", 1) + "|win|a\n", 0, "game type freeforall"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseLog(tt.log).Outcome([]string{"A", "c"}, []string{"B", "D"})
			var mm *Mismatch
			switch {
			case tt.reason == "" && (err != nil || got != tt.winner):
				t.Errorf("Got(Outcome) = %d, %v, want %d", got, err, tt.winner)
			case tt.reason != "" && (!errors.As(err, &mm) || !strings.Contains(mm.Reason, tt.reason)):
				t.Errorf("Got(Outcome) = %d, %v, want a mismatch saying %q", got, err, tt.reason)
			}
		})
	}
}

func TestToID(t *testing.T) {
	for in, want := range map[string]string{"Gary Oak!": "garyoak", "Brock_42": "brock42", "ÄSH": "sh", "": ""} {
		if got := ToID(in); got != want {
			t.Errorf("Got(ToID(%q)) = %q, want %q", in, got, want)
		}
	}
}

func TestFetchRefusesOtherHostsAndBounds(t *testing.T) {
	big := strings.Repeat("x", DefaultMaxBytes)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gen9multirandombattle-1.json":
			// A huge body without Content-Length (chunked): the read bound stops it.
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte(`{"log":"` + big + `"}`))
		case "/gen9multirandombattle-2.json":
			http.Redirect(w, r, "http://example.invalid/gen9multirandombattle-2.json", http.StatusFound)
		case "/gen9multirandombattle-3.json":
			_, _ = w.Write([]byte(`<html>not json</html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, ladder.URLPolicy{AllowHTTP: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url string
		is        error
		msg       string
	}{
		{"another host", "https://evil.example/gen9multirandombattle-1", ErrRefused, "only replays on"},
		{"the public server when another is configured", "https://replay.pokemonshowdown.com/gen9multirandombattle-1", ErrRefused, "only replays on"},
		{"not a replay path", srv.URL + "/../../etc/passwd", ErrRefused, "does not name a replay"},
		{"ftp", "ftp://" + strings.TrimPrefix(srv.URL, "http://") + "/gen9multirandombattle-1", ErrRefused, "only replays on"},
		{"oversized body", srv.URL + "/gen9multirandombattle-1", nil, "byte bound"},
		{"redirect elsewhere", srv.URL + "/gen9multirandombattle-2", ErrRefused, "redirected"},
		{"not JSON", srv.URL + "/gen9multirandombattle-3", nil, "not a replay's JSON"},
		{"unknown replay", srv.URL + "/gen9multirandombattle-4", ErrNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Fetch(context.Background(), tt.url)
			if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Got(Fetch(%s)) error %v, want %v containing %q", tt.url, err, tt.is, tt.msg)
			}
		})
	}
}

func TestNewClientDefaultsAndRejectsBadBase(t *testing.T) {
	c, err := NewClient("", ladder.URLPolicy{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.ReplayID("https://replay.pokemonshowdown.com/smogtours-gen9ou-725192")
	if err != nil || id != "smogtours-gen9ou-725192" {
		t.Errorf("Got(ReplayID) = %q, %v, want smogtours-gen9ou-725192", id, err)
	}
	for _, base := range []string{"replay.pokemonshowdown.com", "ftp://x", "https://x?q=1", "http://user@x"} {
		if _, err := NewClient(base, ladder.URLPolicy{AllowHTTP: true}, nil); err == nil {
			t.Errorf("Got(NewClient(%q)) no error, want one", base)
		}
	}
}

// TestNewClientOutgoingPolicy holds the replay client to the rules of
// every outgoing request: SHOWDOWN_REPLAY_BASE must name a public host on
// an allowed port, in no numeric disguise, and a base whose name resolves
// to a refused address is refused when dialled.
func TestNewClientOutgoingPolicy(t *testing.T) {
	strict := ladder.URLPolicy{}
	for _, base := range []string{
		"https://2130706433", "https://0x7f000001", "https://0177.0.0.1", "https://127.1", "https://10.1",
		"https://[::127.0.0.1]", "https://[::ffff:a9fe:a9fe]", "https://169.254.169.254",
		"https://replay.example.com:6379", "http://replay.example.com", "https://localhost",
	} {
		if _, err := NewClient(base, strict, nil); err == nil {
			t.Errorf("Got(NewClient(%q)) no error, want refused", base)
		}
	}
	for _, base := range []string{"https://replay.example.com", "https://replay.example.com:8443/r"} {
		if _, err := NewClient(base, strict, nil); err != nil {
			t.Errorf("Got(NewClient(%q)) = %v, want accepted", base, err)
		}
	}
	// A name that resolves to loopback passes the URL check but not the
	// dial: the server below is never reached.
	reached := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true }))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")
	c, err := NewClient("https://replay.example.com", strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.base.Scheme, c.base.Host = "http", host // as if the name had resolved here
	_, err = c.Fetch(context.Background(), srv.URL+"/gen9ou-1")
	if !errors.Is(err, ErrRefused) || reached {
		t.Errorf("Got(Fetch from a loopback address) = %v (reached %v), want ErrRefused at dial", err, reached)
	}
}

// TestParseLogSimulated reads a battle played in Pokémon Showdown's own
// simulator (testdata/simulate-replay.js): its protocol output as written,
// not a hand-made imitation. TestVerifyReplays checks its outcomes.
func TestParseLogSimulated(t *testing.T) {
	srv := replayServer(t, map[string]string{"gen9multirandombattle-2000000002.json": "sim-multi-p2p4.json"})
	c, _ := NewClient(srv.URL, ladder.URLPolicy{AllowHTTP: true}, nil)
	r, err := c.Fetch(context.Background(), srv.URL+"/gen9multirandombattle-2000000002")
	if err != nil {
		t.Fatalf("Got(Fetch) error %v, want none", err)
	}
	got := ParseLog(r.Log)
	want := Battle{GameType: "multi", Players: [4]string{"Ash K.", "Misty W", "Brock_42", "Gary Oak!"}, Win: "Misty W & Gary Oak!"}
	if got != want {
		t.Errorf("Got(ParseLog) = %+v, want %+v", got, want)
	}
}
