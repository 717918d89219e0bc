package cli

import (
	"context"
	"fmt"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/dashboard"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
	"github.com/ladderbot/ladderbot/web"
)

// runServe serves the web leaderboard, the JSON and game-server API and the
// operations endpoints alone, without the bot or the jobs (docs/spec.md 7, 8), until
// a signal arrives; then it drains requests in flight and exits 0.
func runServe(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "[--addr HOST:PORT]")
	// The default is named, not filled in, so -h reads the same whatever the
	// environment holds.
	addr := fs.String("addr", "", "listen address host:port (default: HTTP_ADDR)")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *addr == "" {
		*addr = e.cfg.HTTPAddr
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, jn := newLadder(db)
	srv, err := newWebServer(e, db, svc, jn, web.NewMetrics(), nil)
	if err != nil {
		return err
	}
	return srv.ListenAndServe(ctx, *addr)
}

// newWebServer wires the web server over db and svc with the process's
// metrics (which also get db's pool statistics). gatewayReady reports the
// Discord gateway for /readyz; nil when the process runs no bot. `ladderbot
// run` calls it and serves the result on HTTP_ADDR beside the bot, sharing
// metrics with it.
func newWebServer(e invocation, db *storage.DB, svc *ladder.Service, jn *joins.Service, metrics *web.Metrics, gatewayReady func() bool) (*web.Server, error) {
	if err := metrics.RegisterDB(db.SQL()); err != nil {
		return nil, fmt.Errorf("web: metrics: %w", err)
	}
	var srv *web.Server
	// The queues' room settings, which the dashboard and the token API
	// read and write; opening rooms is the bot's (ladderbot run).
	rm, fm := rooms.New(db, nil, svc, e.log), formats.New(db, svc)
	com, in := community.New(db, svc), integrity.New(db, nil)
	admin, err := dashboard.New(dashboard.Options{Config: e.cfg.dashboard(), Service: svc, Sessions: db, Log: e.log, Rooms: rm, Joins: jn, Community: com, Formats: fm,
		Integrity:  in,
		Webhooks:   e.cfg.URLPolicy(),
		Invalidate: func(guildID string) { srv.Invalidate(guildID) }})
	if err != nil {
		return nil, fmt.Errorf("web: dashboard: %w", err)
	}
	if !e.cfg.dashboard().Enabled() {
		e.log.Info("the moderators' dashboard is off: set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and PUBLIC_URL to turn it on")
	}
	srv = web.New(web.Options{
		Service:      svc,
		Log:          e.log,
		Metrics:      metrics,
		Ping:         db.Ping,
		GatewayReady: gatewayReady,
		RatePerToken: e.cfg.webRate(),
		RateBurst:    e.cfg.APIRateBurst,
		Rates:        db,
		Webhooks:     e.cfg.URLPolicy(),
		Admin:        admin.Handler(),
		Community:    com,
		Integrity:    in,
		Rooms:        rm,
		Joins:        jn,
		Formats:      fm,
	})
	return srv, nil
}

// dashboard is the dashboard's part of the configuration.
func (c Config) dashboard() dashboard.Config {
	return dashboard.Config{ClientID: c.DiscordClientID, ClientSecret: c.DiscordClientSecret, PublicURL: c.PublicURL,
		APIBase: c.DiscordAPIBase, BotToken: c.DiscordToken}
}
