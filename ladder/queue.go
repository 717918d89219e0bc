package ladder

import (
	"context"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/matchmaking"
	"slices"
	"time"
)

// InviteTimeout is how long a party invitation waits for the partner.
const InviteTimeout = 5 * time.Minute

// Matchmaking returns the queue's matchmaking settings; unset (zero) bucket
// settings and RD_max take docs/spec.md 3's defaults. QFloor 0 is kept: it is the
// "match immediately" mode.
func (q Queue) Matchmaking() matchmaking.Settings {
	d := matchmaking.DefaultSettings()
	s := matchmaking.Settings{TeamSize: q.TeamSize, QStart: q.QStart, QFloor: q.QFloor,
		Buckets: q.Buckets, Bucket: q.Bucket, Boost: q.Boost, RDMax: q.RDMax,
		PartyMaxWeight: q.PartyMaxWeight, PartyMedianWeight: q.PartyMedianWeight, OrdinalDeviations: q.OrdinalDeviations}
	if s.Buckets == 0 {
		s.Buckets = d.Buckets
	}
	if s.Bucket == 0 {
		s.Bucket = d.Bucket
	}
	if s.RDMax == 0 {
		s.RDMax = d.RDMax
	}
	return s
}

// JoinRequest asks to queue UserID, alone or, with PartnerID, as a party
// once the partner accepts (docs/spec.md 3, 6).
type JoinRequest struct {
	GuildID string
	// Queue is the queue's name; "" is the guild's default queue.
	Queue     string
	UserID    string
	Name      string
	PartnerID string
	ChannelID string
	// Roles are the member's Discord role IDs, for the queue's role
	// requirements; RolesKnown says the request carried them.
	Roles      []string
	RolesKnown bool
}

// JoinResult says what a join or a party acceptance did.
type JoinResult struct {
	Queue Queue
	// Ticket is the player's ticket once queued (zero while an invitation waits).
	Ticket Ticket
	// Invite is the invitation sent to the partner, waiting for acceptance.
	Invite Invite
	// AlreadyDone is set when the player was already queued there.
	AlreadyDone bool
	// Formed are the matches the pass after joining formed (any players).
	Formed []FormedMatch
}

// FormedMatch is a match the queue opened, with the proposal that explains
// it (Q, Δ_eff, each team's effective rating); Match.PTeam1 is the model's
// predicted win probability of team 1.
type FormedMatch struct {
	Match    Match
	Proposal matchmaking.Proposal
	Queue    Queue
	// Ready is the match's ready check; MatchID 0 when the queue has none.
	Ready ReadyCheck
	// Draft is the match's captains draft; MatchID 0 when the queue
	// picks balanced teams.
	Draft Draft
}

// inQueueTx runs fn in one transaction.
func (s *Service) inQueueTx(ctx context.Context, fn func(qt Tx) error) error {
	return s.store.InTx(ctx, fn)
}

// free checks that userID may queue: not banned, not in an open or
// reported match, not holding a ticket. It returns the ticket when the
// player already holds one (err nil), so a repeated join is idempotent.
func (s *Service) free(ctx context.Context, qt Tx, guildID, userID string, now time.Time) (Ticket, error) {
	b, err := qt.Ban(ctx, guildID, userID)
	switch {
	case err == nil && (b.Until.IsZero() || now.Before(b.Until)):
		if b.Until.IsZero() {
			return Ticket{}, Errorf(CodeForbidden, "<@%s> is banned from the queue", userID)
		}
		return Ticket{}, Errorf(CodeForbidden, "<@%s> is banned from the queue until %s", userID, b.Until.Format(time.RFC3339))
	case err != nil && ErrorCode(err) != CodeNotFound:
		return Ticket{}, err
	}
	if err := cooldownCheck(ctx, qt, guildID, userID, now); err != nil {
		return Ticket{}, err
	}
	active, err := qt.ActivePlayers(ctx, guildID, []string{userID})
	if err != nil {
		return Ticket{}, err
	}
	if len(active) > 0 {
		return Ticket{}, Errorf(CodeConflict, "<@%s> is still in a match; report it first", userID)
	}
	t, err := qt.TicketOf(ctx, guildID, userID)
	if err != nil && ErrorCode(err) != CodeNotFound {
		return Ticket{}, err
	}
	return t, nil
}

