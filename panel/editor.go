package panel

import (
	"context"
	"errors"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// errGone is a panel whose queue no longer exists.
var errGone = errors.New("panel: the queue is gone")

// Run keeps the panels and the results channels true until ctx ends: at
// once (a restart re-syncs every panel), on every Touch, when a panel's
// coalescing gap has passed, and every Options.Resync.
func (s *Service) Run(ctx context.Context) {
	s.sweep(ctx)
	tick := time.NewTicker(s.opt.Resync)
	defer tick.Stop()
	for {
		var timer *time.Timer
		var due <-chan time.Time
		if at, ok := s.nextDue(); ok {
			timer = time.NewTimer(max(time.Until(at), 0))
			due = timer.C
		}
		swept := false
		select {
		case <-ctx.Done():
		case <-tick.C:
			s.sweep(ctx)
			swept = true
		case <-s.wake:
		case <-due:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return
		}
		if !swept {
			s.work(ctx)
		}
	}
}

// Sync checks every panel and results channel once, as Run does at
// start-up; for tools and tests that drive the editor by hand.
func (s *Service) Sync(ctx context.Context) { s.sweep(ctx) }

// nextDue is the earliest retry time of a panel.
func (s *Service) nextDue() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first time.Time
	for _, r := range s.due {
		if first.IsZero() || r.at.Before(first) {
			first = r.at
		}
	}
	return first, !first.IsZero()
}

// work syncs the panels of touched guilds and the panels whose retry is due.
func (s *Service) work(ctx context.Context) {
	now := s.opt.Now()
	s.mu.Lock()
	guilds := s.touched
	s.touched = map[string]bool{}
	for id, r := range s.due {
		if !r.at.After(now) {
			guilds[r.guildID] = true
			delete(s.due, id)
		}
	}
	s.mu.Unlock()
	for g := range guilds {
		ps, err := s.store.Panels(ctx, g)
		if err != nil {
			s.log.Warn("panel: reading panels", "guild_id", g, "err", err)
			continue
		}
		for _, p := range ps {
			s.syncPanel(ctx, p)
		}
	}
	// A touched guild may have rated a result: post it now rather than
	// at the next resync.
	s.postResults(ctx, guilds)
}

// sweep syncs every panel and posts every result due.
func (s *Service) sweep(ctx context.Context) {
	ps, err := s.store.Panels(ctx, "")
	if err != nil {
		s.log.Warn("panel: reading panels", "err", err)
	}
	for _, p := range ps {
		s.syncPanel(ctx, p)
	}
	s.postResults(ctx, nil)
}

// retry schedules another try of a panel at at.
func (s *Service) retry(p Panel, at time.Time) {
	s.mu.Lock()
	if r, ok := s.due[p.QueueID]; !ok || at.Before(r.at) {
		s.due[p.QueueID] = panelRetry{guildID: p.GuildID, at: at}
	}
	s.mu.Unlock()
}

