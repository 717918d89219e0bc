package e2e

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// holdingReceiver is a webhook endpoint that holds every request open
// while hold is set (until the sender dies or the test ends) and answers
// 200 otherwise, reporting each request's event ID, signature check and
// answer on got.
type holdingReceiver struct {
	*httptest.Server
	mu      sync.Mutex
	hold    bool
	secret  string
	release chan struct{}
	got     chan receipt
}

type receipt struct {
	eventID  string
	body     string
	signedOK bool
	answered int
}

func newHoldingReceiver(t *testing.T) *holdingReceiver {
	r := &holdingReceiver{hold: true, release: make(chan struct{}), got: make(chan receipt, 16)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var env struct{ ID string }
		_ = json.Unmarshal(body, &env)
		r.mu.Lock()
		hold, secret := r.hold, r.secret
		r.mu.Unlock()
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(body)
		rc := receipt{eventID: env.ID, body: string(body),
			signedOK: req.Header.Get("X-Ladderbot-Signature") == "sha256="+hex.EncodeToString(m.Sum(nil))}
		if hold {
			r.got <- rc
			select {
			case <-req.Context().Done():
			case <-r.release:
			}
			return
		}
		rc.answered = http.StatusOK
		r.got <- rc
	}))
	t.Cleanup(func() { close(r.release); r.Close() })
	return r
}

// TestWebhookKill commits an event, lets a `ladderbot run` process claim
// it and start posting, and kills that process with SIGKILL while the
// receiver holds the request: nothing records the attempt. A second
// process delivers the same event, byte for byte and signed, once the dead
// one's claim lapses, and the receiver acknowledges it once.
func TestWebhookKill(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, backend string) {
		ctx := testCtx(t, 5*time.Minute)
		dsn := freshDSN(t, backend)
		fake := startFake(t)
		db, err := storage.Open(ctx, dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		svc := ladder.NewService(db, nil)
		const guild = "100000000000000077"
		r := newHoldingReceiver(t)
		hook, err := svc.CreateWebhook(ctx, ladder.System, guild, r.URL+"/hook", []string{"match.confirmed"}, ladder.URLPolicy{AllowHTTP: true})
		if err != nil {
			t.Fatalf("CreateWebhook() = %v", err)
		}
		r.mu.Lock()
		r.secret = hook.Secret
		r.mu.Unlock()
		res, err := svc.RecordResult(ctx, ladder.ResultInput{GuildID: guild,
			Team1: []string{"900000000000000001", "900000000000000002"}, Team2: []string{"900000000000000003", "900000000000000004"}, Winner: 1})
		if err != nil {
			t.Fatalf("RecordResult() = %v", err)
		}

		a := newProc(t, "sender", dsn, fake, 0, 1)
		// A short lease (WEBHOOK_LEASE) keeps the wait for the dead claim
		// to seconds; production keeps the default two minutes.
		a.env = append(a.env, "WEBHOOK_ALLOW_HTTP=1", "WEBHOOK_TIMEOUT=2s", "WEBHOOK_LEASE=5s")
		a.start()
		var first receipt
		select {
		case first = <-r.got:
		case <-ctx.Done():
			t.Fatalf("no delivery from the first process:\n%s", a.tail(30))
		}
		a.kill()
		r.mu.Lock()
		r.hold = false
		r.mu.Unlock()
		killedAt := time.Now()

		b := newProc(t, "survivor", dsn, fake, 0, 1)
		b.env = append(b.env, "WEBHOOK_ALLOW_HTTP=1", "WEBHOOK_TIMEOUT=2s", "WEBHOOK_LEASE=5s")
		b.start()
		var second receipt
		select {
		case second = <-r.got:
		case <-ctx.Done():
			t.Fatalf("no delivery from the second process:\n%s", b.tail(30))
		}
		t.Logf("redelivered %v after the kill (the dead claim's lease is 5 s)", time.Since(killedAt).Round(time.Second))
		if !first.signedOK || !second.signedOK {
			t.Errorf("Got(signatures valid) = %v, %v; want both", first.signedOK, second.signedOK)
		}
		if second.eventID != first.eventID || second.body != first.body || second.answered != 200 {
			t.Errorf("Got(redelivery) = %s answered %d, want the same event %s, same bytes, answered 200", second.eventID, second.answered, first.eventID)
		}
		var data struct {
			Data struct {
				MatchID int64 `json:"match_id"`
			}
		}
		if json.Unmarshal([]byte(second.body), &data) != nil || data.Data.MatchID != res.Match.ID {
			t.Errorf("Got(match_id of the event) = %d, want %d", data.Data.MatchID, res.Match.ID)
		}
		// The receiver reports a request when it arrives, before the sender
		// has read the answer: stopping the survivor now could cut that
		// attempt off ("terminated signal received", status 0). Wait until
		// its attempt is logged, then stop it.
		logged := func() bool {
			ws, err := svc.Webhooks(ctx, guild, 10)
			return err == nil && len(ws) == 1 && len(ws[0].Recent) > 0
		}
		for !logged() && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
		b.stop()
		select {
		case extra := <-r.got:
			t.Errorf("Got(another delivery) = %+v, want none after the 200", extra)
		default:
		}
		ws, err := svc.Webhooks(ctx, guild, 10)
		if err != nil || len(ws) != 1 || len(ws[0].Recent) != 1 || ws[0].Recent[0].Status != 200 {
			t.Errorf("Got(delivery log) = %+v, %v; want the one 200 attempt of the survivor", ws, err)
		}
	})
}
