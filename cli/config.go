package cli

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/ladderbot/ladderbot/ladder"
)

// Config is everything ladderbot reads from the environment (docs/spec.md 8). It is
// read once in main and passed on as plain values; no package keeps a copy.
type Config struct {
	DatabaseURL    string `env:"DATABASE_URL" envDefault:"sqlite:ladder.db" help:"the database: sqlite:PATH (embedded, a file PATH) or postgres://…"`
	DiscordToken   string `env:"DISCORD_TOKEN" help:"the bot token; without it run serves the web page, API and jobs only"`
	DiscordAPIBase string `env:"DISCORD_API_BASE" envDefault:"https://discord.com" help:"where REST and gateway discovery go (proxies, a fake Discord in tests)"`
	// ShowdownReplayBase is the only host /report replay fetches from.
	ShowdownReplayBase string `env:"SHOWDOWN_REPLAY_BASE" envDefault:"https://replay.pokemonshowdown.com" help:"the Pokémon Showdown replay server /report replay reads from"`
	// DiscordClientID, DiscordClientSecret and PublicURL turn the
	// moderators' web dashboard on (docs/operating.md); without all three
	// /admin says it is off.
	DiscordClientID     string `env:"DISCORD_CLIENT_ID" help:"the Discord application's OAuth2 client ID, for the moderators' dashboard at /admin"`
	DiscordClientSecret string `env:"DISCORD_CLIENT_SECRET" help:"the Discord application's OAuth2 client secret, for the dashboard"`
	PublicURL           string `env:"PUBLIC_URL" help:"where browsers reach this server, e.g. https://ladder.example.org; the dashboard's login returns to PUBLIC_URL/admin/callback"`
	DevGuildID          string `env:"DEV_GUILD_ID" help:"register the slash commands to this guild only (instant) instead of globally"`
	HTTPAddr            string `env:"HTTP_ADDR" envDefault:"127.0.0.1:8080" help:"listen address of the web page and API"`
	ShardID             int    `env:"SHARD_ID" envDefault:"0" help:"this process's Discord shard"`
	ShardCount          int    `env:"SHARD_COUNT" envDefault:"1" help:"the number of Discord shards"`
	LogLevel            string `env:"LOG_LEVEL" envDefault:"info" help:"debug, info, warn or error"`
	LogFormat           string `env:"LOG_FORMAT" envDefault:"text" help:"text, or json for production"`
	// APIRateLimit is the steady requests per second of one API token and
	// APIRateBurst its burst (docs/spec.md 8); API_RATE_LIMIT=0 turns the limit off.
	APIRateLimit float64 `env:"API_RATE_LIMIT" envDefault:"20" help:"requests per second per API token; 0 turns the limit off"`
	APIRateBurst int     `env:"API_RATE_BURST" envDefault:"40" help:"burst per API token"`
	// DiscordTransport "" means gateway; see Transport.
	DiscordTransport string `env:"DISCORD_TRANSPORT" help:"gateway (the default), or http: take interactions only at POST /interactions, no gateway"`
	DiscordPublicKey string `env:"DISCORD_PUBLIC_KEY" help:"the application's Ed25519 public key in hex; required with DISCORD_TRANSPORT=http"`
	// DiscordGatewayTimeout bounds a gateway connection from its dial to
	// the READY or RESUMED that opens it (the bot's gateway watchdog).
	DiscordGatewayTimeout time.Duration `env:"DISCORD_GATEWAY_TIMEOUT" envDefault:"60s" help:"how long a gateway connection may wait for Discord's Hello and READY (or RESUMED) before it is cut and dialed again (1s to 10m)"`
	// WebhookAllowHTTP lets outgoing webhooks use http:// to loopback
	// addresses, for tests with a local receiver.
	WebhookAllowHTTP bool `env:"WEBHOOK_ALLOW_HTTP" help:"1 lets outgoing webhooks use plain http:// to loopback addresses (tests only)"`
	// OutgoingPorts are the ports webhooks and replay fetches may use.
	OutgoingPorts string `env:"OUTGOING_PORTS" envDefault:"443,8443" help:"comma-separated ports outgoing webhooks and replay fetches may connect to"`
	// WebhookTimeout bounds one delivery attempt and WebhookLease is how
	// long a process's claim on a delivery lasts: a process killed
	// mid-attempt leaves the delivery to another after the lease, which
	// must exceed the timeout.
	WebhookTimeout time.Duration `env:"WEBHOOK_TIMEOUT" envDefault:"10s" help:"how long one webhook delivery attempt may take (1s to 5m)"`
	WebhookLease   time.Duration `env:"WEBHOOK_LEASE" envDefault:"2m" help:"how long a claim on a webhook delivery lasts before another process may retry it (above WEBHOOK_TIMEOUT, at most 1h)"`
	// RoleSyncInterval is how often division roles are synced.
	RoleSyncInterval time.Duration `env:"ROLE_SYNC_INTERVAL" envDefault:"1m" help:"how often division and badge roles are given and taken (1s to 1h)"`
	// RoleReconcileInterval is how often members' real roles are read and
	// drift repaired; 24h is daily at 03:30 UTC.
	RoleReconcileInterval time.Duration `env:"ROLE_RECONCILE_INTERVAL" envDefault:"24h" help:"how often members' roles are read back and drift repaired (1s to 168h; 24h is daily at 03:30 UTC)"`
}

