package bot

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/ladderbot/ladderbot/commands"
)

// Config is what the bot needs from the environment (docs/spec.md 8), passed as
// plain values by main.
type Config struct {
	// Token is the bot token, with or without the "Bot " prefix.
	Token string
	// APIBase is DISCORD_API_BASE; "" means https://discord.com.
	APIBase string
	// DevGuildID registers commands to that guild only (instant) instead of
	// globally.
	DevGuildID string
	// ShardID and ShardCount select this process's shard.
	ShardID, ShardCount int
	// HandlerTimeout bounds a deferred handler once it runs (default 10 s;
	// the interaction token itself lasts 15 min).
	HandlerTimeout time.Duration
	// WorkerWait bounds how long an acknowledged interaction waits for a
	// worker before it is answered "overloaded" (default 60 s).
	WorkerWait time.Duration
	// DrainTimeout bounds how long shutdown waits for interactions in
	// flight (default 10 s).
	DrainTimeout time.Duration
	// Workers bounds how many deferred handlers run at once (default
	// GOMAXPROCS−1, at least 1, so one processor stays free for the gateway
	// and acknowledgements). Acknowledgements never wait for a worker:
	// a burst of interactions is acknowledged at once and its storage work
	// queues, instead of every handler competing for the CPU the next
	// acknowledgement needs.
	Workers int
	// Metrics receives one observation per interaction (nil: none).
	Metrics Metrics
	// OnResult is called with the guild of every successful interaction
	// that touched storage, for example to drop cached leaderboard pages
	// (nil: nobody is told).
	OnResult func(guildID string)
	// Transport is how interactions arrive: TransportGateway (the default)
	// over this process's gateway shard, or TransportHTTP as signed POSTs
	// to Interactions(), with no gateway connection at all.
	Transport string
	// PublicKey is the application's Ed25519 key that signs HTTP
	// interactions; required with TransportHTTP.
	PublicKey ed25519.PublicKey
	// Deliveries remembers HTTP interactions across processes, so one
	// delivered twice to different processes is handled once (nil: this
	// process only remembers).
	Deliveries Deliveries
	// Now is the clock for signature timestamps and for the age of a
	// gateway interaction on arrival (default time.Now); both rely on the
	// host clock being NTP-synced.
	Now func() time.Time
	// GatewayTimeout bounds how long a gateway connection may take from
	// its dial to the READY or RESUMED that opens it (default 60 s); a
	// connection still waiting then is cut and dialed again (watchdog.go).
	GatewayTimeout time.Duration
}

// Bot is one Discord shard serving a command set.
type Bot struct {
	cfg     Config
	set     *commands.Set
	log     *slog.Logger
	session *discordgo.Session

	// base is the context of handlers; it outlives Run's context by the
	// drain so interactions in flight at shutdown still finish.
	base     context.Context
	stop     context.CancelFunc
	inflight sync.WaitGroup
	// gate orders admitting an interaction (inflight.Add) before the
	// drain's Wait: closing is set under it, and nothing is admitted after.
	gate    sync.Mutex
	closing atomic.Bool
	workers chan struct{}

	ready      chan struct{}
	readyOnce  sync.Once
	registered atomic.Bool
	appID      atomic.Value // string
	seen       dedupe
	// httpSeen drops HTTP redeliveries when no Config.Deliveries is shared.
	httpSeen dedupe
	// chain is the dispatch chain every interaction runs (chain.go).
	chain handler
	// watch cuts gateway connections that never open (watchdog.go).
	watch *gatewayWatch
}

