package ladder

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// ShowdownStore keeps the Pokémon Showdown names players linked with
// /link showdown, one per player and guild.
type ShowdownStore interface {
	// LinkShowdown sets (or replaces) the player's Showdown name.
	LinkShowdown(ctx context.Context, guildID, userID, name string, at time.Time) error
	// ShowdownNames returns the linked names of those of userIDs that have
	// one, by user ID.
	ShowdownNames(ctx context.Context, guildID string, userIDs []string) (map[string]string, error)
	// ReplayMatch returns the match a replay (by its ReplayKey) proved
	// in the guild, 0 when none.
	ReplayMatch(ctx context.Context, guildID, replayID string) (int64, error)
	// AddReplayMatch keeps that a replay proved a match; a replay kept
	// already is a CodeConflict.
	AddReplayMatch(ctx context.Context, guildID, replayID string, matchID int64, at time.Time) error
}

// ReplayKey is the replay a Showdown replay URL names, as the guild's
// record of proofs keeps it: the URL's last path segment in lower case,
// without a query, a fragment, a trailing slash, .json or .log. The
// replay server serves one battle at all those spellings (and only one
// host is accepted), so a replay given again in another spelling is the
// same replay. "" when the URL names nothing.
func ReplayKey(raw string) string {
	r := strings.ToLower(strings.TrimSpace(raw))
	if i := strings.IndexByte(r, '#'); i >= 0 {
		r = r[:i]
	}
	if i := strings.IndexByte(r, '?'); i >= 0 {
		r = r[:i]
	}
	r = strings.TrimRight(r, "/")
	r = r[strings.LastIndexByte(r, '/')+1:]
	if s, ok := strings.CutSuffix(r, ".json"); ok {
		return s
	}
	return strings.TrimSuffix(r, ".log")
}

// replayProof is the replay URL's key and the match it proved in the
// guild (0: none), refusing a replay that proved another match than m: a
// replay is one battle, and a rematch of the same four players is another
// battle with its own replay.
func replayProof(ctx context.Context, tx Tx, m Match, replayURL string) (string, int64, error) {
	key := ReplayKey(replayURL)
	if key == "" {
		return "", 0, nil
	}
	id, err := tx.ReplayMatch(ctx, m.GuildID, key)
	if err != nil {
		return "", 0, err
	}
	if id != 0 && id != m.ID {
		return "", 0, Errorf(CodeInvalid, "that replay already proved match %d: a replay proves one match", id)
	}
	return key, id, nil
}

// maxShowdownName is Showdown's own limit on a user name.
const maxShowdownName = 18