// JoinQueue queues a player, or invites a partner to queue together, then
// runs a matchmaking pass over the queue. Joining again the queue one is
// in answers AlreadyDone; being in another queue of the guild, in an open
// match, or banned is refused.
func (s *Service) JoinQueue(ctx context.Context, req JoinRequest) (JoinResult, error) {
	if err := validateSnowflake("guild", req.GuildID); err != nil {
		return JoinResult{}, err
	}
	if err := validateSnowflake("user", req.UserID); err != nil {
		return JoinResult{}, err
	}
	if req.PartnerID != "" {
		if err := validateSnowflake("partner", req.PartnerID); err != nil {
			return JoinResult{}, err
		}
		if req.PartnerID == req.UserID {
			return JoinResult{}, Errorf(CodeInvalid, "you cannot be your own partner")
		}
	}
	var res JoinResult
	now := s.now()
	if s.gate != nil {
		// The gate reads ratings and settings of its own; asking it before
		// the transaction keeps the write short and on one connection.
		q, err := resolveQueue(ctx, s.store, req.GuildID, req.Queue)
		if err != nil {
			return JoinResult{}, fmt.Errorf("ladder: join queue: %w", err)
		}
		who := []Entrant{{UserID: req.UserID, Roles: req.Roles, RolesKnown: req.RolesKnown}}
		if req.PartnerID != "" {
			who = append(who, Entrant{UserID: req.PartnerID})
		}
		if err := s.allowJoin(ctx, q, who, now); err != nil {
			return JoinResult{}, fmt.Errorf("ladder: join queue: %w", err)
		}
	}
	err := s.inQueueTx(ctx, func(qt Tx) error {
		if err := s.join(ctx, qt, req, now, &res); err != nil {
			return err
		}
		if res.Ticket.ID == 0 || res.AlreadyDone {
			return nil
		}
		var err error
		res.Formed, err = s.matchmakeTx(ctx, qt, res.Queue.ID, &res.Queue)
		return err
	})
	if err != nil {
		return JoinResult{}, fmt.Errorf("ladder: join queue: %w", err)
	}
	return res, nil
}

// join is JoinQueue's checks and ticket in its transaction, before the
// matchmaking pass.
func (s *Service) join(ctx context.Context, qt Tx, req JoinRequest, now time.Time, res *JoinResult) error {
	g, err := qt.Guild(ctx, req.GuildID)
	if err != nil {
		return err
	}
	q, err := resolveQueue(ctx, qt, req.GuildID, req.Queue)
	if err != nil {
		return err
	}
	if q.Disabled {
		return Errorf(CodeInvalid, "queue %s is closed", q.Name)
	}
	*res = JoinResult{Queue: q}
	if err := upsertNames(ctx, qt, req.GuildID, []string{req.UserID}, nil, map[string]string{req.UserID: req.Name}); err != nil {
		return err
	}
	t, err := s.free(ctx, qt, req.GuildID, req.UserID, now)
	if err != nil {
		return err
	}
	if req.PartnerID != "" {
		return s.invite(ctx, qt, q, t, req, now, res)
	}
	if t.ID != 0 {
		if t.QueueID != q.ID {
			return Errorf(CodeConflict, "you are already in another queue; leave it first")
		}
		res.Ticket, res.AlreadyDone = t, true
		return nil
	}
	res.Ticket, err = qt.AddTicket(ctx, Ticket{GuildID: req.GuildID, QueueID: q.ID, ChannelID: req.ChannelID,
		UserIDs: []string{req.UserID}, JoinedAt: now, ExpiresAt: now.Add(queueTimeout(g))})
	return reword(err, CodeConflict, "already queued")
}

func queueTimeout(g Guild) time.Duration {
	if g.QueueTimeout > 0 {
		return g.QueueTimeout
	}
	return DefaultQueueTimeout
}