// URLPolicy is the rule on every outgoing request to a URL the bot was
// given: WEBHOOK_ALLOW_HTTP and OUTGOING_PORTS (validate has checked it).
func (c Config) URLPolicy() ladder.URLPolicy {
	ports, _ := ladder.ParsePorts(c.OutgoingPorts)
	return ladder.URLPolicy{AllowHTTP: c.WebhookAllowHTTP, Ports: ports}
}

// Transport is how the bot receives interactions: DISCORD_TRANSPORT, or
// gateway when it is not set.
func (c Config) Transport() string {
	if c.DiscordTransport == "" {
		return "gateway"
	}
	return c.DiscordTransport
}

// PublicKey is DISCORD_PUBLIC_KEY decoded; nil when unset (validate has
// checked any value).
func (c Config) PublicKey() ed25519.PublicKey {
	k, err := hex.DecodeString(c.DiscordPublicKey)
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil
	}
	return k
}

// LoadConfig parses and validates the configuration from environ, a list of
// KEY=VALUE strings as os.Environ returns. Every error names the variable.
func LoadConfig(environ []string) (Config, error) {
	var cfg Config
	opts := env.Options{Environment: env.ToMap(environ)}
	if err := env.ParseWithOptions(&cfg, opts); err != nil {
		return Config{}, fmt.Errorf("config: %w", nameVariables(err, opts.Environment))
	}
	if err := cfg.validate(); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return cfg, nil
}

