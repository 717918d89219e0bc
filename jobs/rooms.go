package jobs

import (
	"context"
	"time"
)

// JobRooms closes the rooms of ended matches after their linger, moves
// players back to the lobby voice channel, deletes empty voice channels,
// gives substitutes access and cleans up rooms a crashed process left half
// made (rooms.Manager.Tick). Like the ready-check job it claims no
// job_runs row: a room's linger wants a tick of seconds, and every step is
// safe in two processes at once (the close is claimed by a conditional
// state change; a channel already deleted counts as deleted).
const JobRooms = "rooms"

// roomsSpec is how often the rooms job runs: a room closes at most this
// long after its linger ran out.
const roomsSpec = "@every 5s"

// rooms is JobRooms. A process without the bot leaves rooms to the bot
// processes, which can call Discord.
func (s *Scheduler) rooms(ctx context.Context, _ time.Time) error {
	if s.opt.Rooms == nil || s.poster == nil {
		return nil
	}
	st, err := s.opt.Rooms.Tick(ctx)
	if st.Reconciled+st.Closed+st.VoiceGone > 0 {
		s.log.Info("match rooms tidied", "reconciled", st.Reconciled, "ended", st.Ended, "closed", st.Closed,
			"voice_deleted", st.VoiceGone, "added", st.Added)
	}
	return err
}