// invite records req's party invitation; the inviter may already hold a
// ticket of q, which the partner then joins, up to the team size.
func (s *Service) invite(ctx context.Context, qt Tx, q Queue, t Ticket, req JoinRequest, now time.Time, res *JoinResult) error {
	if t.ID != 0 && t.QueueID != q.ID {
		return Errorf(CodeConflict, "you are already in another queue; leave it first")
	}
	if t.ID != 0 && slices.Contains(t.UserIDs, req.PartnerID) {
		res.Ticket, res.AlreadyDone = t, true
		return nil
	}
	if size := max(len(t.UserIDs), 1) + 1; size > q.TeamSize {
		return Errorf(CodeInvalid, "queue %s plays %dv%d: a party has at most %d players", q.Name, q.TeamSize, q.TeamSize, q.TeamSize)
	}
	pt, err := s.free(ctx, qt, req.GuildID, req.PartnerID, now)
	if err != nil {
		return err
	}
	if pt.ID != 0 {
		return Errorf(CodeConflict, "<@%s> is already queued", req.PartnerID)
	}
	if old, err := qt.InviteTo(ctx, req.GuildID, req.PartnerID); err == nil && old.From == req.UserID && now.Before(old.ExpiresAt) {
		res.Invite, res.Ticket, res.AlreadyDone = old, t, true
		return nil
	}
	// a newer invitation replaces the inviter's and the partner's pending ones
	if err := qt.DeleteInvites(ctx, req.GuildID, req.UserID); err != nil {
		return err
	}
	if err := qt.DeleteInvites(ctx, req.GuildID, req.PartnerID); err != nil {
		return err
	}
	res.Ticket = t
	res.Invite, err = qt.AddInvite(ctx, Invite{GuildID: req.GuildID, QueueID: q.ID, From: req.UserID, To: req.PartnerID,
		ChannelID: req.ChannelID, CreatedAt: now, ExpiresAt: now.Add(InviteTimeout)})
	return reword(err, CodeConflict, "an invitation is already pending")
}

// AcceptParty accepts the invitation addressed to userID: the two queue
// together as one party ticket (or the partner joins the inviter's ticket),
// then a matchmaking pass runs. roles are the accepting member's Discord
// roles (nil: not known), for the queue's role requirements; the whole
// party must meet the queue's requirements.
func (s *Service) AcceptParty(ctx context.Context, guildID, userID, name string, roles []string) (JoinResult, error) {
	var res JoinResult
	now := s.now()
	if err := s.allowParty(ctx, guildID, userID, roles, now); err != nil {
		return JoinResult{}, fmt.Errorf("ladder: accept party: %w", err)
	}
	err := s.inQueueTx(ctx, func(qt Tx) error {
		g, err := qt.Guild(ctx, guildID)
		if err != nil {
			return err
		}
		in, err := qt.InviteTo(ctx, guildID, userID)
		if ErrorCode(err) == CodeNotFound || err == nil && !now.Before(in.ExpiresAt) {
			if t, terr := qt.TicketOf(ctx, guildID, userID); terr == nil && len(t.UserIDs) > 1 {
				res.Ticket, res.AlreadyDone = t, true // accepted before
				q, err := qt.Queue(ctx, t.QueueID)
				res.Queue = q
				return err
			}
			return Errorf(CodeNotFound, "no party invitation is waiting for you")
		}
		if err != nil {
			return err
		}
		// Both players' rows first, before anything else of theirs: a
		// queue ban takes the banned player's row first too
		// (BanFromQueue), so a ban of the inviter and this acceptance are
		// ordered, and neither waits for the other holding a row it needs.
		if err := upsertNames(ctx, qt, guildID, []string{userID, in.From}, nil, map[string]string{userID: name}); err != nil {
			return err
		}
		if err := qt.DeleteInvites(ctx, guildID, userID); err != nil {
			return err
		}
		if err := qt.DeleteInvites(ctx, guildID, in.From); err != nil {
			return err
		}
		q, err := qt.Queue(ctx, in.QueueID)
		if err != nil {
			return err
		}
		res.Queue = q
		for _, u := range []string{userID, in.From} {
			t, err := s.free(ctx, qt, guildID, u, now)
			if err != nil {
				return err
			}
			if u == userID && t.ID != 0 {
				return Errorf(CodeConflict, "you are already queued; leave first to join a party")
			}
			if u == in.From && t.ID != 0 {
				if t.QueueID != q.ID || len(t.UserIDs) >= q.TeamSize {
					return Errorf(CodeConflict, "<@%s>'s party can take no one more", in.From)
				}
				if err := qt.AddTicketMember(ctx, t, userID); err != nil {
					return reword(err, CodeConflict, "already queued")
				}
				t.UserIDs = append(t.UserIDs, userID)
				res.Ticket = t
				return nil
			}
		}
		res.Ticket, err = qt.AddTicket(ctx, Ticket{GuildID: guildID, QueueID: q.ID, ChannelID: in.ChannelID,
			UserIDs: []string{in.From, userID}, JoinedAt: now, ExpiresAt: now.Add(queueTimeout(g))})
		return reword(err, CodeConflict, "a player of this party is already queued")
	})
	if err != nil {
		return JoinResult{}, fmt.Errorf("ladder: accept party: %w", err)
	}
	if !res.AlreadyDone {
		if res.Formed, err = s.Matchmake(ctx, res.Queue.ID); err != nil {
			return res, err
		}
	}
	return res, nil
}

