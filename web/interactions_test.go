package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMountInteractions checks that POST /interactions reaches the bot's
// handler only when one is mounted, and only for POST.
func TestMountInteractions(t *testing.T) {
	bot := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	cases := []struct {
		name   string
		mount  http.Handler
		method string
		want   int
	}{
		{"mounted, POST", bot, http.MethodPost, http.StatusTeapot},
		{"mounted, GET", bot, http.MethodGet, http.StatusMethodNotAllowed},
		{"not mounted, POST", nil, http.MethodPost, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			s.MountInteractions(tc.mount)
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, httptest.NewRequest(tc.method, "/interactions", strings.NewReader(`{"type":1}`)))
			if w.Code != tc.want {
				t.Errorf("Got(%s /interactions) = %d, want %d", tc.method, w.Code, tc.want)
			}
		})
	}
}
