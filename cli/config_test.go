package cli

import (
	"strings"
	"testing"
	"time"
)

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := LoadConfig(nil)
	if err != nil {
		t.Fatalf("LoadConfig(nil) error = %v, want nil", err)
	}
	want := Config{
		DatabaseURL:           "sqlite:ladder.db",
		DiscordAPIBase:        "https://discord.com",
		ShowdownReplayBase:    "https://replay.pokemonshowdown.com",
		HTTPAddr:              "127.0.0.1:8080",
		ShardCount:            1,
		LogLevel:              "info",
		LogFormat:             "text",
		APIRateLimit:          20,
		APIRateBurst:          40,
		RoleSyncInterval:      time.Minute,
		RoleReconcileInterval: 24 * time.Hour,
		WebhookTimeout:        10 * time.Second,
		WebhookLease:          2 * time.Minute,
		OutgoingPorts:         "443,8443",
		DiscordGatewayTimeout: time.Minute,
	}
	if cfg != want {
		t.Errorf("LoadConfig(nil) = %+v, want %+v", cfg, want)
	}
}

func TestLoadConfigGood(t *testing.T) {
	env := []string{
		"DATABASE_URL=postgres://bot:secret@db:5432/ladder?sslmode=disable",
		"DISCORD_TOKEN=abc.def.ghi",
		"DISCORD_API_BASE=http://127.0.0.1:9999",
		"DEV_GUILD_ID=123456789012345678",
		"HTTP_ADDR=:8081",
		"SHARD_ID=1",
		"SHARD_COUNT=2",
		"LOG_LEVEL=debug",
		"LOG_FORMAT=json",
	}
	cfg, err := LoadConfig(env)
	if err != nil {
		t.Fatalf("LoadConfig() error = %v, want nil", err)
	}
	if cfg.ShardID != 1 || cfg.ShardCount != 2 || cfg.LogFormat != "json" || cfg.HTTPAddr != ":8081" {
		t.Errorf("LoadConfig() = %+v, want the values given", cfg)
	}
}

