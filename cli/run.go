package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/ladderbot/ladderbot/bot"
	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/chart"
	"github.com/ladderbot/ladderbot/internal/showdown"
	"github.com/ladderbot/ladderbot/jobs"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel"
	"github.com/ladderbot/ladderbot/rooms"
	"github.com/ladderbot/ladderbot/storage"
	"github.com/ladderbot/ladderbot/web"
)

// component is one long-running part of `ladderbot run`. run blocks until
// ctx ends (then it shuts down gracefully and returns nil) or it fails.
type component struct {
	name string
	run  func(ctx context.Context) error
}

// runRun runs the bot (when DISCORD_TOKEN is set) and the web page and API
// on HTTP_ADDR until a signal arrives, then shuts every part down
// gracefully (docs/spec.md 8). The scheduled jobs join the components list.
func runRun(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	db, err := openDB(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, jn := newLadder(db)
	// One registry for the whole process: the web server serves it on
	// /metrics, the bot counts interactions, the jobs count their runs,
	// formed matches and queue sizes.
	metrics := web.NewMetrics()
	// The web server's leaderboard cache is dropped when the bot or a job
	// of this process records a result; srv is set before anything runs.
	var srv *web.Server
	onResult := func(guildID string) { srv.Invalidate(guildID) }

	var comps []component
	var gatewayReady func() bool
	var poster jobs.Poster
	var roles jobs.RoleClient
	var interactions http.Handler
	var rm *rooms.Manager
	// The jobs tell the panel editor of the queues they change.
	var onQueue func(guildID string)
	if e.cfg.DiscordToken != "" {
		b, m, panels, err := newBot(e, db, svc, jn, metrics, onResult)
		if err != nil {
			return err
		}
		comps = append(comps, component{"bot", b.Run})
		onQueue = panels.Touch
		comps = append(comps, component{"panels", func(ctx context.Context) error {
			panels.Run(ctx)
			return nil
		}})
		gatewayReady = b.Connected
		poster = b
		roles = b
		rm = m
		if e.cfg.Transport() == bot.TransportHTTP {
			interactions = b.Interactions()
		}
	} else {
		e.log.Info("DISCORD_TOKEN is not set: running the web page, API and jobs without the bot")
	}
	srv, err = newWebServer(e, db, svc, jn, metrics, gatewayReady)
	if err != nil {
		return err
	}
	srv.MountInteractions(interactions)
	comps = append(comps, component{"web", func(ctx context.Context) error { return srv.ListenAndServe(ctx, e.cfg.HTTPAddr) }})
	comps = append(comps, component{"jobs", func(ctx context.Context) error {
		return runJobs(ctx, jobs.New(svc, poster, e.log, jobs.Options{Metrics: metrics, OnResult: onResult, OnQueue: onQueue, Roles: roles, RoleInterval: e.cfg.RoleSyncInterval,
			ReconcileInterval: e.cfg.RoleReconcileInterval, Rooms: rm, Formats: formats.New(db, svc), Joins: jn,
			Integrity: integrity.New(db, nil), Community: community.New(db, svc)}))
	}})
	// Webhook deliveries are claimed per row, so every replica may run
	// the deliverer; the outbox keeps what a stopped one left.
	deliverer := jobs.NewDeliverer(svc, e.log, jobs.DelivererOptions{Policy: e.cfg.URLPolicy(),
		Timeout: e.cfg.WebhookTimeout, Lease: e.cfg.WebhookLease})
	comps = append(comps, component{"webhooks", func(ctx context.Context) error {
		deliverer.Run(ctx, webhookInterval)
		return nil
	}})
	return runComponents(ctx, e.log, comps)
}

// newLadder is the ladder service over db with the queues' requirements
// and open hours (package joins) deciding every entry into a queue.
func newLadder(db *storage.DB) (*ladder.Service, *joins.Service) {
	svc := ladder.NewService(db, nil)
	jn := joins.New(db, svc)
	svc.SetJoinGate(jn)
	return svc, jn
}

// webhookInterval is how often the deliverer looks for due webhook
// deliveries: events reach receivers within seconds of their commit.
const webhookInterval = 2 * time.Second

// runJobs runs the scheduled jobs until ctx ends, then waits up to 30 s
// for running ones.
func runJobs(ctx context.Context, s *jobs.Scheduler) error {
	if err := s.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	return s.Stop(stopCtx)
}

// newBot wires the Discord bot: configuration from the environment, the
// command set over svc, internal/chart for /profile's chart, metrics (nil:
// none) and onResult, told the guild of every interaction that may have
// changed its ratings (nil: nobody); the match rooms' manager; and the
// queue panels and results channels it posts, whose editor the caller runs.
func newBot(e invocation, db *storage.DB, svc *ladder.Service, jn *joins.Service, metrics *web.Metrics, onResult func(guildID string)) (*bot.Bot, *rooms.Manager, *panel.Service, error) {
	replays, err := showdown.NewClient(e.cfg.ShowdownReplayBase, e.cfg.URLPolicy(), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	// /config roles create, /setup and the panels call Discord through
	// the bot, which exists once bot.New returns, before any interaction
	// arrives or the panel editor runs.
	var b *bot.Bot
	createRole := func(ctx context.Context, guildID, name string) (string, error) {
		return b.CreateRole(ctx, guildID, name)
	}
	// Match rooms call Discord through the bot too: late forwards to it.
	late := &lateDiscord{}
	rm := rooms.New(db, late, svc, e.log)
	panels := panel.New(db, svc, panel.PostFunc(func(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
		return b.Post(ctx, channelID, msg)
	}), e.log, panel.Options{Joins: jn, Delete: func(ctx context.Context, channelID, messageID string) error {
		return b.DeleteMessage(ctx, channelID, messageID)
	}})
	set := commands.New(commands.Deps{Service: svc, Chart: chart.HistoryPNG, Metrics: metrics, VerifyReplay: replays.Verify, CreateRole: createRole,
		Rooms: rm, Panels: panels, Community: community.New(db, svc), Formats: formats.New(db, svc), Joins: jn, Integrity: integrity.New(db, nil),
		EnsureChannel: func(ctx context.Context, guildID, name string) (string, error) {
			return b.EnsureChannel(ctx, guildID, name)
		},
		EnsureRole: func(ctx context.Context, guildID, name string) (string, error) {
			return b.EnsureRole(ctx, guildID, name)
		}})
	b, err = bot.New(bot.Config{
		Token:      e.cfg.DiscordToken,
		APIBase:    e.cfg.DiscordAPIBase,
		DevGuildID: e.cfg.DevGuildID,
		ShardID:    e.cfg.ShardID,
		ShardCount: e.cfg.ShardCount,
		Metrics:    metrics,
		// Every interaction that touched storage may have changed a queue:
		// its guild's panels are checked at once.
		OnResult: func(guildID string) {
			if onResult != nil {
				onResult(guildID)
			}
			panels.Touch(guildID)
		},
		Transport:      e.cfg.Transport(),
		PublicKey:      e.cfg.PublicKey(),
		GatewayTimeout: e.cfg.DiscordGatewayTimeout,
		// HTTP redeliveries may reach any process: the database decides.
		Deliveries: db,
	}, set, e.log)
	if err != nil {
		return nil, nil, nil, err
	}
	late.Discord = b
	return b, rm, panels, nil
}

// lateDiscord is the rooms' Discord, set to the bot once it exists (before
// anything runs).
type lateDiscord struct{ rooms.Discord }

// runComponents runs every component until ctx ends or one fails; a
// failure stops the others. It waits for all of them to finish their
// graceful shutdown and returns the first failure.
func runComponents(ctx context.Context, log *slog.Logger, comps []component) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, c := range comps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.run(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				log.Error("component failed; shutting down", "component", c.name, "err", err)
				mu.Lock()
				if first == nil {
					first = fmt.Errorf("%s: %w", c.name, err)
				}
				mu.Unlock()
			}
			cancel()
		}()
	}
	wg.Wait()
	return first
}
