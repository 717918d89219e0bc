package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/ladderbot/ladderbot/commands"
)

// JobButtons removes the buttons of the messages of matches that have
// ended, every minute: the announcement (report, Vote to cancel, Ready, a
// captain's menu), the request to confirm a report, a no-show report and
// any substitute request. However the match ended — a click, a command,
// the auto-confirm or abandon job, a moderator, the HTTP API — nothing on
// it is left looking as if it still worked. One process claims each
// minute.
const JobButtons = "buttons"

// buttonsBatch is how many messages one run edits at most; the rest wait
// for the next minute.
const buttonsBatch = 100

// closeButtons is JobButtons. A message Discord refuses to edit (deleted,
// or the bot lost access: a JSON error code) is closed as it is; any other
// failure leaves it for the next run.
func (s *Scheduler) closeButtons(ctx context.Context, _ time.Time) error {
	if s.poster == nil {
		return nil
	}
	as, err := s.svc.OpenMessages(ctx, buttonsBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, a := range as {
		if s.isStopping(ctx) {
			// Shutting down: the rest waits for the next run. Discord's
			// rate-limit waits do not watch the context, so going on would
			// hold the shutdown for a whole batch.
			break
		}
		// One attempt each: the next run tries again what failed.
		err := s.postOrStop(ctx, a.ChannelID, commands.ClosedButtons(a))
		if errors.Is(err, errStopping) {
			break
		}
		if code := discordCode(err); err != nil && code == 0 {
			errs = append(errs, err)
			continue
		} else if err != nil {
			s.log.Info("message of an ended match not edited", "match_id", a.MatchID, "channel_id", a.ChannelID, "code", code)
		}
		if err := s.svc.CloseMessage(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// postOrStop posts msg, but returns as soon as the scheduler stops or
// ctx ends: discordgo waits
// out a rate-limit bucket (behind every request queued on it) without
// watching the context, and a shutdown must not wait for a batch of edits
// of ended matches. The abandoned request ends with the process.
func (s *Scheduler) postOrStop(ctx context.Context, channelID string, msg commands.Reply) error {
	done := make(chan error, 1)
	go func() {
		_, err := s.poster.Post(ctx, channelID, msg)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return errStopping
	case <-s.stopping:
		return errStopping
	}
}

// errStopping is postOrStop's answer when the scheduler stops first.
var errStopping = errors.New("jobs: stopping")

// isStopping reports whether the scheduler is stopping or ctx has ended.
func (s *Scheduler) isStopping(ctx context.Context) bool {
	select {
	case <-s.stopping:
		return true
	default:
		return ctx.Err() != nil
	}
}
