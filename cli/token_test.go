package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

func TestTokenCommand(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "ladder.db")
	env := []string{"DATABASE_URL=" + dsn}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"token"}, args...), env, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	const guild = "100000000000000001"

	code, secret, stderr := run("create", "--guild", guild, "--name", "game-server")
	secret = strings.TrimSpace(secret)
	if code != 0 || !strings.HasPrefix(secret, "lbt_") || !strings.Contains(stderr, "shown once") {
		t.Fatalf("token create = %d %q %q, want 0, a secret on stdout and a note on stderr", code, secret, stderr)
	}
	// The secret authenticates, and only its hash is stored.
	db, err := storage.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := ladder.NewService(db, nil)
	if _, err := svc.AuthenticateToken(context.Background(), guild, secret); err != nil {
		t.Errorf("AuthenticateToken(created secret) = %v, want nil", err)
	}
	toks, err := svc.ListTokens(context.Background(), guild)
	if err != nil || len(toks) != 1 || string(toks[0].Hash) == secret || !bytes.Equal(toks[0].Hash, db.HashToken(secret)) {
		t.Errorf("ListTokens = %+v, %v; want one token stored as its hash", toks, err)
	}
	db.Close()

	if code, _, stderr := run("create", "--guild", guild, "--name", "game-server"); code != 1 || !strings.Contains(stderr, "game-server") {
		t.Errorf("token create with a live name = %d %q, want 1 naming the conflict", code, stderr)
	}
	if code, out, _ := run("create", "--guild", guild); code != 0 || !strings.HasPrefix(out, "lbt_") {
		t.Errorf("token create without --name = %d %q, want a default name", code, out)
	}
	code, out, _ := run("list", "--guild", guild)
	if code != 0 || !strings.Contains(out, "NAME") || !strings.Contains(out, "game-server") || strings.Contains(out, secret) {
		t.Errorf("token list = %d %q, want the names and never the secret", code, out)
	}
	if code, out, _ := run("revoke", "--guild", guild, "game-server"); code != 0 || !strings.Contains(out, "Revoked") {
		t.Errorf("token revoke = %d %q", code, out)
	}
	if code, out, _ := run("revoke", "--guild", guild, "game-server"); code != 0 || !strings.Contains(out, "already revoked") {
		t.Errorf("token revoke again = %d %q, want already revoked", code, out)
	}
	code, out, _ = run("list", "--guild", guild, "--json")
	var rows []tokenJSON
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("token list --json = %d %q (%v), want two rows", code, out, err)
	}
	for _, r := range rows {
		if (r.Name == "game-server") != (r.RevokedAt != nil) || r.CreatedBy != "cli" {
			t.Errorf("token list --json row %+v: only game-server is revoked, all by cli", r)
		}
	}
	db, err = storage.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := ladder.NewService(db, nil).AuthenticateToken(context.Background(), guild, secret); ladder.ErrorCode(err) != ladder.CodeForbidden {
		t.Errorf("AuthenticateToken(revoked) = %v, want forbidden", err)
	}

	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no action", nil, 2, "Usage: ladderbot token create"},
		{"unknown action", []string{"rotate"}, 2, `unknown action "rotate"`},
		{"create without guild", []string{"create"}, 2, "--guild is required"},
		// A malformed guild is a flag error, refused before the database opens.
		{"create bad guild", []string{"create", "--guild", "my-server"}, 2, "not a Discord ID"},
		{"revoke without name", []string{"revoke", "--guild", guild}, 2, "NAME"},
		{"revoke unknown", []string{"revoke", "--guild", guild, "nope"}, 1, `no API token called "nope"`},
		{"list extra argument", []string{"list", "--guild", guild, "x"}, 2, "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("token %q = %d %q, want %d with %q", tt.args, code, stderr, tt.wantCode, tt.wantErr)
			}
			if code != 0 && !strings.HasPrefix(stderr, "ladderbot token: ") {
				t.Errorf("token %q stderr = %q, want it to start with \"ladderbot token: \"", tt.args, stderr)
			}
		})
	}
	// Asked-for help goes to stdout, so it pages and greps.
	if code, out, _ := run("-h"); code != 0 || !strings.Contains(out, "token revoke") || !strings.Contains(out, "DATABASE_URL") {
		t.Errorf("token -h = %d %q, want 0 and the usage with its environment on stdout", code, out)
	}
}
