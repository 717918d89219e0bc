package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/internal/chart"
	"github.com/ladderbot/ladderbot/internal/fakediscord"
	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// startBotHTTP starts a bot for set answering HTTP interactions: the fake
// Discord POSTs them, signed with its key, to an httptest server of
// Interactions(), and the bot answers the rest by REST. deliveries is
// what remembers interactions across processes (nil: the bot's memory).
// It waits until the commands are registered and stops when the test ends.
func startBotHTTP(t testing.TB, fake *fakediscord.Server, set *commands.Set, deliveries Deliveries) *harness {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	key, err := hex.DecodeString(fake.PublicKeyHex())
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Token: "test-token", APIBase: fake.URL(), DevGuildID: testGuild, DrainTimeout: 5 * time.Second,
		Transport: TransportHTTP, PublicKey: key, Deliveries: deliveries}
	b, err := New(cfg, set, log)
	if err != nil {
		t.Fatalf("New() error = %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /interactions", b.Interactions())
	srv := httptest.NewServer(mux)
	fake.SetInteractionsEndpoint(srv.URL + "/interactions")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	h := &harness{fake: fake, bot: b, logs: logs}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run() error = %v", err)
			}
			srv.Close()
		})
	}
	t.Cleanup(h.stop)
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	select {
	case <-b.Ready():
	case <-wctx.Done():
		t.Fatalf("bot never learnt its application by REST\nlog:\n%s", logs)
	}
	if err := fake.WaitCommands(wctx, testGuild); err != nil {
		t.Fatalf("bot never registered its commands: %v\nlog:\n%s", err, logs)
	}
	if !b.Connected() {
		t.Errorf("Got(Connected() in http mode once ready) = false, want true")
	}
	return h
}

// interactionBody is a /queue join by eve as Discord would POST it; id
// makes it a different interaction.
func interactionBody(id string) []byte {
	return []byte(`{"id":"` + id + `","application_id":"900000000000000001","type":2,"token":"tok` + id + `","version":1,` +
		`"guild_id":"` + testGuild + `","channel_id":"` + testChannel + `","locale":"en-US",` +
		`"data":{"id":"1","name":"queue","type":1,"options":[{"name":"join","type":1,"options":[]}]},` +
		`"member":{"user":{"id":"400000000000000009","username":"eve"},"roles":[],"permissions":"0"}}`)
}

// signWith returns a mutation that signs the request with ts over body,
// using sign.
func signWith(ts string, body []byte, sign func(ts string, body []byte) string) func(*http.Request) {
	return func(r *http.Request) {
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", sign(ts, body))
	}
}

