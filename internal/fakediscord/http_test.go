package fakediscord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPDelivery checks the fake's Discord rules for HTTP interactions:
// a signature the application's public key verifies, the response as the
// one callback, a failed delivery when no response comes within 3 s, and
// a second callback refused.
func TestHTTPDelivery(t *testing.T) {
	s := New()
	t.Cleanup(s.Close)
	register(t, s)
	key, err := hex.DecodeString(s.PublicKeyHex())
	if err != nil || len(key) != ed25519.PublicKeySize {
		t.Fatalf("Got(PublicKeyHex()) = %q, want 64 hex digits", s.PublicKeyHex())
	}
	call := Call{GuildID: "100000000000000001", ChannelID: "200000000000000001", User: User{ID: "300000000000000001"}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	cases := []struct {
		name  string
		reply func(w http.ResponseWriter, r *http.Request)
		check func(t *testing.T, p *Pending)
	}{
		{"signed, answered in the response", func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			msg := append([]byte(r.Header.Get("X-Signature-Timestamp")), body...)
			sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
			if !ed25519.Verify(key, msg, sig) {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":4,"data":{"content":"pong"}}`)
		}, func(t *testing.T, p *Pending) {
			r, err := p.Result(ctx)
			if err != nil || r.Callback != CallbackMessage || r.Message.Content != "pong" {
				t.Errorf("Got(result) = callback %d %q, %v, want 4 \"pong\"", r.Callback, r.Message.Content, err)
			}
		}},
		{"no answer within 3 s", func(w http.ResponseWriter, r *http.Request) {
			io.ReadAll(r.Body) // then the server notices the client leaving
			<-r.Context().Done()
		}, func(t *testing.T, p *Pending) {
			if _, err := p.Result(ctx); !errors.Is(err, ErrDeliveryFailed) {
				t.Errorf("Got(result of an unanswered POST) = %v, want ErrDeliveryFailed", err)
			}
			if d := p.Snapshot().Deliveries; len(d) != 1 || d[0].Status != 0 {
				t.Errorf("Got(deliveries) = %+v, want one without a response", d)
			}
		}},
		{"a second callback refused", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"type":5}`)
		}, func(t *testing.T, p *Pending) {
			if _, err := p.Ack(ctx); err != nil {
				t.Fatal(err)
			}
			ix := p.Snapshot()
			resp, err := http.Post(s.URL()+"/api/v10/interactions/"+ix.ID+"/"+ix.Token+"/callback", "application/json", strings.NewReader(`{"type":4,"data":{"content":"again"}}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 400 || len(p.Snapshot().Rejected) != 1 {
				t.Errorf("Got(second callback) = %d, refused %v, want 400 and one refusal", resp.StatusCode, p.Snapshot().Rejected)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(tc.reply))
			defer srv.Close()
			s.SetInteractionsEndpoint(srv.URL)
			p, err := s.Slash(call, "ping", nil)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
		})
	}
}

// register registers a /ping command globally, as a bot's bulk overwrite.
func register(t *testing.T, s *Server) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, s.URL()+"/api/v10/applications/"+s.AppID+"/commands", strings.NewReader(`[{"name":"ping","description":"answers","type":1}]`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("Got(register) = %v, %v, want 200", resp, err)
	}
	resp.Body.Close()
}
