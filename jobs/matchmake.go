package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// JobMatchmake is the periodic matchmaking pass. It claims no job_runs
// row, so the name never appears in that table.
const JobMatchmake = "matchmake"

// matchmakeSpec is how often the pass runs. docs/spec.md 3's first bucket is 30 s
// and later ones longer, so a 5 s tick lets a waiting anchor's q_min step
// down at most 5 s after its bucket ends, at the cost of one cheap query
// (the queues that hold tickets) per tick while the queues are empty.
const matchmakeSpec = "@every 5s"

// matchmake runs one matchmaking pass over every queue that has tickets
// and announces each match it forms in the match's channel, as /queue join
// does (docs/spec.md 3, 6). Without the pass, q_min widens for a waiting anchor
// (docs/spec.md 3's buckets) only when someone joins; with it, a queue whose best
// match falls short of q_start forms that match once the anchor has waited
// into a bucket whose q_min it reaches, even if nobody else joins.
//
// Unlike the other jobs it claims no job_runs(job, period) row. Claims make
// a run happen once per period across processes; this pass wants no such
// guarantee: it is idempotent (a second pass right after the first finds
// nothing more to form), and its safety across processes is the queue's
// own: Service.Matchmake holds the queue's lock (a transaction-scoped
// advisory lock on PostgreSQL, the write lock on SQLite) while it reads the
// tickets, and deletes the formed tickets in the transaction that opens the
// match, so two processes ticking at once never put a player in two
// matches. A claim per 5 s tick would add a job_runs write (17,280 rows a
// day per process) for nothing, and a claim lease left by a crashed
// process would stall matchmaking for the lease's length. Every process
// with a Poster runs the pass; SkipIfStillRunning keeps a slow pass from
// overlapping the next tick in the same process.
//
// A process without a Poster (web only) forms no matches: it could not
// announce them, and players would sit in open matches nobody told them
// about. The bot processes, where players join the queue, run the pass.
// Every process refreshes the queue-size metric after the pass.
func (s *Scheduler) matchmake(ctx context.Context, _ time.Time) error {
	if s.poster == nil {
		return s.refreshQueueSizes(ctx)
	}
	formed, err := s.svc.MatchmakeAll(ctx)
	// MatchmakeAll returns the matches it opened before an error too; they
	// are stored, so they are announced either way.
	for _, f := range formed {
		m := f.Match
		s.log.Info("match formed by the scheduled pass", "guild_id", m.GuildID, "queue_id", f.Queue.ID, "match_id", m.ID,
			"quality", f.Proposal.Quality, "q_min", f.Proposal.QMin, "anchor_wait_ms", f.Proposal.AnchorWait.Milliseconds())
		s.announceMatch(ctx, f)
		s.queueChanged(m.GuildID)
	}
	s.matchesFormed(formed)
	if err != nil {
		return err
	}
	return s.refreshQueueSizes(ctx)
}

// announceMatch posts f's announcement to its channel: the match's (the
// queue's channel, else where the anchor joined), else the queue's. A
// failed post is logged; the match is open either way, and its players
// also find it with /match.
func (s *Scheduler) announceMatch(ctx context.Context, f ladder.FormedMatch) {
	m := f.Match
	channel := m.ChannelID
	if channel == "" {
		channel = f.Queue.ChannelID
	}
	if channel == "" {
		s.log.Warn("formed match not announced: no channel", "guild_id", m.GuildID, "match_id", m.ID)
		return
	}
	public := channel
	if s.opt.Rooms != nil {
		channel = s.opt.Rooms.Open(ctx, f, channel)
	}
	defer s.predictionPost(ctx, f, public)
	id, err := s.send(ctx, channel, commands.Announcement(s.lang(ctx, m.GuildID), f))
	if err == nil {
		// Kept so that the ready-check job can edit it (expireReady).
		err = s.svc.RecordAnnouncement(ctx, ladder.Announcement{MatchID: m.ID, ChannelID: channel, MessageID: id})
	}
	if err != nil {
		s.log.Warn("match announcement not posted", "guild_id", m.GuildID, "match_id", m.ID, "channel_id", channel, "err", err)
	}
	// A match on as it forms starts its map pick now; the others start
	// theirs when the ready check passes or the draft ends.
	s.startMaps(ctx, m, channel)
}

// runUnclaimed runs a job that has no period (the matchmaking pass) without
// claiming a job_runs row; see matchmake for why.
func runUnclaimed(ctx context.Context, j job, now time.Time) (ran bool, err error) {
	if err := j.run(ctx, now); err != nil {
		return true, fmt.Errorf("jobs: %s: %w", j.name, err)
	}
	return true, nil
}

// predictionPost invites predictions on f in the queue's public channel
// when its queue takes them; in captains mode once the captains have
// picked the teams. A failed post is logged: the match goes on.
func (s *Scheduler) predictionPost(ctx context.Context, f ladder.FormedMatch, channel string) {
	if s.opt.Community == nil || commands.Drafting(f) {
		return // a drafted match's post waits for its teams (DraftedPredictionPost)
	}
	st, err := s.opt.Community.SettingsOf(ctx, f.Queue.ID)
	if err == nil && st.Predictions {
		_, err = s.send(ctx, channel, commands.PredictionPost(s.lang(ctx, f.Match.GuildID), f.Match, f.Queue.Name))
	}
	if err != nil {
		s.log.Warn("prediction post not posted", "guild_id", f.Match.GuildID, "match_id", f.Match.ID, "err", err)
	}
}
