package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// freeAddr returns a loopback address with a port free at the moment.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// gameServer is a game server reporting finished matches to the
// processes' HTTP API with an Idempotency-Key each, retrying a key (on
// any process) until one answers it, as docs/spec.md 7 tells clients to do.
type gameServer struct {
	guild, token string
	addrs        []string
	players      []string
	client       *http.Client
	// pace is the pause between results (none by default).
	pace time.Duration

	mu    sync.Mutex
	acked map[string]int64 // key → match ID answered
	tries int
	// unanswered is the key whose requests were still unanswered when
	// run stopped (its context ended): the last request may have been
	// recorded with its answer lost, once at most.
	unanswered string
}

func newGameServer(t testing.TB, l *load, guild string, addrs []string) *gameServer {
	t.Helper()
	ctx := context.Background()
	if _, err := l.svc.EnsureGuild(ctx, guild); err != nil {
		t.Fatal(err)
	}
	secret, _, err := l.svc.CreateToken(ctx, ladder.System, guild, "game-server")
	if err != nil {
		t.Fatal(err)
	}
	gs := &gameServer{guild: guild, token: secret, addrs: addrs, acked: map[string]int64{},
		client: &http.Client{Timeout: 5 * time.Second}}
	for i := range 8 {
		gs.players = append(gs.players, fmt.Sprintf("8%017d", i+1))
	}
	return gs
}

// run reports results with keys 0, 1, … until more() is false, each key
// retried until answered 201 or 200.
func (gs *gameServer) run(ctx context.Context, seed uint64, more func() bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := 0; more() && ctx.Err() == nil; i++ {
		key := "result-" + strconv.Itoa(i)
		p := rng.Perm(len(gs.players))
		body := fmt.Sprintf(`{"team1":[%q,%q],"team2":[%q,%q],"winner":%d}`,
			gs.players[p[0]], gs.players[p[1]], gs.players[p[2]], gs.players[p[3]], rng.IntN(3))
		answered := false
		for try := 0; ctx.Err() == nil; try++ {
			if id, ok := gs.post(ctx, gs.addrs[(i+try)%len(gs.addrs)], key, body); ok {
				gs.mu.Lock()
				gs.acked[key] = id
				gs.mu.Unlock()
				answered = true
				time.Sleep(gs.pace)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !answered {
			gs.mu.Lock()
			gs.unanswered = key
			gs.mu.Unlock()
		}
	}
}

func (gs *gameServer) post(ctx context.Context, addr, key, body string) (int64, bool) {
	gs.mu.Lock()
	gs.tries++
	gs.mu.Unlock()
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/v1/guilds/"+gs.guild+"/matches", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+gs.token)
	req.Header.Set("Idempotency-Key", key)
	resp, err := gs.client.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != 201 && resp.StatusCode != 200 {
		return 0, false
	}
	var out struct {
		MatchID int64 `json:"match_id"`
	}
	if json.NewDecoder(resp.Body).Decode(&out) != nil {
		return 0, false
	}
	return out.MatchID, true
}

// check asserts that every answered key is stored once, with the match
// it was answered with, and that no other API match exists.
func (gs *gameServer) check(t *testing.T, l *load) {
	t.Helper()
	ctx := context.Background()
	rows, err := l.db.SQL().QueryContext(ctx, `SELECT key, match_id FROM idempotency_keys WHERE guild_id = $1`, gs.guild)
	if err != nil {
		t.Fatalf("query idempotency keys: %v", err)
	}
	stored := map[string]int64{}
	for rows.Next() {
		var k string
		var id int64
		rows.Scan(&k, &id)
		stored[k] = id
	}
	rows.Close()
	var matches int
	if err := l.db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM matches WHERE guild_id = $1 AND source = 'api'`, gs.guild).Scan(&matches); err != nil {
		t.Fatal(err)
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	for k, id := range gs.acked {
		if stored[k] != id {
			t.Errorf("result %s: answered as match %d; Got(stored) = %d", k, id, stored[k])
		}
	}
	// A key still unanswered when the game server stopped may have been
	// recorded (its answer lost with the request's context), once.
	want := len(gs.acked)
	if _, ok := stored[gs.unanswered]; ok && gs.unanswered != "" {
		want++
	}
	if matches != want || len(stored) != want {
		t.Errorf("Got(API matches, keys) = %d, %d, want %d each: every retried result recorded once (%d answered, unanswered key %q)",
			matches, len(stored), want, len(gs.acked), gs.unanswered)
	}
	for k := range stored {
		if _, ok := gs.acked[k]; !ok && k != gs.unanswered {
			t.Errorf("key %s stored but never sent to be answered", k)
		}
	}
	if len(gs.acked) == 0 {
		t.Errorf("Got(API results answered) = 0, want some")
	}
	t.Logf("game server: %d results answered after %d requests (retries across kills), each stored once", len(gs.acked), gs.tries)
}
