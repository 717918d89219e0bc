package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestTokenRateLimitAcrossReplicas runs two API servers over one database,
// as two replicas behind a load balancer would: one token's burst is
// shared between them, not granted by each, and both agree when it has
// refilled.
func TestTokenRateLimitAcrossReplicas(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		e := newEnv(t, dsn, Options{RatePerToken: 1, RateBurst: 3, Now: clock})
		seedFixture(t, e)
		tok := newToken(t, e, guildG, "server")
		db2, err := storage.Open(context.Background(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db2.Close() })
		replica := New(Options{Service: ladder.NewService(db2, nil), Rates: db2, RatePerToken: 1, RateBurst: 3, Now: clock})
		get := func(s *Server) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", "/api/v1/guilds/"+guildG+"/admin/health", nil)
			r.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, r)
			return rec
		}
		for i, s := range []*Server{e.srv, replica, e.srv} {
			if rec := get(s); rec.Code != 200 {
				t.Fatalf("Got(request %d of the burst of 3) = %d %s, want 200", i+1, rec.Code, rec.Body)
			}
		}
		for i, s := range []*Server{replica, e.srv} {
			rec := get(s)
			wantError(t, rec, 429, "rate limit")
			if got := rec.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Got(Retry-After of replica %d) = %q, want \"1\"", i+1, got)
			}
		}
		now = now.Add(1500 * time.Millisecond) // 1.5 tokens back: one request
		if rec := get(replica); rec.Code != 200 {
			t.Errorf("Got(request after the refill) = %d, want 200", rec.Code)
		}
		rec := get(e.srv)
		wantError(t, rec, 429, "rate limit")
		// Half a token is there: the next whole one is 0.5 s away, 1 s rounded up.
		if got := rec.Header().Get("Retry-After"); got != "1" {
			t.Errorf("Got(Retry-After with half a token) = %q, want \"1\"", got)
		}
		// A replica whose clock lags does not refill the bucket backwards.
		lagging := New(Options{Service: ladder.NewService(db2, nil), Rates: db2, RatePerToken: 1, RateBurst: 3,
			Now: func() time.Time { return now.Add(-time.Hour) }})
		wantError(t, get(lagging), 429, "rate limit")
	})
}

// TestAuthFailuresSpareValidTokens: after 25 bad tokens from one address
// (past the default 20 failures), a valid token from that address still
// works; the bad ones are answered 429 from the 21st.
func TestAuthFailuresSpareValidTokens(t *testing.T) {
	forEachDB(t, func(t *testing.T, dsn string) {
		now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		e := newEnv(t, dsn, Options{Now: func() time.Time { return now }})
		seedFixture(t, e)
		good := newToken(t, e, guildG, "server")
		get := func(tok string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("GET", "/api/v1/guilds/"+guildG+"/admin/health", nil)
			r.RemoteAddr = "203.0.113.9:4000"
			r.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			e.srv.Handler().ServeHTTP(rec, r)
			return rec
		}
		for i := range 25 {
			bad := "lbt_" + strings.Repeat(string(rune('a'+i)), 43)
			want := 401
			if i >= 20 {
				want = 429
			}
			if rec := get(bad); rec.Code != want {
				t.Fatalf("Got(bad token %d) = %d, want %d", i+1, rec.Code, want)
			}
		}
		if rec := get(good); rec.Code != 200 {
			t.Errorf("Got(valid token after 25 bad ones from its address) = %d %s, want 200", rec.Code, rec.Body)
		}
		wantError(t, get("lbt_"+strings.Repeat("z", 43)), 429, "failed authentications")
	})
}