// New returns a bot for cfg serving set. It does not connect; Run does.
func New(cfg Config, set *commands.Set, log *slog.Logger) (*Bot, error) {
	if cfg.Token == "" {
		return nil, errors.New("bot: no token")
	}
	if cfg.APIBase == "" {
		cfg.APIBase = "https://discord.com"
	}
	if cfg.ShardCount < 1 {
		cfg.ShardCount = 1
	}
	if cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount {
		return nil, fmt.Errorf("bot: shard %d of %d out of range", cfg.ShardID, cfg.ShardCount)
	}
	if cfg.HandlerTimeout <= 0 {
		cfg.HandlerTimeout = 10 * time.Second
	}
	if cfg.WorkerWait <= 0 {
		cfg.WorkerWait = time.Minute
	}
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = 10 * time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = max(1, runtime.GOMAXPROCS(0)-1)
	}
	switch cfg.Transport {
	case "":
		cfg.Transport = TransportGateway
	case TransportGateway:
	case TransportHTTP:
		if len(cfg.PublicKey) != ed25519.PublicKeySize {
			return nil, errors.New("bot: HTTP interactions need the application's Ed25519 public key")
		}
	default:
		return nil, fmt.Errorf("bot: transport %q: want %s or %s", cfg.Transport, TransportGateway, TransportHTTP)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.GatewayTimeout <= 0 {
		cfg.GatewayTimeout = time.Minute
	}
	if log == nil {
		log = slog.Default()
	}
	client, err := newHTTPClient(cfg.APIBase)
	if err != nil {
		return nil, err
	}
	token := cfg.Token
	if !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	s, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("bot: new session: %w", err)
	}
	s.Client = client
	s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	// Interactions arrive whatever the intents; guild events are enough
	// and keep the gateway quiet. No state cache: everything is in the
	// database, so memory does not grow with the guild.
	s.Identify.Intents = discordgo.IntentsGuilds
	s.StateEnabled = false
	s.ShouldReconnectOnError = true
	s.ShouldRetryOnRateLimit = true
	b := &Bot{cfg: cfg, set: set, log: log, session: s, ready: make(chan struct{}), workers: make(chan struct{}, cfg.Workers)}
	b.watch = &gatewayWatch{session: s, timeout: cfg.GatewayTimeout, log: log, shard: cfg.ShardID}
	s.Dialer = &websocket.Dialer{HandshakeTimeout: 15 * time.Second, Proxy: websocket.DefaultDialer.Proxy, NetDialContext: b.watch.dial}
	b.appID.Store("")
	// The handlers' context exists from the start: HTTP interactions may
	// arrive (through the web server) before Run.
	b.base, b.stop = context.WithCancel(context.Background())
	b.chain = b.dispatch()
	s.AddHandler(b.watch.connected)
	s.AddHandler(b.onReady)
	s.AddHandler(b.onInteraction)
	// A match room deleted by a moderator: its match goes on in the
	// queue's channel at once, before anything is posted to the room.
	s.AddHandler(func(_ *discordgo.Session, ev *discordgo.ChannelDelete) { b.deleted(ev.Channel) })
	s.AddHandler(func(_ *discordgo.Session, ev *discordgo.ThreadDelete) { b.deleted(ev.Channel) })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) {
		b.log.Info("gateway resumed", "shard", cfg.ShardID)
	})
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
		if !b.closing.Load() {
			b.log.Warn("gateway disconnected; reconnecting", "shard", cfg.ShardID)
		}
	})
	return b, nil
}

// Ready is closed once the first READY has arrived.
func (b *Bot) Ready() <-chan struct{} { return b.ready }

// Registered reports whether the commands have been synced.
func (b *Bot) Registered() bool { return b.registered.Load() }

// Run connects, serves interactions until ctx ends, then stops taking new
// interactions, waits for those in flight (up to DrainTimeout) and closes
// the gateway. Transient failures (network, Discord errors) are retried
// with backoff and never end Run; a rejected token does. With
// TransportHTTP it opens no gateway: it learns the application by REST
// and syncs the commands, and interactions come through Interactions().
func (b *Bot) Run(ctx context.Context) error {
	defer b.stop()
	if b.cfg.Transport == TransportHTTP {
		if err := b.startREST(ctx); err != nil {
			return err
		}
		<-ctx.Done()
		b.finish()
		return nil
	}
	if err := b.open(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	b.finish()
	if err := b.session.Close(); err != nil {
		b.log.Warn("closing gateway", "err", err)
	}
	return nil
}

// finish drains the interactions in flight at shutdown, cancelling those
// still running after DrainTimeout.
func (b *Bot) finish() {
	select {
	case <-b.drain():
	case <-time.After(b.cfg.DrainTimeout):
		b.log.Warn("shutdown: interactions still running after the drain timeout; cancelling them")
		b.stop()
	}
}

// admit lets an interaction in unless the bot is draining; each true
// answer is paired with one inflight.Done.
func (b *Bot) admit() bool {
	b.gate.Lock()
	defer b.gate.Unlock()
	if b.closing.Load() {
		return false
	}
	b.inflight.Add(1)
	return true
}

// drain stops admitting interactions and returns a channel closed when
// those in flight have finished. Closing the gate under the lock makes
// every Add happen before the Wait, as sync.WaitGroup requires; with a
// bare flag, an interaction that read it just before the drain set it
// could Add from zero after Wait had returned, and run after the drain.
func (b *Bot) drain() <-chan struct{} {
	b.gate.Lock()
	b.closing.Store(true)
	b.gate.Unlock()
	drained := make(chan struct{})
	go func() { b.inflight.Wait(); close(drained) }()
	return drained
}

// open connects to the gateway, retrying transient failures with capped
// exponential backoff until ctx ends.
func (b *Bot) open(ctx context.Context) error {
	// Open does not watch ctx: when it ends, a connection still waiting
	// for Discord is cut, so that shutting down does not wait on it.
	defer context.AfterFunc(ctx, b.watch.abort)()
	wait := time.Second
	for {
		err := b.session.Open()
		if err == nil {
			return nil
		}
		if fatal(err) {
			return fmt.Errorf("bot: connect: %w", err)
		}
		b.log.Warn("gateway connect failed; retrying", "err", err, "retry_in", wait.String())
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Minute)
	}
}

