package commands

import (
	"context"
	"errors"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// replayOpt is /report's replay option.
func replayOpt() Option {
	return Option{Type: OptString, Name: "replay", Description: "a Pokémon Showdown replay URL of the battle: it confirms the match at once", MaxLength: 300}
}

// replayReason says in a language why a replay proved nothing; nil when
// it proved the match.
type replayReason func(l *i18n.Lang) string

// reportReplay proves a report with a Showdown replay: when the replay is
// a 2v2 multi battle of the match's four linked players in the right teams
// and its winner agrees with the reported outcome, the match is confirmed
// and rated at once; otherwise the report goes the normal way (the other
// team confirms) and the reporter is told why the replay did not count.
// A replay can only be checked against linked names, so a missing link is
// a reason to fall back too, not an error.
func (h *handlers) reportReplay(ctx context.Context, req Request, id int64, o ladder.Outcome, url string) (Reply, error) {
	m, winner, reason, err := h.verifyReplay(ctx, req, id, o, url)
	if err != nil {
		return Reply{}, err
	}
	if h.Formats != nil && m.ID != 0 {
		if _, series, err := h.Formats.Series(ctx, m); err != nil {
			return Reply{}, err
		} else if series {
			return h.proveGame(ctx, req, m, winner, reason, url)
		}
	}
	l := userLang(req)
	if reason != nil {
		r, err := h.doReport(ctx, req, id, o)
		if err != nil {
			return Reply{}, err
		}
		r.Content = l.T("replay.not_confirmed", "Reason", reason(l)) + "\n" + r.Content
		return r, nil
	}
	res, err := h.Service.ReportReplay(ctx, actor(req), req.GuildID, m.ID, winner, url)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(l.T("report.already", "ID", res.Match.ID, "State", stateIn(l, res.Match.State))), nil
	}
	r := Reply{Ephemeral: true, Posts: []Post{{ChannelID: matchChannel(res.Match, req), Message: matchReply(h.postLang(ctx, req), res)}}}
	r.Content = l.T("replay.confirmed", "ID", res.Match.ID, "Result", winnerIn(l, winner))
	return r, nil
}

// verifyReplay returns the winner the replay proves for the reporter's
// match, or the reason it proves nothing.
func (h *handlers) verifyReplay(ctx context.Context, req Request, id int64, o ladder.Outcome, url string) (ladder.Match, int, replayReason, error) {
	if h.VerifyReplay == nil {
		return ladder.Match{}, 0, func(l *i18n.Lang) string { return l.T("replay.not_configured") }, nil
	}
	m, teams, err := h.Service.ReplayTeams(ctx, actor(req), req.GuildID, id, url)
	if ladder.ErrorCode(err) == ladder.CodeInvalid {
		format, args := ladder.ErrorFormat(err)
		return ladder.Match{}, 0, func(l *i18n.Lang) string { return l.Error(format, args...) }, nil
	}
	if err != nil {
		return ladder.Match{}, 0, nil, err
	}
	winner, err := h.VerifyReplay(ctx, url, teams[0], teams[1])
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return m, 0, nil, err
		}
		return m, 0, func(l *i18n.Lang) string { return verifyDetail(l, err) }, nil
	}
	if winner == 0 {
		winner = ladder.Draw
	}
	want := map[ladder.Outcome]int{ladder.Win: m.Team(req.UserID), ladder.Loss: 3 - m.Team(req.UserID), ladder.Tie: ladder.Draw}[o]
	if winner != want {
		return m, 0, func(l *i18n.Lang) string {
			reported := l.T("outcome." + string(o))
			if winner == ladder.Draw {
				return l.T("replay.shows_draw", "Reported", reported)
			}
			return l.T("replay.shows_team", "N", winner, "Reported", reported)
		}, nil
	}
	return m, winner, nil, nil
}

// verifyDetail is the replay check's finding (internal/showdown) as the
// reporter reads it in language l: its coded reason (a mismatch, a refused
// URL, a missing replay, what the server sent), or, for a network failure,
// that the replay server could not be asked.
func verifyDetail(l *i18n.Lang, err error) string {
	if format, args := ladder.ErrorFormat(err); format != "" {
		return l.Error(format, args...)
	}
	return l.T("replay.fetch_failed")
}

// proveGame is /report replay: for a series: the replay proves the next
// game (or the one waiting for confirmation), so a series is verified
// game by game, one replay each.
func (h *handlers) proveGame(ctx context.Context, req Request, m ladder.Match, winner int, reason replayReason, url string) (Reply, error) {
	l := userLang(req)
	if reason != nil {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "the replay did not prove a game of match %d: %s; report the game with the series message's buttons", m.ID, reason(l))
	}
	res, err := h.Formats.ProveGame(ctx, actor(req), req.GuildID, m.ID, winner, url)
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(l.T("replay.game_already", "Game", res.Game.Game, "ID", m.ID, "Score", dash(res.Series.Score()))), nil
	}
	ch := matchChannel(res.Series.Match, req)
	posts := append([]Post{{ChannelID: ch, Message: SeriesView(h.postLang(ctx, req), res.Series)}}, h.nextPickPosts(ctx, req, res.Next, ch)...)
	return Reply{Ephemeral: true,
		Content: l.T("replay.game_proved", "Game", res.Game.Game, "ID", m.ID, "Team", winner, "Score", dash(res.Series.Score())),
		Posts:   posts}, nil
}