func (c Config) validate() error {
	checks := []func() error{
		func() error { return validateDatabaseURL("DATABASE_URL", c.DatabaseURL) },
		c.validateDiscord,
		c.validateTransport,
		c.validateHTTPAddr,
		c.validateShards,
		c.validateLogging,
		c.validateRateLimit,
		func() error {
			if _, err := ladder.ParsePorts(c.OutgoingPorts); err != nil {
				return fmt.Errorf("OUTGOING_PORTS=%q: %v", c.OutgoingPorts, err)
			}
			return nil
		},
		func() error { return c.dashboard().Validate() },
		func() error {
			return validateInterval("ROLE_SYNC_INTERVAL", c.RoleSyncInterval, time.Second, time.Hour, "1h")
		},
		func() error {
			return validateInterval("ROLE_RECONCILE_INTERVAL", c.RoleReconcileInterval, time.Second, 7*24*time.Hour, "168h")
		},
		func() error {
			return validateInterval("WEBHOOK_TIMEOUT", c.WebhookTimeout, time.Second, 5*time.Minute, "5m")
		},
		func() error {
			return validateInterval("DISCORD_GATEWAY_TIMEOUT", c.DiscordGatewayTimeout, time.Second, 10*time.Minute, "10m")
		},
		func() error {
			if c.WebhookLease <= c.WebhookTimeout || c.WebhookLease > time.Hour {
				return fmt.Errorf("WEBHOOK_LEASE=%s: want more than WEBHOOK_TIMEOUT (%s) and at most 1h, or a slow attempt could be claimed twice", c.WebhookLease, c.WebhookTimeout)
			}
			return nil
		},
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateInterval refuses a duration outside lo to hi (hiText is how hi
// is written in the message).
func validateInterval(name string, d, lo, hi time.Duration, hiText string) error {
	if d < lo || d > hi {
		return fmt.Errorf("%s=%s: want %s to %s", name, d, lo, hiText)
	}
	return nil
}

// validateDatabaseURL accepts sqlite:PATH and postgres:// or postgresql:// URLs.
func validateDatabaseURL(name, dsn string) error {
	switch {
	case strings.HasPrefix(dsn, "sqlite:"):
		if strings.TrimPrefix(dsn, "sqlite:") == "" {
			return fmt.Errorf("%s=%q: sqlite needs a path, as in sqlite:ladder.db", name, dsn)
		}
		return nil
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		u, err := url.Parse(dsn)
		if err != nil {
			// url.Error quotes the whole URL, password included.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return fmt.Errorf("%s=%q: malformed PostgreSQL URL: %w", name, redactURL(dsn), err)
		}
		if u.Host == "" {
			return fmt.Errorf("%s: PostgreSQL URL has no host, as in postgres://user@localhost:5432/ladder", name)
		}
		return nil
	default:
		return fmt.Errorf("%s=%q: want sqlite:PATH or postgres://…", name, redactURL(dsn))
	}
}

// redactURL drops a password so configuration errors never print secrets.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err == nil && u.User != nil {
		return u.Redacted()
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		// Not a URL with user info (a typo such as postgres:/u:pw@host),
		// but what precedes the host may still be a password.
		return "…" + s[i:]
	}
	return s
}

func (c Config) validateDiscord() error {
	u, err := url.Parse(c.DiscordAPIBase)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("DISCORD_API_BASE=%q: want an http(s) URL such as https://discord.com", c.DiscordAPIBase)
	}
	if c.DevGuildID != "" {
		if _, err := strconv.ParseUint(c.DevGuildID, 10, 64); err != nil {
			return fmt.Errorf("DEV_GUILD_ID=%q: want a numeric Discord guild ID", c.DevGuildID)
		}
	}
	if strings.ContainsAny(c.DiscordToken, " \t\n") {
		return fmt.Errorf("DISCORD_TOKEN: contains whitespace; paste the bot token alone")
	}
	return nil
}

// validateTransport checks DISCORD_TRANSPORT and what http needs: the
// token (answers, posts and command sync are REST calls), the public key
// (every interaction's signature), and no shards (any process takes any
// interaction, so sharding means nothing).
func (c Config) validateTransport() error {
	if c.DiscordPublicKey != "" {
		k, err := hex.DecodeString(c.DiscordPublicKey)
		if err != nil || len(k) != ed25519.PublicKeySize {
			return fmt.Errorf("DISCORD_PUBLIC_KEY: want the %d hex digits of the application's public key from the developer portal", 2*ed25519.PublicKeySize)
		}
	}
	switch c.DiscordTransport {
	case "", "gateway":
		return nil
	case "http":
	default:
		return fmt.Errorf("DISCORD_TRANSPORT=%q: want gateway or http", c.DiscordTransport)
	}
	switch {
	case c.DiscordToken == "":
		return errors.New("DISCORD_TRANSPORT=http: needs DISCORD_TOKEN for the REST calls (answers, posts, command sync)")
	case c.DiscordPublicKey == "":
		return errors.New("DISCORD_TRANSPORT=http: needs DISCORD_PUBLIC_KEY, the application's public key, to verify interactions")
	case c.ShardCount != 1:
		return fmt.Errorf("SHARD_COUNT=%d: shards are for the gateway; with DISCORD_TRANSPORT=http any process answers any interaction", c.ShardCount)
	}
	return nil
}

