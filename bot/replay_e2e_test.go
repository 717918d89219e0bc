package bot

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/showdown"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// replayID is the saved multi battle's ID: Ash K. and Brock_42 (p1, p3)
// beat Misty W and Gary Oak! (p2, p4).
const replayID = "gen9multirandombattle-1000000001"

// newReplayEnv is newEnv with /report replay wired to a Showdown client
// of an httptest replay server that serves the saved replay.
func newReplayEnv(t *testing.T, backend string) (*env, string) {
	t.Helper()
	body, err := os.ReadFile("../internal/showdown/testdata/multi-win-p1p3.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/"+replayID+".json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	client, err := showdown.NewClient(srv.URL, ladder.URLPolicy{AllowHTTP: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, freshDSN(t, backend))
	e.h.stop()
	e.h = startBot(t, e.fake, commands.New(commands.Deps{Service: e.svc, VerifyReplay: client.Verify}))
	return e, srv.URL + "/" + replayID
}

// link links each player of the match to a Showdown name through /link.
func (e *env) link(m ladder.Match, names [2][2]string) {
	e.t.Helper()
	for t, team := range m.Teams {
		for i, u := range team {
			r := e.slash(userByID(u), "link showdown", map[string]any{"name": names[t][i]})
			wantText(e.t, "link", r, "Linked your Showdown name")
		}
	}
}

func TestReportReplay(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		t.Run("a good replay confirms", func(t *testing.T) {
			e, url := newReplayEnv(t, backend)
			e.establish()
			_, m := e.formMatch()
			e.link(m, [2][2]string{{"Ash K.", "brock 42"}, {"Gary Oak!", "misty w"}})
			reporter := userByID(m.Teams[0][0])
			r := e.slash(reporter, "report", map[string]any{"outcome": "win", "replay": url})
			wantText(t, "report replay", r, fmt.Sprintf("match #%d is confirmed and rated (Team 1 won)", m.ID))
			got, err := e.svc.Match(e.ctx, testGuild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.State != ladder.StateConfirmed || got.Winner != 1 || got.Evidence != url {
				t.Errorf("Got(match) = %s, winner %d, evidence %q, want confirmed, 1, %q", got.State, got.Winner, got.Evidence, url)
			}
			audit, err := e.svc.Audit(e.ctx, testGuild, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(audit) == 0 || audit[0].Action != "replay_confirm" || audit[0].Reason != url || audit[0].MatchID != m.ID {
				t.Errorf("Got(audit) = %+v, want replay_confirm of match %d with the URL first", audit, m.ID)
			}
			wantText(t, "profile", e.slash(reporter, "profile", nil), "Ash K.")
		})
		t.Run("a mismatched replay falls back with the reason", func(t *testing.T) {
			e, url := newReplayEnv(t, backend)
			e.establish()
			_, m := e.formMatch()
			// Partners split across the battle's sides.
			e.link(m, [2][2]string{{"Ash K.", "Misty W"}, {"Brock_42", "Gary Oak!"}})
			r := e.slash(userByID(m.Teams[0][0]), "report", map[string]any{"outcome": "win", "replay": url})
			wantText(t, "mismatch", r, "The replay did not confirm the match: the teams played on other sides")
			wantText(t, "mismatch", r, fmt.Sprintf("Reported match #%d", m.ID))
			got, err := e.svc.Match(e.ctx, testGuild, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.State != ladder.StateReported {
				t.Errorf("Got(state) = %s, want reported (the other team confirms)", got.State)
			}
			e.channelMessage(fmt.Sprintf("reported match #%d", m.ID))
		})
		t.Run("a replay that contradicts the report falls back", func(t *testing.T) {
			e, url := newReplayEnv(t, backend)
			e.establish()
			_, m := e.formMatch()
			e.link(m, [2][2]string{{"Ash K.", "Brock_42"}, {"Misty W", "Gary Oak!"}})
			r := e.slash(userByID(m.Teams[1][0]), "report", map[string]any{"outcome": "win", "replay": url})
			wantText(t, "contradiction", r, "the replay shows team 1 won, but you reported win")
			if strings.Contains(r.Message.Text(), "confirmed and rated") {
				t.Errorf("Got(text) = %q, want no confirmation", r.Message.Text())
			}
		})
		t.Run("a replay proves one match", func(t *testing.T) {
			e, url := newReplayEnv(t, backend)
			e.establish()
			_, m := e.formMatch()
			e.link(m, [2][2]string{{"Ash K.", "Brock_42"}, {"Misty W", "Gary Oak!"}})
			wantText(t, "first", e.slash(userByID(m.Teams[0][0]), "report", map[string]any{"outcome": "win", "replay": url}), "confirmed and rated")
			// The same battle again, for the players' next match and in
			// another spelling: it proves nothing, and the report goes
			// the normal way.
			_, next := e.formMatch()
			// Linked so that the battle's sides are the rematch's teams.
			e.link(next, [2][2]string{{"Ash K.", "Brock_42"}, {"Misty W", "Gary Oak!"}})
			again := strings.ToUpper(url[len(url)-len(replayID):])
			again = url[:len(url)-len(replayID)] + again + ".json?p2"
			reporter := userByID(next.Teams[0][0])
			r := e.slash(reporter, "report", map[string]any{"outcome": "win", "replay": again})
			wantText(t, "reused", r, fmt.Sprintf("The replay did not confirm the match: that replay already proved match %d: a replay proves one match", m.ID))
			wantText(t, "reused", r, fmt.Sprintf("Reported match #%d", next.ID))
			got, err := e.svc.Match(e.ctx, testGuild, next.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.State != ladder.StateReported || got.Evidence != "" {
				t.Errorf("Got(next match) = %s, evidence %q, want reported without evidence (the other team confirms)", got.State, got.Evidence)
			}
			// The first match's own replay still answers as done.
			first, err := e.svc.Match(e.ctx, testGuild, m.ID)
			if err != nil || first.State != ladder.StateConfirmed || first.Winner != 1 {
				t.Errorf("Got(first match) = %+v, %v, want confirmed, team 1", first, err)
			}
		})
	})
}