// syncPanel makes one panel show its queue: nothing when it already does;
// otherwise, under the row's claim and the coalescing gap, an edit in
// place, or a post when there is no message (or it was deleted). A panel
// another process holds, or edited less than a gap ago, is tried again
// when the gap ends.
func (s *Service) syncPanel(ctx context.Context, p Panel) {
	if s.poster == nil {
		return
	}
	now := s.opt.Now()
	s.mu.Lock()
	r, waiting := s.due[p.QueueID]
	s.mu.Unlock()
	if waiting && r.at.After(now) {
		return // an edit is already coming at the end of the gap: it shows this change too
	}
	if at := p.EditedAt.Add(s.opt.Gap); at.After(now) {
		s.retry(p, at) // within the gap: no read, no claim until it ends
		return
	}
	msg, shown, err := s.render(ctx, p)
	if err != nil {
		if !errors.Is(err, errGone) {
			s.log.Warn("panel: render", "guild_id", p.GuildID, "queue_id", p.QueueID, "err", err)
		}
		return
	}
	if shown == p.Shown && p.MessageID != "" {
		return
	}
	cur, ok, err := s.store.ClaimPanel(ctx, p.QueueID, s.holder, now, s.opt.Gap, s.opt.Lease)
	if err != nil {
		s.log.Warn("panel: claim", "guild_id", p.GuildID, "queue_id", p.QueueID, "err", err)
		s.retry(p, now.Add(s.opt.Gap))
		return
	}
	if !ok {
		at := cur.EditedAt.Add(s.opt.Gap)
		if !at.After(now) {
			at = now.Add(s.opt.Gap / 4) // another process holds it: look again soon
		}
		s.retry(p, at)
		return
	}
	// The queue may have changed while the claim was taken: show it as it
	// is now.
	if msg, shown, err = s.render(ctx, cur); err != nil {
		s.release(ctx, cur)
		return
	}
	if shown == cur.Shown && cur.MessageID != "" {
		s.release(ctx, cur)
		return
	}
	id, err := s.show(ctx, cur, msg)
	if err != nil {
		s.release(ctx, cur)
		switch discordCode(err) {
		case codeUnknownChannel, codeMissingAccess, codeMissingPerms:
			// Nothing to retry until an admin fixes the channel; the
			// resync tries again.
			s.log.Warn("panel: cannot post in the panel's channel", "guild_id", cur.GuildID, "channel_id", cur.ChannelID, "err", err)
		default:
			s.log.Warn("panel: post", "guild_id", cur.GuildID, "channel_id", cur.ChannelID, "err", err)
			s.retry(cur, s.opt.Now().Add(s.opt.Gap))
		}
		return
	}
	// The message is out: record it even when shutdown began meanwhile,
	// or the next editor would wait out the claim and post a second one.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.store.ShowPanel(rctx, cur.QueueID, s.holder, cur.Shown, id, shown, now); err != nil {
		s.log.Warn("panel: record", "guild_id", cur.GuildID, "queue_id", cur.QueueID, "err", err)
	}
}

func (s *Service) release(ctx context.Context, p Panel) {
	// Released even at shutdown: a claim left behind blocks the next
	// process until its lease runs out.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.store.ReleasePanel(ctx, p.QueueID, s.holder); err != nil {
		s.log.Warn("panel: release", "guild_id", p.GuildID, "queue_id", p.QueueID, "err", err)
	}
}

// show edits the panel's message, or posts it when there is none or
// Discord says it was deleted (10008), and returns the message's ID.
func (s *Service) show(ctx context.Context, p Panel, msg commands.Reply) (string, error) {
	if p.MessageID != "" {
		msg.Edit = p.MessageID
		id, err := s.poster.Post(ctx, p.ChannelID, msg)
		if err == nil {
			s.edits.Add(1)
			return id, nil
		}
		if discordCode(err) != codeUnknownMessage {
			return "", err
		}
		s.log.Info("panel: message deleted; posting it again", "guild_id", p.GuildID, "channel_id", p.ChannelID, "queue_id", p.QueueID)
		msg.Edit = ""
	}
	id, err := s.poster.Post(ctx, p.ChannelID, msg)
	if err != nil {
		return "", err
	}
	s.posts.Add(1)
	return id, nil
}

// render is the panel's message as its queue stands, and its digest.
func (s *Service) render(ctx context.Context, p Panel) (commands.Reply, string, error) {
	qs, err := s.ladder.Queues(ctx, p.GuildID)
	if err != nil {
		return commands.Reply{}, "", err
	}
	var q ladder.Queue
	for _, c := range qs {
		if c.ID == p.QueueID {
			q = c
		}
	}
	if q.ID == 0 {
		return commands.Reply{}, "", errGone
	}
	waiting, err := s.store.Waiting(ctx, q.ID)
	if err != nil {
		return commands.Reply{}, "", err
	}
	waits, err := s.store.RecentWaits(ctx, q.ID, typicalOf)
	if err != nil {
		return commands.Reply{}, "", err
	}
	var o joins.Opening
	if s.opt.Joins != nil {
		// Open hours follow the ladder's clock, as the joins they
		// refuse do.
		if o, err = s.opt.Joins.Opening(ctx, q, s.ladder.Now()); err != nil {
			return commands.Reply{}, "", err
		}
	}
	l := i18n.English()
	if g, err := s.ladder.Guild(ctx, p.GuildID); err == nil {
		l = commands.GuildLang(g)
	}
	msg := MessageAt(l, q, waiting, waits, o)
	return msg, digest(msg), nil
}
