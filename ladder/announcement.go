package ladder

import (
	"context"
	"fmt"
)

// Announcement is the Discord message that announced a formed match. It
// is kept so that whoever ends the match's ready check later — a click in
// any process, or the deadline job after a restart — can edit that message
// instead of leaving its buttons live above a new one.
type Announcement struct {
	MatchID   int64
	ChannelID string
	MessageID string
}

// AnnouncementStore keeps each match's announcement.
type AnnouncementStore interface {
	// SaveAnnouncement stores a's message for its match, replacing one
	// stored before (a repost after a failed send).
	SaveAnnouncement(ctx context.Context, a Announcement) error
	// AnnouncementOf returns a match's announcement; CodeNotFound when
	// none was recorded.
	AnnouncementOf(ctx context.Context, matchID int64) (Announcement, error)
}

// RecordAnnouncement remembers the message that announced a match. The IDs
// are Discord snowflakes; anything else is refused.
func (s *Service) RecordAnnouncement(ctx context.Context, a Announcement) error {
	if a.MatchID <= 0 {
		return Errorf(CodeInvalid, "an announcement needs a match")
	}
	if err := validateSnowflake("channel", a.ChannelID); err != nil {
		return err
	}
	if err := validateSnowflake("message", a.MessageID); err != nil {
		return err
	}
	if err := s.store.SaveAnnouncement(ctx, a); err != nil {
		return fmt.Errorf("ladder: record announcement of match %d: %w", a.MatchID, err)
	}
	return nil
}

// AnnouncementOf returns the message that announced a match, and false
// when none was recorded (announced before this was kept, or the post
// failed).
func (s *Service) AnnouncementOf(ctx context.Context, matchID int64) (Announcement, bool, error) {
	a, err := s.store.AnnouncementOf(ctx, matchID)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return Announcement{}, false, nil
	case err != nil:
		return Announcement{}, false, fmt.Errorf("ladder: announcement of match %d: %w", matchID, err)
	}
	return a, true, nil
}
