package ladder

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Announcement is the Discord message that announced a formed match. It
// is kept so that whoever ends the match's ready check later — a click in
// any process, or the deadline job after a restart — can edit that message
// instead of leaving its buttons live above a new one.
//
// A match's other messages with buttons are kept the same way, each under
// a Kind: its substitute requests (SubMessage), the request to confirm a
// report (MessageReport) and a no-show report (MessageNoShow). Once the
// match ends, every one of them, the announcement included, loses its
// buttons (OpenMessages, CloseMessage).
type Announcement struct {
	MatchID int64
	// Kind is "" for the announcement itself.
	Kind      string
	ChannelID string
	MessageID string
}

// Kinds of a match's messages other than its announcement.
const (
	MessageReport = "report"
	MessageNoShow = "noshow"
	// MessageRematch is a rated result's offer of a rematch: its button
	// stays until RematchWindow after the match was rated, or until the
	// rematch is formed.
	MessageRematch = "rematch"
	// MessageResultRematch is the results channel's post of a rated
	// result, while it carries the Rematch button: the button goes as
	// MessageRematch's does (the post itself stays).
	MessageResultRematch = "rematch:results"
	// MessageSeries is the message of a match played as a series, with
	// the buttons of its games (package formats).
	MessageSeries = "series"
)

// RematchWindow is how long after its result a match's players may ask
// for a rematch (package joins).
const RematchWindow = 5 * time.Minute

// SubMessage is the kind of the request for a substitute for userID.
func SubMessage(userID string) string { return "sub:" + userID }

// AnnouncementStore keeps each match's announcement.
type AnnouncementStore interface {
	// SaveAnnouncement stores a's message for its match, replacing one
	// stored before (a repost after a failed send).
	SaveAnnouncement(ctx context.Context, a Announcement) error
	// AnnouncementOf returns a match's announcement; CodeNotFound when
	// none was recorded.
	AnnouncementOf(ctx context.Context, matchID int64) (Announcement, error)
	// MatchMessage returns a match's message of kind (not ""); CodeNotFound
	// when none was recorded.
	MatchMessage(ctx context.Context, matchID int64, kind string) (Announcement, error)
	// OpenMessages returns up to limit messages, announcements included,
	// of matches that have ended (confirmed, resolved, cancelled, voided)
	// whose buttons are not yet removed, oldest match first; a rematch
	// offer only once its match was rated at or before offersBefore.
	OpenMessages(ctx context.Context, limit int, offersBefore time.Time) ([]Announcement, error)
	// CloseMessage records that a message's buttons are gone.
	CloseMessage(ctx context.Context, a Announcement) error
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
	if err := validKind(a.Kind); err != nil {
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

// validKind refuses a message kind the bot never records.
func validKind(kind string) error {
	if kind == "" || kind == MessageReport || kind == MessageNoShow || kind == MessageRematch || kind == MessageResultRematch || kind == MessageSeries {
		return nil
	}
	if u, ok := strings.CutPrefix(kind, "sub:"); ok && validateSnowflake("user", u) == nil {
		return nil
	}
	return Errorf(CodeInvalid, "no match message is of kind %q", kind)
}

// MatchMessage returns a match's message of kind, and false when none was
// recorded (posted before this was kept, or the post failed).
func (s *Service) MatchMessage(ctx context.Context, matchID int64, kind string) (Announcement, bool, error) {
	if kind == "" {
		return s.AnnouncementOf(ctx, matchID)
	}
	a, err := s.store.MatchMessage(ctx, matchID, kind)
	switch {
	case ErrorCode(err) == CodeNotFound:
		return Announcement{}, false, nil
	case err != nil:
		return Announcement{}, false, fmt.Errorf("ladder: %s message of match %d: %w", kind, matchID, err)
	}
	return a, true, nil
}

// OpenMessages returns up to limit messages of ended matches that still
// show buttons, for the job that removes them.
func (s *Service) OpenMessages(ctx context.Context, limit int) ([]Announcement, error) {
	as, err := s.store.OpenMessages(ctx, limit, s.now().Add(-RematchWindow))
	if err != nil {
		return nil, fmt.Errorf("ladder: open messages: %w", err)
	}
	return as, nil
}

// CloseMessage records that a message no longer shows buttons: the
// buttons were removed, or the message is gone from Discord.
func (s *Service) CloseMessage(ctx context.Context, a Announcement) error {
	if err := s.store.CloseMessage(ctx, a); err != nil {
		return fmt.Errorf("ladder: close message %s of match %d: %w", a.Kind, a.MatchID, err)
	}
	return nil
}
