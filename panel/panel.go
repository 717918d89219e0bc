package panel

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/panel/row"
)

// The rows' types live in package row, which storage imports without
// importing this package (and, through it, commands).
type (
	// Panel is the row of one queue's panel.
	Panel = row.Panel
	// Party is one ticket of a queue.
	Party = row.Party
	// ResultsChannel is where a guild's rated results are posted.
	ResultsChannel = row.ResultsChannel
	// Rated is a rated match and what was posted of it.
	Rated = row.Rated
)

// Store is the rows the panels and the results channel need; *storage.DB
// implements it.
type Store interface {
	// SavePanel places a queue's panel in a channel; a panel moved to
	// another channel forgets its message, one placed again in its own
	// channel what it shows (so it is edited, or posted again if deleted).
	SavePanel(ctx context.Context, guildID string, queueID int64, channelID string) (Panel, error)
	// Panels lists a guild's panels, or every guild's for "".
	Panels(ctx context.Context, guildID string) ([]Panel, error)
	// ClaimPanel takes the panel for holder until now+lease, only when no
	// other holder has it and its last edit is at least gap old; it
	// answers the row as it is and whether holder has it.
	ClaimPanel(ctx context.Context, queueID int64, holder string, now time.Time, gap, lease time.Duration) (Panel, bool, error)
	// ShowPanel records the message of holder's panel and what it shows
	// now, and releases it; edited is the time of the post or edit (zero:
	// none was made). What it shows is kept only while the row still says
	// prev (what it said when claimed): a panel placed again meanwhile
	// stays due for an edit.
	ShowPanel(ctx context.Context, queueID int64, holder, prev, messageID, shown string, edited time.Time) error
	// ReleasePanel gives up holder's claim.
	ReleasePanel(ctx context.Context, queueID int64, holder string) error
	// Waiting returns a queue's tickets, oldest first.
	Waiting(ctx context.Context, queueID int64) ([]Party, error)
	// RecentWaits returns the waits of the queue's last n formed matches.
	RecentWaits(ctx context.Context, queueID int64, n int) ([]time.Duration, error)

	// SetResultsChannel sets ("" removes) a guild's results channel;
	// results rated from since on are posted.
	SetResultsChannel(ctx context.Context, guildID, channelID string, since time.Time) error
	// ResultsChannels lists one guild's, or every guild's (""), results channel.
	ResultsChannels(ctx context.Context, guildID string) ([]ResultsChannel, error)
	// RatedSince lists up to limit matches of a guild rated at or after
	// since, oldest first.
	RatedSince(ctx context.Context, guildID string, since time.Time, limit int) ([]Rated, error)
	// ClaimResult takes the post of a match: the first claim, or a later
	// one while the post still shows prev and nobody holds it.
	ClaimResult(ctx context.Context, guildID string, matchID int64, prev string, now time.Time, lease time.Duration) (bool, error)
	// SaveResult records what the post of a match shows and releases it.
	SaveResult(ctx context.Context, matchID int64, messageID, shown string) error
	// ReleaseResult gives up a claim whose post failed.
	ReleaseResult(ctx context.Context, matchID int64) error
}

// Poster delivers messages to Discord; the bot implements it (as
// jobs.Poster). A failed call's error carries Discord's JSON error code
// through a DiscordCode() int method.
type Poster interface {
	Post(ctx context.Context, channelID string, msg commands.Reply) (string, error)
}

// PostFunc is a function that posts, as a Poster.
type PostFunc func(ctx context.Context, channelID string, msg commands.Reply) (string, error)

// Post implements Poster.
func (f PostFunc) Post(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	return f(ctx, channelID, msg)
}

// Discord's JSON error codes the editor acts on.
const (
	codeUnknownChannel = 10003
	codeUnknownMessage = 10008
	codeMissingAccess  = 50001
	codeMissingPerms   = 50013
)

// Options tune a Service; zero values are the defaults.
type Options struct {
	// Gap is the least time between two edits of one panel (default 2 s):
	// changes in between are shown together by the next edit.
	Gap time.Duration
	// Lease is how long a claim on a panel or a result post holds when its
	// process dies before releasing it (default 30 s).
	Lease time.Duration
	// Resync is how often every panel and results channel is checked
	// against the database, for changes made by other processes and jobs
	// (default 10 s). Changes made through this process's interactions
	// show at once (Touch).
	Resync time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Delete deletes a channel message; a panel moved to another channel
	// deletes its message left behind with it, so that no message goes on
	// offering Join under a list nobody edits any more. nil: the old
	// message is left as it is. A failed call's error carries Discord's
	// JSON error code as Poster's do.
	Delete func(ctx context.Context, channelID, messageID string) error
	// Joins tells a queue's open hours, shown in its panel's status, and
	// whether a result offers a rematch (a Rematch button on its post);
	// nil: always open, no rematches.
	Joins Joins
}

