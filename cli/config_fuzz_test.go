package cli

import (
	"strings"
	"testing"
)

// FuzzLoadConfig: any environment parses into a valid Config or a
// "config: " error naming a variable, never a panic; an accepted Config
// satisfies what the rest of the program relies on; and no error ever
// shows a password put in DATABASE_URL before its host, however malformed
// the rest is.
func FuzzLoadConfig(f *testing.F) {
	f.Add("sqlite:ladder.db", "0", "1", "127.0.0.1:8080", "info", "text", "https://discord.com", "", "tok")
	f.Add("postgres://u@db:5432/ladder", "1", "2", ":0", "debug", "json", "http://127.0.0.1:1", "123", "")
	f.Add("postgres:/u@/x", "-1", "0", "localhost", "loud", "xml", "ftp://x", "12a", "a b")
	f.Add("postgresql://u@[::1", "99999999999999999999", "2", "[::1]:99999", "", "", "", "", "\n")
	f.Fuzz(func(t *testing.T, dsn, shardID, shardCount, addr, level, format, api, dev, token string) {
		environ := []string{
			"DATABASE_URL=" + dsn, "SHARD_ID=" + shardID, "SHARD_COUNT=" + shardCount, "HTTP_ADDR=" + addr,
			"LOG_LEVEL=" + level, "LOG_FORMAT=" + format, "DISCORD_API_BASE=" + api, "DEV_GUILD_ID=" + dev, "DISCORD_TOKEN=" + token,
		}
		// The same environment with a password in DATABASE_URL, written
		// around the fuzzed text as an operator might mistype it.
		if prefix, host, ok := strings.Cut(dsn, "@"); ok && !strings.Contains(dsn, "s3cret") {
			env := append([]string{"DATABASE_URL=" + prefix + ":s3cret@" + host}, environ[1:]...)
			if _, err := LoadConfig(env); err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("LoadConfig error %q shows the database password", err)
			}
		}
		cfg, err := LoadConfig(environ)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "config: ") {
				t.Fatalf("LoadConfig error %q lacks the config: prefix", msg)
			}
			return
		}
		if cfg.ShardCount < 1 || cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount {
			t.Fatalf("accepted shard %d of %d", cfg.ShardID, cfg.ShardCount)
		}
		if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
			t.Fatalf("accepted LOG_FORMAT %q", cfg.LogFormat)
		}
		if _, err := newLogger(cfg, nil); err != nil {
			t.Fatalf("accepted LOG_LEVEL %q that newLogger refuses: %v", cfg.LogLevel, err)
		}
		if !strings.HasPrefix(cfg.DatabaseURL, "sqlite:") && !strings.HasPrefix(cfg.DatabaseURL, "postgres") {
			t.Fatalf("accepted DATABASE_URL %q", cfg.DatabaseURL)
		}
	})
}
