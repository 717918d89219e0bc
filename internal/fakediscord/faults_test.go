package fakediscord

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRESTFaults checks SetRESTFaults: about the share asked of REST calls
// answer 429 (with Discord's body and Retry-After) or 500, the same
// calls for the same seed, and interaction callbacks are never touched.
func TestRESTFaults(t *testing.T) {
	s := New()
	s.Token = "tok"
	t.Cleanup(s.Close)
	run := func() (statuses []int) {
		for range 400 {
			req, _ := http.NewRequest(http.MethodGet, s.URL()+"/api/v10/channels/200000000000000001/messages", nil)
			req.Header.Set("Authorization", "Bot tok")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode == http.StatusTooManyRequests {
				var body struct {
					RetryAfter float64 `json:"retry_after"`
					Global     bool    `json:"global"`
				}
				if json.NewDecoder(resp.Body).Decode(&body) != nil || body.RetryAfter != 0.25 || body.Global || resp.Header.Get("Retry-After") != "1" {
					t.Errorf("Got(429) = %+v, Retry-After %q, want retry_after 0.25, not global, Retry-After 1", body, resp.Header.Get("Retry-After"))
				}
			}
			resp.Body.Close()
			statuses = append(statuses, resp.StatusCode)
		}
		return statuses
	}
	s.SetRESTFaults(0.1, 0.05, 250*time.Millisecond, 7)
	first := run()
	n429, n500 := s.RESTFaults()
	if n429 < 20 || n429 > 60 || n500 < 5 || n500 > 40 {
		t.Errorf("Got(429s, 500s of 400) = %d, %d, want about 40 and 20", n429, n500)
	}
	s.SetRESTFaults(0.1, 0.05, 250*time.Millisecond, 7)
	second := run()
	for i := range first {
		if first[i] != second[i] {
			t.Fatalf("Got(call %d with the same seed) = %d, then %d, want the same", i, first[i], second[i])
		}
	}
	s.SetRESTFaults(1, 0, time.Second, 1)
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/api/v10/interactions/1/tok/callback", strings.NewReader(`{"type":4}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusInternalServerError {
		t.Errorf("Got(callback under faults) = %d, want it spared", resp.StatusCode)
	}
}
