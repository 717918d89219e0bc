package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/groupcommit"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/queueconfig"
)

// Options configure a Server. Only Log may be left out of a minimal server;
// the zero values of the limits pick the defaults below.
type Options struct {
	// Service is the ladder the pages and the API show and change; without
	// one the server answers only the operations endpoints.
	Service *ladder.Service
	// Log receives one line per request and the server's start and stop.
	Log *slog.Logger
	// Metrics is served on /metrics and records every request; nil serves 404 there.
	Metrics *Metrics
	// Ping checks the database for /readyz; nil means no database to check.
	Ping func(ctx context.Context) error
	// GatewayReady reports whether the Discord gateway is connected, for
	// /readyz; nil when this process runs no bot (ladderbot serve).
	GatewayReady func() bool
	// MaxBody caps request bodies in bytes (default 64 KiB); larger ones get 413.
	MaxBody int64
	// RatePerToken is the steady requests per second one API token may make
	// (default 20) and RateBurst the burst above it (default 40); a negative
	// rate turns the limit off (API_RATE_LIMIT=0).
	RatePerToken float64
	RateBurst    int
	// Rates keeps the per-token buckets in the database, shared by every
	// process serving the API (storage.DB), so that N replicas allow one
	// token's burst, not N of them. nil keeps them in this process's
	// memory, which only a single server may rely on.
	Rates RateStore
	// AuthFailureRate is how many failed authentications per second one
	// client address may make (default 1) and AuthFailureBurst how many
	// at once (default 20); a negative rate turns the limit off.
	AuthFailureRate  float64
	AuthFailureBurst int
	// CacheTTL is how long an encoded leaderboard page is served from
	// memory (default 2 s; negative: never cached). Leaderboard responses
	// say Cache-Control: public, max-age of the same length, at least 1 s.
	CacheTTL time.Duration
	// Now is the clock for rate limits and cache ages (default time.Now).
	Now func() time.Time
	// Webhooks is the URL policy of new outgoing webhooks (WEBHOOK_ALLOW_HTTP).
	Webhooks ladder.URLPolicy
	// BalanceWorkers is how many balance and autobalance requests may
	// compute at once (default 2). The slowest exact split holds about
	// 100 MB while it runs, so this bounds the memory a burst can take; a
	// request that finds every worker busy gets 503 with Retry-After.
	BalanceWorkers int
	// Admin serves /admin and everything under it (the moderators'
	// dashboard); nil leaves those paths to the catch-all 404.
	Admin http.Handler
	// Community serves the head-to-head, match history and stats JSON;
	// nil leaves those routes out.
	Community *community.Service
	// Integrity serves the integrity flags to token holders; nil leaves
	// those routes out.
	Integrity *integrity.Service
	// Rooms keeps the queues' room settings (rooms.Manager), read and
	// written by admin/queues; nil leaves them out.
	Rooms queueconfig.Rooms
	// Joins keeps the queues' requirements, open hours and rematch
	// setting, read and written beside the other queue settings by the
	// admin queue endpoints; nil leaves those fields out.
	Joins *joins.Service
	// Formats keeps the queues' format settings (formats.Service), read
	// and written by admin/queues; nil leaves them out.
	Formats queueconfig.Formats
	// Series reads the games of a series with each game's map (the match
	// page and JSON) and a player's win rate per map (the player page);
	// nil takes Formats when it is a *formats.Service, else leaves them
	// out.
	Series *formats.Service
}

// RateStore takes tokens from shared token buckets (storage.DB.TakeToken):
// one from bucket, which holds at most burst and refills at rate per
// second; when there is none it reports false and how long until there is.
type RateStore interface {
	TakeToken(ctx context.Context, bucket string, rate float64, burst int, now time.Time) (bool, time.Duration, error)
}

// Server is ladderbot's HTTP server: pages, JSON API and operations endpoints.
type Server struct {
	svc   *ladder.Service
	pages pageTemplates
	board *boardCache
	// cacheControl is the Cache-Control of leaderboard reads.
	cacheControl string
	log          *slog.Logger
	metrics      *Metrics
	ping         func(ctx context.Context) error
	gateway      func() bool
	maxBody      int64
	limiter      *rateLimiter
	rates        RateStore
	authFailures *rateLimiter
	now          func() time.Time
	webhooks     ladder.URLPolicy
	// balanceSlots holds one token per balance computation running.
	balanceSlots chan struct{}
	admin        http.Handler
	community    *community.Service
	integrity    *integrity.Service
	queues       queueconfig.Config
	joins        *joins.Service
	series       *formats.Service
	// results batches the API's results of one guild's queue into one
	// transaction while another batch of that queue is being written.
	results *groupcommit.Group[resultKey, ladder.ResultInput, ladder.MatchResult]
	mux     *http.ServeMux
	handler http.Handler
}

