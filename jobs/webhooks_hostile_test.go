package jobs_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
)

// rawReceiver is a TCP server that reads one request per connection and
// writes answer as it is, byte for byte: a receiver no HTTP library would
// let a test write.
func rawReceiver(t *testing.T, answer string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				req.Body.Close()
				_, _ = c.Write([]byte(answer))
			}()
		}
	}()
	return "http://" + l.Addr().String() + "/hook"
}

// TestWebhookHostileStatusLine has a receiver answer 500 with a reason
// phrase of a NUL and bytes that are not UTF-8. The attempt is a failure
// like any other: it is logged (with text a database stores and JSON
// carries) and retried later, and the delivery is not left claimed and
// unrecorded, to be posted again after every lease for ever.
func TestWebhookHostileStatusLine(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		url := rawReceiver(t, "HTTP/1.1 500 bad\x00\xff\xfe\xc3 reason\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		if _, err := p.svc.CreateWebhook(ctx, moderator, guild, url, []string{string(ladder.EventMatchFormed)}, testPolicy); err != nil {
			t.Fatalf("CreateWebhook() = %v", err)
		}
		formMatch(t, p.svc, users(1, 2), users(3, 4))
		if n := runOnce(t, deliverer(p, 0)); n != 1 {
			t.Fatalf("Got(attempts) = %d, want 1", n)
		}
		ws, err := p.svc.Webhooks(ctx, guild, 10)
		if err != nil || len(ws) != 1 || len(ws[0].Recent) != 1 {
			t.Fatalf("Got(Webhooks) = %+v, %v; want one webhook with one attempt", ws, err)
		}
		a := ws[0].Recent[0]
		if a.Status != http.StatusInternalServerError || !utf8.ValidString(a.Error) {
			t.Errorf("Got(attempt) = %d %q, want 500 and valid UTF-8", a.Status, a.Error)
		}
		for _, r := range a.Error {
			if r == 0 {
				t.Errorf("Got(attempt error) = %q, want no NUL", a.Error)
			}
		}
	})
}

// TestWebhookDeletedMidAttempt deletes a webhook while a delivery to it is
// in flight: the attempt ends quietly, with nothing left to record, and
// not as a database error (a foreign key the deleted delivery no longer
// satisfies) in the operator's log.
func TestWebhookDeletedMidAttempt(t *testing.T) {
	each(t, func(t *testing.T, b string) {
		ctx := context.Background()
		c := ladder.NewManualClock(time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
		p := newProc(t, testdb.DSN(t, b), c, nil)
		setupGuild(t, p.svc, 0)
		arrived, release := make(chan struct{}), make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-release
		}))
		t.Cleanup(srv.Close)
		w, err := p.svc.CreateWebhook(ctx, moderator, guild, srv.URL+"/hook", []string{string(ladder.EventMatchFormed)}, testPolicy)
		if err != nil {
			t.Fatalf("CreateWebhook() = %v", err)
		}
		formMatch(t, p.svc, users(1, 2), users(3, 4))
		done := make(chan error, 1)
		go func() {
			_, err := deliverer(p, 0).RunOnce(ctx)
			done <- err
		}()
		<-arrived
		if err := p.svc.DeleteWebhook(ctx, moderator, guild, w.ID); err != nil {
			t.Fatalf("DeleteWebhook() = %v", err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Errorf("Got(RunOnce with the webhook deleted mid-attempt) = %v, want nil", err)
		}
		if n := runOnce(t, deliverer(p, 0)); n != 0 {
			t.Errorf("Got(attempts after the delete) = %d, want 0", n)
		}
	})
}