// TestHTTPInteractions drives the real command set over HTTP interactions
// on both databases: PING, a good signature, every way a request can fail
// its signature or be hostile (each refused with a 4xx before anything
// changes), and a redelivery, handled once.
func TestHTTPInteractions(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		db, err := openDB(freshDSN(t, backend))
		if err != nil {
			t.Fatalf("storage.Open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		svc := ladder.NewService(db, nil)
		fake := newFake(t)
		h := startBotHTTP(t, fake, commands.New(commands.Deps{Service: svc, Chart: chart.HistoryPNG}), db)
		ctx := waitCtx(t)

		t.Run("ping", func(t *testing.T) {
			status, body, err := fake.Post(ctx, []byte(`{"type":1}`), nil)
			if err != nil || status != 200 || string(body) != `{"type":1}` {
				t.Errorf("Got(PING) = %d %q, %v, want 200 {\"type\":1}", status, body, err)
			}
		})
		t.Run("good signature", func(t *testing.T) {
			p, err := fake.Slash(at(alice), "queue join", nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Result(ctx)
			if err != nil {
				t.Fatalf("%v\nlog:\n%s", err, h.logs)
			}
			if r.Callback != fakediscord.CallbackDeferMessage || !r.Ephemeral() || !strings.Contains(r.Message.Content, "You joined queue") {
				t.Errorf("Got(/queue join over HTTP) = callback %d %q (ephemeral %v), want a private deferral edited to 'You joined queue'", r.Callback, r.Message.Content, r.Ephemeral())
			}
			if snap := p.Snapshot(); len(snap.Rejected) > 0 || len(snap.Deliveries) != 1 || snap.Deliveries[0].Status != 200 {
				t.Errorf("Got(deliveries, refused) = %+v, %v, want one 200 and nothing refused", snap.Deliveries, snap.Rejected)
			}
		})
		t.Run("redelivery handled once", func(t *testing.T) {
			p, err := fake.Slash(at(bob), "queue join", nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Result(ctx); err != nil {
				t.Fatal(err)
			}
			status, err := p.Redeliver(ctx)
			if err != nil || status != http.StatusConflict {
				t.Errorf("Got(redelivery status) = %d, %v, want 409", status, err)
			}
			if snap := p.Snapshot(); len(snap.Callbacks) != 1 || len(snap.Rejected) > 0 {
				t.Errorf("Got(callbacks, refused) = %d, %v, want 1 and none", len(snap.Callbacks), snap.Rejected)
			}
			handled := "user_id=" + bob.ID + " cmd=\"queue join\""
			// The interaction's log line follows its answer.
			h.logs.waitFor(ctx, handled)
			if n := strings.Count(h.logs.String(), handled); n != 1 {
				t.Errorf("Got(handled /queue join of bob) = %d times, want 1\nlog:\n%s", n, h.logs)
			}
		})

		_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
		now := strconv.FormatInt(time.Now().Unix(), 10)
		good := interactionBody("990000000000000001")
		flipped := func(r *http.Request) {
			sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
			sig[7] ^= 1
			r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		}
		deep := []byte(`{"type":2,"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`)
		hostile := []struct {
			name   string
			body   []byte
			mutate func(*http.Request)
			want   int
		}{
			{"signature of another body", good, signWith(now, interactionBody("990000000000000002"), fake.Sign), 401},
			{"one bit of the signature flipped", good, flipped, 401},
			{"signed by another key", good, signWith(now, good, func(ts string, b []byte) string {
				return hex.EncodeToString(ed25519.Sign(otherKey, append([]byte(ts), b...)))
			}), 401},
			{"no signature", good, func(r *http.Request) { r.Header.Del("X-Signature-Ed25519") }, 401},
			{"no timestamp", good, func(r *http.Request) { r.Header.Del("X-Signature-Timestamp") }, 401},
			{"signature not hex", good, func(r *http.Request) { r.Header.Set("X-Signature-Ed25519", strings.Repeat("zz", 64)) }, 401},
			{"signature too short", good, func(r *http.Request) { r.Header.Set("X-Signature-Ed25519", "00ff") }, 401},
			{"stale timestamp (6 min old)", good, signWith(strconv.FormatInt(time.Now().Add(-6*time.Minute).Unix(), 10), good, fake.Sign), 401},
			{"timestamp 6 min ahead", good, signWith(strconv.FormatInt(time.Now().Add(6*time.Minute).Unix(), 10), good, fake.Sign), 401},
			{"timestamp not a number", good, signWith("yesterday", good, fake.Sign), 401},
			{"huge body", append(good[:len(good)-1:len(good)-1], []byte(`,"pad":"`+strings.Repeat("x", 70<<10)+`"}`)...), nil, 413},
			{"not JSON", []byte("type=2&id=1"), nil, 400},
			{"duplicate key", bytes.Replace(good, []byte(`"type":2,`), []byte(`"type":1,"type":2,`), 1), nil, 400},
			{"duplicate nested key", bytes.Replace(good, []byte(`"username":"eve"`), []byte(`"username":"eve","id":"1"`), 1), nil, 400},
			{"type as a string", bytes.Replace(good, []byte(`"type":2,`), []byte(`"type":"2",`), 1), nil, 400},
			{"guild ID as an object", bytes.Replace(good, []byte(`"guild_id":"`+testGuild+`"`), []byte(`"guild_id":{}`), 1), nil, 400},
			{"data after the object", append(append([]byte{}, good...), "{}"...), nil, 400},
			{"an array", []byte(`[` + string(good) + `]`), nil, 400},
			{"no token", bytes.Replace(good, []byte(`"token":"tok990000000000000001",`), nil, 1), nil, 400},
			{"unknown type", bytes.Replace(good, []byte(`"type":2,`), []byte(`"type":9,`), 1), nil, 400},
			{"nested too deeply", deep, nil, 400},
		}
		before := deliveryState(t, db, fake)
		for _, tc := range hostile {
			t.Run(tc.name, func(t *testing.T) {
				status, body, err := fake.Post(ctx, tc.body, tc.mutate)
				if err != nil || status != tc.want {
					t.Errorf("Got(status) = %d %q, %v, want %d", status, body, err, tc.want)
				}
			})
		}
		if after := deliveryState(t, db, fake); after != before {
			t.Errorf("Got(state after hostile requests) = %s, want unchanged %s", after, before)
		}
		if strings.Contains(h.logs.String(), "400000000000000009") {
			t.Errorf("a hostile request reached the chain:\n%s", h.logs)
		}
	})
}

// deliveryState is what a refused request must not change: recorded
// deliveries, queue tickets and the fake's REST calls.
func deliveryState(t *testing.T, db *storage.DB, fake *fakediscord.Server) string {
	t.Helper()
	var deliveries, tickets int
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM interaction_deliveries`).Scan(&deliveries); err != nil {
		t.Fatal(err)
	}
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM queue_entries`).Scan(&tickets); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d deliveries, %d tickets, %d REST calls", deliveries, tickets, len(fake.Requests()))
}

// TestHTTPRedeliveryAcrossProcesses delivers one interaction to one
// process and again to another on the same database, as a load balancer
// may: the second answers 409 and handles nothing.
func TestHTTPRedeliveryAcrossProcesses(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		dsn := freshDSN(t, backend)
		fake := newFake(t)
		var hs []*harness
		for range 2 {
			db, err := openDB(dsn)
			if err != nil {
				t.Fatalf("storage.Open: %v", err)
			}
			t.Cleanup(func() { db.Close() })
			set := commands.New(commands.Deps{Service: ladder.NewService(db, nil), Chart: chart.HistoryPNG})
			hs = append(hs, startBotHTTP(t, fake, set, db))
		}
		// The second harness set the endpoint last; the first delivery
		// goes there, the redelivery to the first process.
		ctx := waitCtx(t)
		p, err := fake.Slash(at(alice), "queue join", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Result(ctx); err != nil {
			t.Fatalf("%v\nlog:\n%s", err, hs[1].logs)
		}
		hs[1].stop()
		first := hs[0].bot
		srv := httptest.NewServer(first.Interactions())
		defer srv.Close()
		fake.SetInteractionsEndpoint(srv.URL)
		status, err := p.Redeliver(ctx)
		if err != nil || status != http.StatusConflict {
			t.Errorf("Got(redelivery to another process) = %d, %v, want 409", status, err)
		}
		if strings.Contains(hs[0].logs.String(), `cmd="queue join"`) {
			t.Errorf("the other process handled the redelivery:\n%s", hs[0].logs)
		}
	})
}