// Joins is what the panels read of package joins.
type Joins interface {
	Opening(ctx context.Context, q ladder.Queue, at time.Time) (joins.Opening, error)
	Offers(ctx context.Context, m ladder.Match, q ladder.Queue, at time.Time) (bool, error)
}

// Service shows the queue panels and posts the results. Create it with
// New; Run keeps the messages true until its context ends.
type Service struct {
	store  Store
	ladder *ladder.Service
	poster Poster
	log    *slog.Logger
	opt    Options
	holder string

	mu      sync.Mutex
	touched map[string]bool      // guilds whose panels may show an old state
	due     map[int64]panelRetry // panels to try again at a time
	wake    chan struct{}

	edits   atomic.Int64
	posts   atomic.Int64
	results atomic.Int64
}

// panelRetry is a panel waiting for its coalescing gap or a claim.
type panelRetry struct {
	guildID string
	at      time.Time
}

// New returns a Service over store and svc, posting through poster (nil:
// the panels are only stored, as in a process without Discord).
func New(store Store, svc *ladder.Service, poster Poster, log *slog.Logger, opt Options) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Gap <= 0 {
		opt.Gap = 2 * time.Second
	}
	if opt.Lease <= 0 {
		opt.Lease = 30 * time.Second
	}
	if opt.Resync <= 0 {
		opt.Resync = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	var id [8]byte
	rand.Read(id[:])
	return &Service{store: store, ladder: svc, poster: poster, log: log, opt: opt, holder: hex.EncodeToString(id[:]),
		touched: map[string]bool{}, due: map[int64]panelRetry{}, wake: make(chan struct{}, 1)}
}

// Touch says a guild's queues may have changed: its panels are checked at
// once (and edited when the coalescing gap allows). Safe to call from any
// goroutine; it never blocks.
func (s *Service) Touch(guildID string) {
	if guildID == "" {
		return
	}
	s.mu.Lock()
	s.touched[guildID] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Place implements commands.Panels: it stores the queue's panel in
// channelID and has the editor post (or edit) it at once. Moved to
// another channel, its message left behind is deleted (Options.Delete).
func (s *Service) Place(ctx context.Context, guildID string, queueID int64, channelID string) error {
	ps, err := s.store.Panels(ctx, guildID)
	if err != nil {
		return err
	}
	var prev Panel
	for _, p := range ps {
		if p.QueueID == queueID {
			prev = p
		}
	}
	if _, err := s.store.SavePanel(ctx, guildID, queueID, channelID); err != nil {
		return err
	}
	s.Touch(guildID)
	if prev.MessageID != "" && prev.ChannelID != channelID && s.opt.Delete != nil {
		err := s.opt.Delete(ctx, prev.ChannelID, prev.MessageID)
		if code := discordCode(err); err != nil && code != codeUnknownMessage && code != codeUnknownChannel {
			s.log.Warn("panel: the moved panel's old message not deleted", "guild_id", guildID, "channel_id", prev.ChannelID,
				"message_id", prev.MessageID, "err", err)
		}
	}
	return nil
}

// SetResultsChannel implements commands.Panels.
func (s *Service) SetResultsChannel(ctx context.Context, guildID, channelID string) error {
	return s.store.SetResultsChannel(ctx, guildID, channelID, s.opt.Now())
}

// ResultsChannel implements commands.Panels: "" when the guild has none.
func (s *Service) ResultsChannel(ctx context.Context, guildID string) (string, error) {
	cs, err := s.store.ResultsChannels(ctx, guildID)
	if err != nil || len(cs) == 0 {
		return "", err
	}
	return cs[0].ChannelID, nil
}

// PanelChannel implements commands.Panels: the channel of a queue's panel,
// "" when it has none.
func (s *Service) PanelChannel(ctx context.Context, guildID string, queueID int64) (string, error) {
	ps, err := s.store.Panels(ctx, guildID)
	if err != nil {
		return "", err
	}
	for _, p := range ps {
		if p.QueueID == queueID {
			return p.ChannelID, nil
		}
	}
	return "", nil
}

// Stats counts what this process's editor did: panel edits, panel posts
// (first posts and re-posts), and result posts.
type Stats struct {
	Edits, Posts, Results int64
}

// Stats returns the counts so far.
func (s *Service) Stats() Stats {
	return Stats{Edits: s.edits.Load(), Posts: s.posts.Load(), Results: s.results.Load()}
}

// discordCode is the JSON error code of a failed Discord call, 0 for any
// other error.
func discordCode(err error) int {
	var ce interface{ DiscordCode() int }
	if errors.As(err, &ce) {
		return ce.DiscordCode()
	}
	return 0
}