// LinkShowdown ties a Showdown name to the player in the guild, so that a
// replay of a battle between linked names can prove a match (/report
// replay). The name must hold a letter or digit: Showdown compares names
// by those alone.
func (s *Service) LinkShowdown(ctx context.Context, guildID, userID, name string) error {
	name = strings.TrimSpace(name)
	if len(name) > maxShowdownName || !strings.ContainsFunc(name, func(r rune) bool {
		return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		return Errorf(CodeInvalid, "a Showdown name has 1 to %d characters with at least one letter or digit", maxShowdownName)
	}
	if _, err := s.EnsureGuild(ctx, guildID); err != nil {
		return err
	}
	if err := s.store.LinkShowdown(ctx, guildID, userID, name, s.now()); err != nil {
		return fmt.Errorf("ladder: link showdown: %w", err)
	}
	return nil
}

// ShowdownName returns the player's linked Showdown name, CodeNotFound if none.
func (s *Service) ShowdownName(ctx context.Context, guildID, userID string) (string, error) {
	names, err := s.store.ShowdownNames(ctx, guildID, []string{userID})
	if err != nil {
		return "", fmt.Errorf("ladder: showdown name: %w", err)
	}
	n, ok := names[userID]
	if !ok {
		return "", Errorf(CodeNotFound, "<@%s> has linked no Showdown name; use /link showdown", userID)
	}
	return n, nil
}

// ReplayTeams is what a replay must show for a player's match: the match
// (id 0: the player's open or reported one) and each team's linked
// Showdown names in team order. A player without a linked name, or a
// replay (replayURL) that proved another match already, is a CodeInvalid
// error saying so: the replay could prove nothing.
func (s *Service) ReplayTeams(ctx context.Context, actor Actor, guildID string, matchID int64, replayURL string) (Match, [2][]string, error) {
	var m Match
	var teams [2][]string
	err := s.store.InTx(ctx, func(tx Tx) error {
		var err error
		if m, err = lockPlayerMatch(ctx, tx, guildID, actor.UserID, matchID); err != nil {
			return err
		}
		if m.Team(actor.UserID) == 0 {
			return Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		if _, _, err := replayProof(ctx, tx, m, replayURL); err != nil {
			return err
		}
		users := m.Players()
		names, err := tx.ShowdownNames(ctx, guildID, users)
		if err != nil {
			return err
		}
		for t, team := range m.Teams {
			teams[t] = make([]string, len(team))
			for i, u := range team {
				n, ok := names[u]
				if !ok {
					return Errorf(CodeInvalid, "<@%s> has linked no Showdown name (/link showdown)", u)
				}
				teams[t][i] = n
			}
		}
		return nil
	})
	if err != nil {
		return Match{}, teams, fmt.Errorf("ladder: replay teams: %w", err)
	}
	return m, teams, nil
}

// ReportReplay confirms and rates a player's match at once with the winner
// a verified replay shows (1, 2 or Draw): the replay stands in for the
// other side's confirmation. The replay URL is kept as the
// match's evidence and in the audit log, so a moderator can check it. The
// caller verifies the replay; an open or reported match is confirmed, one
// already rated with that winner answers AlreadyDone. A replay proves one
// match: one that proved another match of the guild is refused.
func (s *Service) ReportReplay(ctx context.Context, actor Actor, guildID string, matchID int64, winner int, replayURL string) (MatchResult, error) {
	if winner != 1 && winner != 2 && winner != Draw {
		return MatchResult{}, Errorf(CodeInvalid, "a replay's winner is team 1, team 2 or a draw, not %d", winner)
	}
	return s.inPlayerMatch(ctx, "report replay", actor, guildID, matchID, func(tx Tx, m Match) (MatchResult, *RatedWrite, error) {
		if m.Team(actor.UserID) == 0 {
			return MatchResult{}, nil, Errorf(CodeForbidden, "you are not a player of match %d", m.ID)
		}
		switch m.State {
		case StateOpen, StateReported:
		case StateConfirmed, StateResolved:
			if m.Winner == winner {
				return MatchResult{Match: m, AlreadyDone: true}, nil, nil
			}
			return MatchResult{}, nil, Errorf(CodeConflict, "match %d is already rated with another result; dispute it or ask a moderator", m.ID)
		default:
			return MatchResult{}, nil, Errorf(CodeConflict, "match %d is %s", m.ID, m.State)
		}
		key, proved, err := replayProof(ctx, tx, m, replayURL)
		if err != nil {
			return MatchResult{}, nil, err
		}
		now := s.now()
		if key != "" && proved == 0 {
			if err := tx.AddReplayMatch(ctx, guildID, key, m.ID, now); err != nil {
				return MatchResult{}, nil, err
			}
		}
		if m.State == StateOpen {
			m.PlayedAt = now
		}
		m.State, m.Winner = StateConfirmed, winner
		m.ReportedBy, m.ReportedWinner, m.Evidence = actor.UserID, winner, replayURL
		err = tx.AddAudit(ctx, AuditEntry{GuildID: guildID, ActorID: actor.UserID, Action: "replay_confirm", MatchID: m.ID,
			Reason: replayURL, After: fmt.Sprintf("winner %d", winner), At: now})
		if err != nil {
			return MatchResult{}, nil, err
		}
		return s.prepareExisting(ctx, tx, m)
	})
}
