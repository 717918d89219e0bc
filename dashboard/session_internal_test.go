package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

// TestSafeNext: the login's return address stays inside the dashboard.
func TestSafeNext(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/admin", "/admin"},
		{"/admin/guilds/1/queues/2v2", "/admin/guilds/1/queues/2v2"},
		{"/admin?x=1", "/admin?x=1"},
		{"", "/admin"},
		{"/", "/admin"},
		{"https://evil.example/admin", "/admin"},
		{"//evil.example", "/admin"},
		{"///evil.example", "/admin"},
		{"/\\evil.example", "/admin"},
		{"/admin\\@evil.example", "/admin"},
		{"/adminevil", "/admin"},
		{"/admin.evil.example", "/admin"},
		{"/admin/../guilds/1", "/admin"},
		{"/admin/..", "/admin"},
		{"/admin/\r\nSet-Cookie: x", "/admin"},
		{"javascript:alert(1)", "/admin"},
	}
	for _, c := range cases {
		if got := safeNext(c.in); got != c.want {
			t.Errorf("Got(safeNext(%q)) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSecureCookie: behind HTTPS (an https PUBLIC_URL) the session cookie
// is Secure and carries the __Host- prefix, which browsers accept only
// from a secure origin, for path / and without a Domain.
func TestSecureCookie(t *testing.T) {
	db, err := storage.Open(context.Background(), testdb.DSN(t, testdb.SQLite), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := New(Options{Config: Config{ClientID: "1", ClientSecret: "s", PublicURL: "https://ladder.example.org", APIBase: "https://discord.example"},
		Service: ladder.NewService(db, nil), Sessions: db})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	d.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://ladder.example.org/admin/login", nil))
	set := rec.Header().Get("Set-Cookie")
	for _, want := range []string{"__Host-ladderbot_admin=", "Secure", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("Got(Set-Cookie) = %q, want %s", set, want)
		}
	}
	if strings.Contains(set, "Domain=") {
		t.Errorf("Got(Set-Cookie) = %q: a Domain would share the cookie with other hosts", set)
	}
	loc := rec.Header().Get("Location")
	if !strings.HasPrefix(loc, "https://discord.example/oauth2/authorize?") || !strings.Contains(loc, "redirect_uri=https%3A%2F%2Fladder.example.org%2Fadmin%2Fcallback") {
		t.Errorf("Got(Location) = %q, want the authorize URL under DISCORD_API_BASE with the callback under PUBLIC_URL", loc)
	}
}