// fatal reports errors that retrying cannot fix: a rejected token.
func fatal(err error) bool {
	var ce *websocket.CloseError
	if errors.As(err, &ce) && (ce.Code == 4004 || ce.Code == 4010 || ce.Code == 4011 || ce.Code == 4013 || ce.Code == 4014) {
		return true
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == 401 {
		return true
	}
	return errors.Is(err, discordgo.ErrUnauthorized)
}

func (b *Bot) onReady(s *discordgo.Session, r *discordgo.Ready) {
	if r.Application != nil {
		b.appID.Store(r.Application.ID)
	}
	b.log.Info("gateway ready", "shard", b.cfg.ShardID, "shards", b.cfg.ShardCount)
	b.readyOnce.Do(func() { close(b.ready) })
	// One shard registers; every shard serves.
	if b.cfg.ShardID == 0 && !b.registered.Load() {
		go b.register()
	}
}

// register overwrites the application commands, retrying until it works or
// the bot stops.
func (b *Bot) register() {
	cmds := applicationCommands(b.set.Commands())
	wait := time.Second
	for {
		appID, _ := b.appID.Load().(string)
		_, err := b.session.ApplicationCommandBulkOverwrite(appID, b.cfg.DevGuildID, cmds, discordgo.WithContext(b.base))
		if err == nil {
			b.registered.Store(true)
			scope := "global"
			if b.cfg.DevGuildID != "" {
				scope = "guild " + b.cfg.DevGuildID
			}
			b.log.Info("commands registered", "count", len(cmds), "scope", scope)
			return
		}
		b.log.Warn("registering commands failed; retrying", "err", err, "retry_in", wait.String())
		select {
		case <-b.base.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Minute)
	}
}

// Post sends a message rendered by package commands to a channel, pinging
// only msg.Mentions. It implements jobs.Poster: the jobs render their
// announcements, standings and notices themselves, so the bot only
// delivers them.
func (b *Bot) Post(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	id, err := postMessage(ctx, b.session, channelID, msg)
	if channelGone(err) && msg.Edit == "" {
		if home, posted := b.rehome(ctx, channelID); home != "" {
			channelID = home
			if same, ok := shownAs(posted, msg); ok {
				id, err = same, nil // the match's view posted there is this message
			} else {
				id, err = postMessage(ctx, b.session, channelID, msg)
			}
		}
	}
	if err != nil {
		// Coded, so that a job can tell Discord's refusal (a message
		// deleted, access lost) from a fault worth retrying.
		return "", fmt.Errorf("bot: post to channel %s: %w", channelID, coded(err))
	}
	return id, nil
}

// DeleteMessage deletes one of the bot's messages; a failed call's error
// carries Discord's JSON error code (10008 Unknown Message when it is gone
// already).
func (b *Bot) DeleteMessage(ctx context.Context, channelID, messageID string) error {
	if err := b.session.ChannelMessageDelete(channelID, messageID, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("bot: delete message %s in channel %s: %w", messageID, channelID, coded(err))
	}
	return nil
}

// postMessage sends msg to a channel, or edits msg.Edit there, and returns
// the message's ID.
func postMessage(ctx context.Context, s *discordgo.Session, channelID string, msg commands.Reply) (string, error) {
	if msg.Edit != "" {
		m, err := s.ChannelMessageEditComplex(messageEdit(channelID, msg), discordgo.WithContext(ctx))
		if err != nil {
			return "", err
		}
		return m.ID, nil
	}
	m, err := s.ChannelMessageSendComplex(channelID, messageSend(msg), discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	return m.ID, nil
}

// dedupe remembers recent interaction IDs so a gateway event delivered
// twice (a replay after resume) is handled once.
type dedupe struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

// first reports whether id is new, and remembers it for 15 minutes, the
// life of an interaction token.
func (d *dedupe) first(id string, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen == nil {
		d.seen = map[string]time.Time{}
	}
	if _, ok := d.seen[id]; ok {
		return false
	}
	if len(d.seen) > 4096 {
		for k, t := range d.seen {
			if now.Sub(t) > 15*time.Minute {
				delete(d.seen, k)
			}
		}
	}
	d.seen[id] = now
	return true
}

// Connected reports whether the gateway connection is up (for /readyz);
// with TransportHTTP, whether the application is known, so interactions
// can be answered and posts sent.
func (b *Bot) Connected() bool {
	if b.cfg.Transport == TransportHTTP {
		select {
		case <-b.ready:
			return true
		default:
			return false
		}
	}
	b.session.RLock()
	defer b.session.RUnlock()
	return b.session.DataReady
}
