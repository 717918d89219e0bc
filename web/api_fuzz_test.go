package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// FuzzAPIBodies posts arbitrary bodies to every API endpoint that takes
// one (record a match, balance, set and reset a rating) on embedded
// SQLite: the answer is never a 5xx, always JSON, an error is exactly
// {"error": "..."}, and a match is recorded exactly when the answer is 201.
func FuzzAPIBodies(f *testing.F) {
	ctx := context.Background()
	db, err := storage.Open(ctx, "sqlite:"+filepath.Join(f.TempDir(), "ladder.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	svc := ladder.NewService(db, nil)
	e := &env{db: db, svc: svc, srv: New(Options{Service: svc, Ping: db.Ping, MaxBody: 1 << 16, RatePerToken: 1e9, RateBurst: 1 << 30})}
	tok, _, err := svc.CreateToken(ctx, ladder.System, guildG, "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	count := func(t *testing.T) int {
		var n int
		if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM matches").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	seeds := []struct {
		ep   uint8
		body string
	}{
		{0, `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1}`},
		{0, `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":0,"played_at":"2026-01-02T03:04:05Z","queue":"2v2"}`},
		{0, `{"team1":["1"],"team2":["2"],"winner":2}`},
		{1, `{"players":[1500,1600,1700,1800]}`},
		{1, `{"players":["1001","1002",1500,1600],"team_size":2,"all_sizes":true}`},
		{2, `{"rating":1500,"rd":50,"reason":"x"}`},
		{3, `{"queue":"2v2"}`},
		{3, ``},
		{0, `{"team1":["1001","1002"],"team2":["1003","1004"],"winner":1e400}`},
		{4, `{"team1":["1001","1002",1500,1600],"team2":[1700],"join":"1003","streak":[1,1,1]}`},
	}
	for _, s := range seeds {
		f.Add(s.ep, s.body)
	}
	paths := []struct{ method, path string }{
		{"POST", "/api/v1/guilds/" + guildG + "/matches"},
		{"POST", "/api/v1/guilds/" + guildG + "/balance"},
		{"PUT", "/api/v1/guilds/" + guildG + "/admin/players/1001/rating"},
		{"POST", "/api/v1/guilds/" + guildG + "/admin/players/1001/rating/reset"},
		{"POST", "/api/v1/guilds/" + guildG + "/autobalance"},
	}
	f.Fuzz(func(t *testing.T, ep uint8, body string) {
		p := paths[int(ep)%len(paths)]
		before := count(t)
		rec := call(e, p.method, p.path, body, "Authorization", "Bearer "+tok)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: Got(status) = %d %s, want no server error", p.method, p.path, body, rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("%s %q: Got(Content-Type) = %q, want application/json", p.path, body, ct)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %q: Got(body) = %q, not a JSON object: %v", p.path, body, rec.Body, err)
		}
		if msg, ok := v["error"].(string); rec.Code >= 400 && (!ok || msg == "" || len(v) != 1) {
			t.Fatalf("%s %q: Got(error body) = %q, want {\"error\": \"...\"}", p.path, body, rec.Body)
		}
		want := before
		if rec.Code == 201 && int(ep)%len(paths) == 0 {
			want++
		}
		if got := count(t); got != want {
			t.Fatalf("%s %q answered %d: Got(matches) = %d, want %d", p.path, body, rec.Code, got, want)
		}
	})
}