func TestLoadConfigBad(t *testing.T) {
	tests := []struct {
		name    string
		env     string
		wantVar string
	}{
		{"loud log level", "LOG_LEVEL=loud", "LOG_LEVEL"},
		{"xml log format", "LOG_FORMAT=xml", "LOG_FORMAT"},
		{"mysql url", "DATABASE_URL=mysql://x", "DATABASE_URL"},
		{"sqlite without path", "DATABASE_URL=sqlite:", "DATABASE_URL"},
		{"postgres without host", "DATABASE_URL=postgres:///db", "DATABASE_URL"},
		{"postgres malformed", "DATABASE_URL=postgres://a b:%zz@host/db", "DATABASE_URL"},
		{"api base without scheme", "DISCORD_API_BASE=discord.com", "DISCORD_API_BASE"},
		{"guild not numeric", "DEV_GUILD_ID=my-guild", "DEV_GUILD_ID"},
		{"token with space", "DISCORD_TOKEN=Bot abc", "DISCORD_TOKEN"},
		{"addr without port", "HTTP_ADDR=localhost", "HTTP_ADDR"},
		{"addr port too big", "HTTP_ADDR=:70000", "HTTP_ADDR"},
		{"shard id not a number", "SHARD_ID=one", "SHARD_ID"},
		{"shard count zero", "SHARD_COUNT=0", "SHARD_COUNT"},
		{"shard id too big", "SHARD_ID=1", "SHARD_ID"},
		{"shard id negative", "SHARD_ID=-1", "SHARD_ID"},
		{"rate limit negative", "API_RATE_LIMIT=-1", "API_RATE_LIMIT"},
		{"rate limit NaN", "API_RATE_LIMIT=NaN", "API_RATE_LIMIT"},
		{"rate limit not a number", "API_RATE_LIMIT=fast", "API_RATE_LIMIT"},
		{"rate burst zero", "API_RATE_BURST=0", "API_RATE_BURST"},
		{"role sync too often", "ROLE_SYNC_INTERVAL=10ms", "ROLE_SYNC_INTERVAL"},
		{"role sync not a duration", "ROLE_SYNC_INTERVAL=often", "ROLE_SYNC_INTERVAL"},
		{"reconcile too often", "ROLE_RECONCILE_INTERVAL=500ms", "ROLE_RECONCILE_INTERVAL"},
		{"reconcile too rarely", "ROLE_RECONCILE_INTERVAL=169h", "ROLE_RECONCILE_INTERVAL"},
		{"reconcile not a duration", "ROLE_RECONCILE_INTERVAL=daily", "ROLE_RECONCILE_INTERVAL"},
		{"webhook timeout under a second", "WEBHOOK_TIMEOUT=500ms", "WEBHOOK_TIMEOUT"},
		{"gateway timeout under a second", "DISCORD_GATEWAY_TIMEOUT=100ms", "DISCORD_GATEWAY_TIMEOUT"},
		{"gateway timeout over ten minutes", "DISCORD_GATEWAY_TIMEOUT=11m", "DISCORD_GATEWAY_TIMEOUT"},
		{"gateway timeout not a duration", "DISCORD_GATEWAY_TIMEOUT=soon", "DISCORD_GATEWAY_TIMEOUT"},
		{"webhook lease not above the timeout", "WEBHOOK_LEASE=10s", "WEBHOOK_LEASE"},
		{"webhook lease over an hour", "WEBHOOK_LEASE=2h", "WEBHOOK_LEASE"},
		{"outgoing ports not numbers", "OUTGOING_PORTS=443,https", "OUTGOING_PORTS"},
		{"outgoing port zero", "OUTGOING_PORTS=0", "OUTGOING_PORTS"},
		{"public url without scheme", "PUBLIC_URL=ladder.example.org", "PUBLIC_URL"},
		{"public url with a path", "PUBLIC_URL=https://ladder.example.org/ladder", "PUBLIC_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadConfig([]string{tt.env})
			if err == nil {
				t.Fatalf("LoadConfig(%q) error = nil, want an error naming %s", tt.env, tt.wantVar)
			}
			if !strings.Contains(err.Error(), tt.wantVar) {
				t.Errorf("LoadConfig(%q) error = %q, want it to name %s", tt.env, err, tt.wantVar)
			}
		})
	}
}

// TestRateLimitConfig checks API_RATE_LIMIT and API_RATE_BURST reach the
// web server's options, with 0 turning the limit off.
func TestRateLimitConfig(t *testing.T) {
	tests := []struct {
		env       []string
		wantRate  float64
		wantBurst int
	}{
		{nil, 20, 40},
		{[]string{"API_RATE_LIMIT=5", "API_RATE_BURST=7"}, 5, 7},
		{[]string{"API_RATE_LIMIT=0"}, -1, 40},
		{[]string{"API_RATE_LIMIT=0", "API_RATE_BURST=0"}, -1, 0},
	}
	for _, tt := range tests {
		cfg, err := LoadConfig(tt.env)
		if err != nil {
			t.Fatalf("LoadConfig(%q) error = %v", tt.env, err)
		}
		if got := cfg.webRate(); got != tt.wantRate || cfg.APIRateBurst != tt.wantBurst {
			t.Errorf("Got(rate, burst of %q) = %v, %d, want %v, %d", tt.env, got, cfg.APIRateBurst, tt.wantRate, tt.wantBurst)
		}
	}
}

