package ladder

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// EventType names a ladder event sent to outgoing webhooks.
type EventType string

// The event types a webhook may subscribe to.
const (
	EventMatchFormed    EventType = "match.formed"
	EventMatchConfirmed EventType = "match.confirmed"
	EventMatchDisputed  EventType = "match.disputed"
	EventMatchResolved  EventType = "match.resolved"
	EventMatchVoided    EventType = "match.voided"
	EventSeasonClosed   EventType = "season.closed"
)

// EventTypes lists every event type, in the order the docs give them.
var EventTypes = []EventType{EventMatchFormed, EventMatchConfirmed, EventMatchDisputed,
	EventMatchResolved, EventMatchVoided, EventSeasonClosed}

// Webhook is a guild's subscription of a URL to some event types. Secret
// signs every delivery; it is kept in clear because signing needs it, and
// shown to the API caller only once, at creation.
type Webhook struct {
	ID        int64
	GuildID   string
	URL       string
	Events    []EventType
	Secret    string
	CreatedBy string
	CreatedAt time.Time
}

// Subscribes reports whether w wants events of type t.
func (w Webhook) Subscribes(t EventType) bool { return slices.Contains(w.Events, t) }

// Event is one ladder event as the outbox stores it: Body is the exact
// JSON every delivery posts, fixed at the change's commit so that retries
// carry the same bytes and the same signature.
type Event struct {
	ID      string
	Type    EventType
	GuildID string
	At      time.Time
	Body    []byte
}

// eventEnvelope is the delivered JSON: {"id","type","guild_id","at","data"}.
type eventEnvelope struct {
	ID      string    `json:"id"`
	Type    EventType `json:"type"`
	GuildID string    `json:"guild_id"`
	At      time.Time `json:"at"`
	Data    any       `json:"data"`
}

// NewEvent builds an event with a fresh ID ("evt_" and 32 hex digits)
// whose body carries data. Receivers deduplicate by the ID: a delivery is
// retried until it is acknowledged, so a crash between the receiver's 2xx
// and our record of it sends the same ID again.
//
// The ID's first 12 digits are the event's time in Unix milliseconds and
// the other 20 are random (80 bits), as a UUIDv7 orders its bits: IDs
// sort by their events' times, and the events table's primary key takes
// each new one at its right edge instead of on a random page of the
// index, which a random ID would dirty (and, the first time after a
// checkpoint, log whole) in every rated write.
func NewEvent(t EventType, guildID string, at time.Time, data any) (Event, error) {
	// The random part only has to be unique, not secret (receivers
	// deduplicate by the ID), so the runtime's per-thread ChaCha8
	// generator, seeded from the OS, serves without pulling crypto/rand
	// into ladder.
	var raw [16]byte
	ms := uint64(max(at.UnixMilli(), 0)) & (1<<48 - 1)
	binary.BigEndian.PutUint64(raw[:8], ms<<16|rand.Uint64()&0xffff)
	binary.BigEndian.PutUint64(raw[8:], rand.Uint64())
	e := Event{ID: "evt_" + hex.EncodeToString(raw[:]), Type: t, GuildID: guildID, At: at.UTC()}
	body, err := json.Marshal(eventEnvelope{ID: e.ID, Type: t, GuildID: guildID, At: e.At, Data: data})
	if err != nil {
		return Event{}, fmt.Errorf("ladder: event body: %w", err)
	}
	e.Body = body
	return e, nil
}