func (c Config) validateHTTPAddr() error {
	_, port, err := net.SplitHostPort(c.HTTPAddr)
	if err != nil {
		return fmt.Errorf("HTTP_ADDR=%q: want host:port such as 127.0.0.1:8080: %w", c.HTTPAddr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("HTTP_ADDR=%q: port must be a number from 0 to 65535", c.HTTPAddr)
	}
	return nil
}

func (c Config) validateRateLimit() error {
	if math.IsNaN(c.APIRateLimit) || math.IsInf(c.APIRateLimit, 0) || c.APIRateLimit < 0 {
		return fmt.Errorf("API_RATE_LIMIT=%v: want requests per second, 0 or more (0 turns the limit off)", c.APIRateLimit)
	}
	if c.APIRateBurst < 1 && c.APIRateLimit > 0 {
		return fmt.Errorf("API_RATE_BURST=%d: must be at least 1 while API_RATE_LIMIT is on", c.APIRateBurst)
	}
	return nil
}

// webRate converts API_RATE_LIMIT to web.Options' convention, where 0 means
// the default and a negative rate turns the limit off.
func (c Config) webRate() float64 {
	if c.APIRateLimit == 0 {
		return -1
	}
	return c.APIRateLimit
}

func (c Config) validateShards() error {
	if c.ShardCount < 1 {
		return fmt.Errorf("SHARD_COUNT=%d: must be at least 1", c.ShardCount)
	}
	if c.ShardID < 0 || c.ShardID >= c.ShardCount {
		return fmt.Errorf("SHARD_ID=%d: must be from 0 to SHARD_COUNT-1 (%d)", c.ShardID, c.ShardCount-1)
	}
	return nil
}

func (c Config) validateLogging() error {
	if _, err := parseLogLevel(c.LogLevel); err != nil {
		return err
	}
	switch c.LogFormat {
	case "text", "json":
		return nil
	default:
		return fmt.Errorf("LOG_FORMAT=%q: want text or json", c.LogFormat)
	}
}

func parseLogLevel(s string) (slog.Level, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", s)
	}
	return level, nil
}

// nameVariables rewrites the env library's parse errors, which name Go
// fields and types and quote strconv ("not a valid float64:
// strconv.ParseFloat: parsing …"), so that they name the environment
// variable the operator set, its value, and what it wants.
func nameVariables(err error, environ map[string]string) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return err
	}
	configType := reflect.TypeFor[Config]()
	msgs := make([]string, 0, len(agg.Errors))
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			if f, ok := configType.FieldByName(pe.Name); ok {
				name := f.Tag.Get("env")
				msgs = append(msgs, fmt.Sprintf("%s=%q: want %s", name, environ[name], wantOf(pe.Type)))
				continue
			}
		}
		msgs = append(msgs, e.Error())
	}
	return errors.New(strings.Join(msgs, "; "))
}

// wantOf says in words what a variable of type t takes.
func wantOf(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[time.Duration]():
		return "a duration such as 30s, 5m or 1h"
	case t.Kind() == reflect.Bool:
		return "1 or 0"
	case t.Kind() == reflect.Float64:
		return "a number such as 20 or 2.5"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return "a whole number"
	}
	return "a " + t.String()
}

// Variable is one environment variable ladderbot reads.
type Variable struct {
	Name    string
	Default string
	Help    string
}

// Variables lists the environment Config reads, in declaration order, from
// its struct tags: the one place that names each variable, its default and
// its meaning.
func Variables() []Variable {
	t := reflect.TypeFor[Config]()
	vars := make([]Variable, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		vars = append(vars, Variable{Name: f.Tag.Get("env"), Default: f.Tag.Get("envDefault"), Help: f.Tag.Get("help")})
	}
	return vars
}
