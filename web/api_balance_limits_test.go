package web

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBalanceLimits: a lobby naming one player twice is refused (on
// /balance as on /autobalance); a 48-player lobby — past the exact search,
// whose split took seconds and hundreds of megabytes — is answered with
// the bounded search's split, marked not exact; and when every balance
// worker is busy a request gets 503 with Retry-After instead of queueing
// more work in memory, and succeeds once a worker is free.
func TestBalanceLimits(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn, Options{BalanceWorkers: 1})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "server")
		post := func(path, body string) *httptest.ResponseRecorder {
			return call(e, "POST", "/api/v1/guilds/"+guildG+path, body, "Authorization", "Bearer "+tok)
		}
		wantError(t, post("/balance", `{"players":["1001","1002","1001","1003"]}`), 400, `"1001" is listed twice`)
		// Bare ratings are not players: two players may share a rating.
		if rec := post("/balance", `{"players":[1500,1500,1600,1600]}`); rec.Code != 200 {
			t.Errorf("Got(balance of equal bare ratings) = %d %s, want 200", rec.Code, rec.Body)
		}

		var big []string
		for i := range 48 {
			big = append(big, fmt.Sprint(1400+7*i+(i*i)%13))
		}
		rec := post("/balance", `{"players":[`+strings.Join(big, ",")+`]}`)
		if rec.Code != 200 {
			t.Fatalf("Got(balance of 48) = %d %s, want 200", rec.Code, rec.Body)
		}
		got := decode[balanceResponse](t, rec)
		if got.TeamSize != 24 || len(got.A) != 24 || len(got.B) != 24 {
			t.Errorf("Got(balance of 48) = %d, %d v %d, want 24 v 24", got.TeamSize, len(got.A), len(got.B))
		}
		if got.Exact && got.Gap != 0 {
			t.Errorf("Got(balance of 48) = gap %v exact, want exact only for a perfect split", got.Gap)
		}

		// Every worker busy: refused at once, with a time to come back.
		s := e.srv
		s.balanceSlots <- struct{}{}
		for _, c := range []struct{ path, body string }{
			{"/balance", `{"players":[1500,1600,1700,1800]}`},
			{"/autobalance", `{"team1":[1500,1600],"team2":[1700]}`},
		} {
			rec := post(c.path, c.body)
			wantError(t, rec, 503, "balancing")
			if got := rec.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Got(Retry-After of a busy %s) = %q, want \"1\"", c.path, got)
			}
		}
		<-s.balanceSlots
		if rec := post("/balance", `{"players":[1500,1600,1700,1800]}`); rec.Code != 200 {
			t.Errorf("Got(balance once a worker is free) = %d %s, want 200", rec.Code, rec.Body)
		}
		if n := len(s.balanceSlots); n != 0 {
			t.Errorf("Got(workers held after the requests) = %d, want 0", n)
		}
	})
}