// New returns a Server with its routes ready; serve it with Serve or mount
// Handler elsewhere.
func New(opts Options) *Server {
	s := &Server{
		svc:      opts.Service,
		pages:    parsePages(),
		log:      opts.Log,
		metrics:  opts.Metrics,
		ping:     opts.Ping,
		gateway:  opts.GatewayReady,
		maxBody:  opts.MaxBody,
		now:      opts.Now,
		webhooks: opts.Webhooks,
		admin:    opts.Admin,
		queues:   queueconfig.Config{Service: opts.Service, Rooms: opts.Rooms, Formats: opts.Formats},
	}
	if opts.Community != nil {
		// A nil *community.Service must stay a nil interface.
		s.queues.Community = opts.Community
	}
	s.community = opts.Community
	s.integrity = opts.Integrity
	s.series = opts.Series
	if fs, ok := opts.Formats.(*formats.Service); ok && s.series == nil && fs != nil {
		s.series = fs
	}
	if s.svc != nil {
		s.results = newResults(s.svc)
	}
	s.joins = opts.Joins
	if opts.Joins != nil {
		s.queues.Joins = opts.Joins
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.maxBody <= 0 {
		s.maxBody = 64 << 10
	}
	rate, burst := opts.RatePerToken, opts.RateBurst
	if rate == 0 {
		rate = 20
	}
	if burst <= 0 {
		burst = 40
	}
	s.limiter = newRateLimiter(rate, burst, s.now)
	s.rates = opts.Rates
	frate, fburst := opts.AuthFailureRate, opts.AuthFailureBurst
	if frate == 0 {
		frate = 1
	}
	if fburst <= 0 {
		fburst = 20
	}
	s.authFailures = newRateLimiter(frate, fburst, s.now)
	workers := opts.BalanceWorkers
	if workers <= 0 {
		workers = 2
	}
	s.balanceSlots = make(chan struct{}, workers)
	ttl := opts.CacheTTL
	if ttl == 0 {
		ttl = 2 * time.Second
	}
	s.cacheControl = fmt.Sprintf("public, max-age=%d", max(1, int(ttl.Round(time.Second)/time.Second)))
	if s.svc != nil {
		s.board = newBoardCache(s.svc.Leaderboard, ttl, s.now)
	}
	s.mux = s.routes()
	s.handler = s.observe(s.mux)
	return s
}

// Handler returns the server's root handler with logging, metrics, panic
// recovery and the body limit applied.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.metrics.Handler())
	if s.svc == nil {
		return mux
	}
	// Pages (docs/spec.md 7), server-rendered, no JavaScript.
	mux.HandleFunc("/", s.home)
	mux.HandleFunc("GET /guilds/{guild}", s.leaderboardHTML)
	mux.HandleFunc("GET /guilds/{guild}/players/{id}", s.playerHTML)
	mux.HandleFunc("GET /guilds/{guild}/matches/{id}", s.matchHTML)
	s.communityPages(mux)
	// Read-only JSON.
	const g = "/api/v1/guilds/{guild}"
	mux.HandleFunc("/api/", s.notFoundJSON)
	mux.HandleFunc("GET "+g+"/leaderboard", s.apiLeaderboard)
	mux.HandleFunc("GET "+g+"/players/{id}", s.apiPlayer)
	mux.HandleFunc("GET "+g+"/matches/{id}", s.apiMatch)
	mux.HandleFunc("GET "+g+"/matches.csv", s.apiMatchesCSV)
	s.communityRoutes(mux, g)
	s.integrityRoutes(mux, g)
	// Game-server API, with a bearer token of the guild.
	mux.HandleFunc("POST "+g+"/matches", s.authed(s.apiRecordMatch))
	mux.HandleFunc("POST "+g+"/balance", s.authed(s.apiBalance))
	mux.HandleFunc("POST "+g+"/autobalance", s.authed(s.apiAutobalance))
	mux.HandleFunc("GET "+g+"/admin/players/{id}/rating", s.authed(s.apiAdminGetRating))
	mux.HandleFunc("PUT "+g+"/admin/players/{id}/rating", s.authed(s.apiAdminSetRating))
	mux.HandleFunc("POST "+g+"/admin/players/{id}/rating/reset", s.authed(s.apiAdminResetRating))
	mux.HandleFunc("GET "+g+"/admin/health", s.authed(s.apiAdminHealth))
	mux.HandleFunc("POST "+g+"/webhooks", s.authed(s.apiCreateWebhook))
	mux.HandleFunc("GET "+g+"/webhooks", s.authed(s.apiWebhooks))
	mux.HandleFunc("DELETE "+g+"/webhooks/{id}", s.authed(s.apiDeleteWebhook))
	mux.HandleFunc("GET "+g+"/admin/queues", s.authed(s.apiAdminQueues))
	mux.HandleFunc("PUT "+g+"/admin/queues/{name}", s.authed(s.apiAdminSetQueue))
	if s.admin != nil {
		// The dashboard, with its own sessions, CSRF checks and pages.
		mux.Handle("/admin", s.admin)
		mux.Handle("/admin/", s.admin)
	}
	return mux
}

// Invalidate drops the cached leaderboard pages of a guild, for a process
// that changes ratings other than through this server (the bot in
// ladderbot run); without it they expire after CacheTTL.
func (s *Server) Invalidate(guildID string) {
	if s.board != nil {
		s.board.invalidate(guildID)
	}
}

// Serve answers HTTP on ln until ctx is done, then shuts down gracefully:
// it stops accepting, lets requests in flight finish for up to 10 s, and
// returns nil. Any other failure of the listener is returned.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.log.Info("web: serving", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := srv.Shutdown(shutCtx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("web: serve: %w", serr)
	}
	if err != nil {
		return fmt.Errorf("web: shutdown: %w", err)
	}
	s.log.Info("web: stopped")
	return nil
}

// ListenAndServe listens on addr (host:port) and serves until ctx is done.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("web: listen: %w", err)
	}
	return s.Serve(ctx, ln)
}