// MatchEventData is the data of the match.* events.
type MatchEventData struct {
	MatchID int64      `json:"match_id"`
	QueueID int64      `json:"queue_id"`
	Season  int64      `json:"season_id"`
	State   MatchState `json:"state"`
	Team1   []string   `json:"team1"`
	Team2   []string   `json:"team2"`
	// Winner is 1, 2 or 0 (a draw); absent while the match has no result.
	Winner *int `json:"winner,omitempty"`
	// PTeam1 is the model's P(team 1 wins) when the match formed.
	PTeam1   float64 `json:"p_team1"`
	Reason   string  `json:"reason,omitempty"`
	Evidence string  `json:"evidence,omitempty"`
	// By is the moderator who resolved or voided the match, or who disputed it.
	By string `json:"by,omitempty"`
	// Map is the map the match was played on, once chosen.
	Map string `json:"map,omitempty"`
	// Score is a series' score, team 1's wins first ("2-1").
	Score string `json:"score,omitempty"`
	// Maps are the maps of a series' games, in order, when it picks maps.
	Maps []string `json:"maps,omitempty"`
}

// matchEventData describes m for a match.* event.
func matchEventData(m Match) MatchEventData {
	d := MatchEventData{MatchID: m.ID, QueueID: m.QueueID, Season: m.SeasonID, State: m.State,
		Team1: nonNil(m.Teams[0]), Team2: nonNil(m.Teams[1]), PTeam1: m.PTeam1, Map: m.Map, Score: m.Score, Maps: m.Maps}
	if m.Winner != NoResult {
		w := m.Winner
		d.Winner = &w
	}
	switch m.State {
	case StateDisputed:
		d.Reason, d.Evidence, d.By = m.DisputeReason, m.Evidence, m.DisputedBy
	case StateResolved, StateVoided:
		d.By = m.ResolvedBy
	}
	return d
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// SeasonEventData is the data of season.closed.
type SeasonEventData struct {
	SeasonID int64     `json:"season_id"`
	Number   int       `json:"number"`
	EndedAt  time.Time `json:"ended_at"`
	// Next is the number of the season that opened.
	Next int `json:"next"`
}

// Outbox is what a transaction needs to record events: AddEvent writes e
// and one pending delivery per webhook of e's guild subscribed to its type,
// in the caller's transaction, so that an event exists if and only if the
// change it describes committed.
type Outbox interface {
	AddEvent(ctx context.Context, e Event) error
}

// MatchEvent builds the match.* event t describing m. A store that
// inserts m in the same statement as the event (RatedWrite.Event) builds
// it with m.ID 0 and sets data.match_id itself.
func MatchEvent(t EventType, m Match, at time.Time) (Event, error) {
	return NewEvent(t, m.GuildID, at, matchEventData(m))
}

// emitMatch records a match.* event describing m in tx. A guild without
// webhooks still gets the event row; it is cheap, and it keeps the rule
// "every committed change has its event" free of exceptions.
func emitMatch(ctx context.Context, tx Outbox, t EventType, m Match, at time.Time) error {
	e, err := MatchEvent(t, m, at)
	if err != nil {
		return err
	}
	return tx.AddEvent(ctx, e)
}

// emitSeasonClosed records season.closed in tx.
func emitSeasonClosed(ctx context.Context, tx Outbox, closed Season, next int, at time.Time) error {
	e, err := NewEvent(EventSeasonClosed, closed.GuildID, at,
		SeasonEventData{SeasonID: closed.ID, Number: closed.Number, EndedAt: closed.EndedAt, Next: next})
	if err != nil {
		return err
	}
	return tx.AddEvent(ctx, e)
}

// parseEventTypes validates a webhook's event list: at least one, each
// known, no repeats; order is kept.
func parseEventTypes(names []string) ([]EventType, error) {
	if len(names) == 0 {
		return nil, Errorf(CodeInvalid, `"events" needs at least one of %s`, eventTypeList())
	}
	var out []EventType
	for _, n := range names {
		t := EventType(strings.TrimSpace(n))
		if !slices.Contains(EventTypes, t) {
			return nil, Errorf(CodeInvalid, "unknown event %q: want one of %s", n, eventTypeList())
		}
		if slices.Contains(out, t) {
			return nil, Errorf(CodeInvalid, "event %q is listed twice", n)
		}
		out = append(out, t)
	}
	return out, nil
}

func eventTypeList() string {
	s := make([]string, len(EventTypes))
	for i, t := range EventTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
