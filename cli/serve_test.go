package cli

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServeCommand(t *testing.T) {
	addr := freeAddr(t) // serve binds it again; a race with another process is unlikely
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "ladder.db")
	var stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		cfg, err := LoadConfig([]string{"DATABASE_URL=" + dsn, "HTTP_ADDR=" + addr})
		if err != nil {
			done <- err
			return
		}
		log, _ := newLogger(cfg, &stderr)
		done <- runServe(ctx, invocation{name: "serve", cfg: cfg, log: log, stdout: io.Discard, stderr: &stderr}, nil)
	}()
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	var code int
	for range 100 {
		if code, _ = get("/healthz"); code == 200 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code != 200 {
		t.Fatalf("GET /healthz = %d, want 200; log:\n%s", code, stderr.String())
	}
	for _, tt := range []struct {
		path string
		code int
		body string
	}{
		{"/readyz", 200, `"database":"ok"`},
		{"/metrics", 200, `go_sql_open_connections{db_name="ladderbot"}`},
		{"/api/v1/guilds/1/leaderboard", 404, `"error"`},
		{"/guilds/1", 404, "Not found"},
	} {
		if code, body := get(tt.path); code != tt.code || !strings.Contains(body, tt.body) {
			t.Errorf("GET %s = %d %.200q, want %d with %q", tt.path, code, body, tt.code, tt.body)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("runServe after cancel = %v, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("runServe did not stop after cancel")
	}
	log := stderr.String()
	for _, want := range []string{"web: serving", "web: stopped", "path=/api/v1/guilds/1/leaderboard status=404"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	// Successful reads log at debug, below the default level.
	if strings.Contains(log, "path=/readyz") {
		t.Errorf("log has a line for a successful read at level info:\n%s", log)
	}
}
