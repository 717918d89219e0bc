package ladder

import (
	"context"
	"time"
)

// Entrant is a player asking to enter a queue, with what Discord told of
// them when they asked.
type Entrant struct {
	UserID string
	// Roles are the member's role IDs; RolesKnown is false when the
	// request did not carry them (a partner invited by name, whose roles
	// are checked when they accept).
	Roles      []string
	RolesKnown bool
}

// JoinGate decides whether players may enter a queue: its requirements
// and open hours. Package joins implements it; the Service asks it on
// every way into a queue (a join, a party invitation and its acceptance,
// a rematch), so every entry point refuses the same way. A refusal is a
// coded error whose message says what failed and what the player has.
type JoinGate interface {
	AllowJoin(ctx context.Context, q Queue, who []Entrant, at time.Time) error
}

// SetJoinGate makes g decide every entry into a queue; nil (the default)
// lets everyone in. Call it once, before the Service is used.
func (s *Service) SetJoinGate(g JoinGate) { s.gate = g }

// allowJoin asks the gate, if any, whether who may enter q now.
func (s *Service) allowJoin(ctx context.Context, q Queue, who []Entrant, at time.Time) error {
	if s.gate == nil || len(who) == 0 {
		return nil
	}
	return s.gate.AllowJoin(ctx, q, who, at)
}

// AllowJoin answers whether who may enter queue q of a guild now, as a
// join would: the queue's requirements and open hours (JoinGate).
func (s *Service) AllowJoin(ctx context.Context, q Queue, who []Entrant) error {
	return s.allowJoin(ctx, q, who, s.now())
}