// allowParty asks the gate whether the party userID is invited to may
// enter its queue: the accepting player with their roles, the inviter and
// the members of the inviter's ticket.
func (s *Service) allowParty(ctx context.Context, guildID, userID string, roles []string, now time.Time) error {
	if s.gate == nil {
		return nil
	}
	in, err := s.store.InviteTo(ctx, guildID, userID)
	if err != nil || !now.Before(in.ExpiresAt) {
		return nil // no live invitation: the transaction says so
	}
	q, err := s.store.Queue(ctx, in.QueueID)
	if err != nil {
		return err
	}
	who := []Entrant{{UserID: userID, Roles: roles, RolesKnown: roles != nil}}
	members := []string{in.From}
	if t, err := s.store.TicketOf(ctx, guildID, in.From); err == nil {
		members = t.UserIDs
	}
	for _, u := range members {
		if u != userID {
			who = append(who, Entrant{UserID: u})
		}
	}
	return s.allowJoin(ctx, q, who, now)
}

// DeclineParty drops the invitation addressed to userID and returns it.
func (s *Service) DeclineParty(ctx context.Context, guildID, userID string) (Invite, error) {
	var in Invite
	err := s.inQueueTx(ctx, func(qt Tx) error {
		var err error
		if in, err = qt.InviteTo(ctx, guildID, userID); err != nil {
			return reword(err, CodeNotFound, "no party invitation is waiting for you")
		}
		return qt.DeleteInvites(ctx, guildID, userID)
	})
	if err != nil {
		return Invite{}, fmt.Errorf("ladder: decline party: %w", err)
	}
	return in, nil
}

// LeaveQueue takes the player's ticket off the queue — the whole party's,
// since a party queues as one — and drops their pending invitations.
// Leaving when not queued answers AlreadyDone.
func (s *Service) LeaveQueue(ctx context.Context, guildID, userID string) (t Ticket, alreadyDone bool, err error) {
	err = s.inQueueTx(ctx, func(qt Tx) error {
		if err := qt.DeleteInvites(ctx, guildID, userID); err != nil {
			return err
		}
		var err error
		t, err = qt.TicketOf(ctx, guildID, userID)
		if ErrorCode(err) == CodeNotFound {
			alreadyDone = true
			return nil
		}
		if err != nil {
			return err
		}
		return qt.DeleteTickets(ctx, []int64{t.ID})
	})
	if err != nil {
		return Ticket{}, false, fmt.Errorf("ladder: leave queue: %w", err)
	}
	return t, alreadyDone, nil
}