// TestVerifySignature checks the signature rule alone with real keys,
// including the edges of the 5-minute window.
func TestVerifySignature(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"type":1}`)
	header := func(ts time.Time, b []byte) http.Header {
		s := strconv.FormatInt(ts.Unix(), 10)
		h := http.Header{}
		h.Set("X-Signature-Timestamp", s)
		h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(s), b...))))
		return h
	}
	cases := []struct {
		name string
		h    http.Header
		key  ed25519.PublicKey
		ok   bool
	}{
		{"now", header(now, body), pub, true},
		{"5 min old", header(now.Add(-5*time.Minute), body), pub, true},
		{"5 min 1 s old", header(now.Add(-5*time.Minute-time.Second), body), pub, false},
		{"5 min ahead", header(now.Add(5*time.Minute), body), pub, true},
		{"5 min 1 s ahead", header(now.Add(5*time.Minute+time.Second), body), pub, false},
		{"another body", header(now, []byte(`{"type":2}`)), pub, false},
		{"no key", header(now, body), nil, false},
		{"empty header", http.Header{}, pub, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := verifySignature(tc.key, tc.h, body, now)
			if (err == nil) != tc.ok {
				t.Errorf("Got(verifySignature) = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// FuzzParseInteraction checks that no body panics the strict reader, and
// that what it accepts is one object of a known type that can be answered.
func FuzzParseInteraction(f *testing.F) {
	f.Add(interactionBody("1"))
	f.Add([]byte(`{"type":1}`))
	f.Add([]byte(`{"type":2,"type":2}`))
	f.Add([]byte(`[[[[{}]]]]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ic, err := parseInteraction(body)
		if err != nil {
			return
		}
		if ic.Type < 1 || ic.Type > 5 || ic.Type != 1 && (ic.ID == "" || ic.Token == "") {
			t.Errorf("Got(accepted interaction) = type %d id %q token %q, want a known type with an ID and a token", ic.Type, ic.ID, ic.Token)
		}
	})
}