func TestLoadConfigRedactsPassword(t *testing.T) {
	_, err := LoadConfig([]string{"DATABASE_URL=mysql://bot:hunter2@db/x"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("LoadConfig() error = %v, want an error without the password", err)
	}
}

// TestLoadConfigTransport checks DISCORD_TRANSPORT and DISCORD_PUBLIC_KEY:
// what http needs, and each mistake named in the message.
func TestLoadConfigTransport(t *testing.T) {
	key := strings.Repeat("ab", 32)
	tests := []struct {
		name    string
		env     []string
		want    string // the transport, when valid
		wantErr string // a substring of the error, when not
	}{
		{"default is the gateway", []string{"DISCORD_TOKEN=t"}, "gateway", ""},
		{"gateway with a key set", []string{"DISCORD_TOKEN=t", "DISCORD_PUBLIC_KEY=" + key}, "gateway", ""},
		{"http", []string{"DISCORD_TRANSPORT=http", "DISCORD_TOKEN=t", "DISCORD_PUBLIC_KEY=" + key}, "http", ""},
		{"unknown transport", []string{"DISCORD_TRANSPORT=webhook"}, "", "DISCORD_TRANSPORT=\"webhook\": want gateway or http"},
		{"http without token", []string{"DISCORD_TRANSPORT=http", "DISCORD_PUBLIC_KEY=" + key}, "", "needs DISCORD_TOKEN"},
		{"http without key", []string{"DISCORD_TRANSPORT=http", "DISCORD_TOKEN=t"}, "", "needs DISCORD_PUBLIC_KEY"},
		{"key not hex", []string{"DISCORD_PUBLIC_KEY=" + strings.Repeat("zz", 32)}, "", "DISCORD_PUBLIC_KEY: want the 64 hex digits"},
		{"key too short", []string{"DISCORD_PUBLIC_KEY=abcd"}, "", "DISCORD_PUBLIC_KEY: want the 64 hex digits"},
		{"http with shards", []string{"DISCORD_TRANSPORT=http", "DISCORD_TOKEN=t", "DISCORD_PUBLIC_KEY=" + key, "SHARD_COUNT=2"}, "", "SHARD_COUNT=2: shards are for the gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadConfig(tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Got(LoadConfig(%q) error) = %v, want one containing %q", tt.env, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Got(LoadConfig(%q) error) = %v, want nil", tt.env, err)
			}
			if got := cfg.Transport(); got != tt.want {
				t.Errorf("Got(Transport()) = %q, want %q", got, tt.want)
			}
			if tt.want == "http" && len(cfg.PublicKey()) != 32 {
				t.Errorf("Got(PublicKey()) = %x, want the 32 bytes of %s", cfg.PublicKey(), key)
			}
		})
	}
}

// TestRoleIntervals checks the role job intervals reach the configuration
// at both ends of their ranges.
func TestRoleIntervals(t *testing.T) {
	tests := []struct {
		env                 []string
		wantSync, wantRecon time.Duration
	}{
		{nil, time.Minute, 24 * time.Hour},
		{[]string{"ROLE_SYNC_INTERVAL=1s", "ROLE_RECONCILE_INTERVAL=1s"}, time.Second, time.Second},
		{[]string{"ROLE_SYNC_INTERVAL=1h", "ROLE_RECONCILE_INTERVAL=168h"}, time.Hour, 168 * time.Hour},
		{[]string{"ROLE_RECONCILE_INTERVAL=6h"}, time.Minute, 6 * time.Hour},
	}
	for _, tt := range tests {
		cfg, err := LoadConfig(tt.env)
		if err != nil {
			t.Fatalf("LoadConfig(%q) error = %v", tt.env, err)
		}
		if cfg.RoleSyncInterval != tt.wantSync || cfg.RoleReconcileInterval != tt.wantRecon {
			t.Errorf("LoadConfig(%q) = sync %s, reconcile %s, want %s, %s", tt.env, cfg.RoleSyncInterval, cfg.RoleReconcileInterval, tt.wantSync, tt.wantRecon)
		}
	}
}

// TestLoadConfigUnparsable gives variables values of the wrong kind: the
// error names the variable and its value and says what it wants, in words,
// not in Go's types and strconv's messages.
func TestLoadConfigUnparsable(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"API_RATE_LIMIT=fast", `API_RATE_LIMIT="fast": want a number`},
		{"API_RATE_BURST=1.5", `API_RATE_BURST="1.5": want a whole number`},
		{"SHARD_ID=one", `SHARD_ID="one": want a whole number`},
		{"ROLE_SYNC_INTERVAL=often", `ROLE_SYNC_INTERVAL="often": want a duration such as 30s`},
		{"WEBHOOK_ALLOW_HTTP=yes", `WEBHOOK_ALLOW_HTTP="yes": want 1 or 0`},
	} {
		_, err := LoadConfig([]string{c.env})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "strconv") {
			t.Errorf("LoadConfig(%q) error = %v, want %q and no strconv", c.env, err, c.want)
		}
	}
}
