package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Component actions of the match lobby. The buttons carry only
// the match ID: the ready check's state is in the database, so a button
// posted before a restart works after it.
const (
	actReady      = "rdy"
	actNotReady   = "nrdy"
	actCancelVote = "cxv"
)

func (h *handlers) lobbyComponents() []Component {
	return []Component{
		{Action: actReady, Handle: h.readyButton},
		{Action: actNotReady, Handle: h.readyButton},
		{Action: actCancelVote, Handle: h.cancelVoteButton},
	}
}

// readyAnnouncement is a formed match's message while its ready check
// runs: who is ready, the deadline, and the Ready / Not ready buttons. The
// report buttons come once everyone is ready.
// In captains mode (d set) it names the captains instead of teams that
// the draft will change.
func readyAnnouncement(l *i18n.Lang, m ladder.Match, rc ladder.ReadyCheck, d ladder.Draft, queue string) Reply {
	var ready strings.Builder
	for _, s := range rc.Seats {
		mark := "⏳"
		if !s.ReadyAt.IsZero() {
			mark = "✅"
		}
		fmt.Fprintf(&ready, "%s %s\n", mark, mention(s.UserID))
	}
	n := len(rc.Seats) - len(rc.Missing())
	deadline := fmt.Sprintf("<t:%d:R>", rc.Deadline.Unix())
	content := l.T("ready.formed", "ID", m.ID, "Team1", mentions(m.Teams[0]), "Team2", mentions(m.Teams[1]), "Deadline", deadline)
	teams := teamFields(l, m)
	if d.MatchID != 0 {
		content = l.T("ready.formed_captains", "ID", m.ID, "Players", mentions(m.Players()), "Deadline", deadline)
		teams = draftWaitingFields(l, d)
	}
	return Reply{
		Content:  content,
		Mentions: m.Players(),
		Embeds: []Embed{{
			Title: l.T("ready.title", "ID", m.ID, "Queue", queue),
			Color: ColorInfo,
			Fields: append(teams,
				Field{Name: l.T("ready.count", "Ready", n, "Total", len(rc.Seats)), Value: ready.String()}),
			Footer: l.T("ready.footer"),
		}},
		Buttons: [][]Button{{
			{Label: l.T("button.ready"), Style: Success, CustomID: ID(actReady, m.ID)},
			{Label: l.T("button.not_ready"), Style: Danger, CustomID: ID(actNotReady, m.ID)},
		}},
	}
}

// teamFields are the two teams with their chance to win.
func teamFields(l *i18n.Lang, m ladder.Match) []Field {
	p := m.PTeam1
	return []Field{
		{Name: l.T("match.team_chance", "N", 1, "Chance", l.Percent(p)), Value: mentions(m.Teams[0]), Inline: true},
		{Name: l.T("match.team_chance", "N", 2, "Chance", l.Percent(1-p)), Value: mentions(m.Teams[1]), Inline: true},
	}
}

// matchOnView replaces the ready check once everyone is ready: the match
// is on, with the report buttons and a button to vote it off.
func matchOnView(l *i18n.Lang, m ladder.Match, queue string) Reply {
	return Reply{
		Content: l.T("match.on", "ID", m.ID, "Team1", mentions(m.Teams[0]), "Team2", mentions(m.Teams[1])),
		Embeds: []Embed{{
			Title:  l.T("match.title", "ID", m.ID, "Queue", queue),
			Color:  ColorSuccess,
			Fields: append(teamFields(l, m), matchFacts(l, m)...),
			Footer: l.T("match.footer"),
		}},
		Buttons: [][]Button{reportButtons(l, m.ID), {{Label: l.T("button.cancel_vote"), Style: Secondary, CustomID: ID(actCancelVote, m.ID)}}},
	}
}

// matchFacts are the quality of a match and its map, once chosen.
func matchFacts(l *i18n.Lang, m ladder.Match) []Field {
	fs := []Field{{Name: l.T("match.quality"), Value: l.Number(m.Quality, 2)}}
	if m.Map != "" {
		fs = append(fs, Field{Name: l.T("match.map"), Value: m.Map})
	}
	return fs
}

// ReadyFailed tells a match's channel that its ready check failed: the
// match is cancelled, who went back to the queue, and who got a cooldown
// for how long. It pings the players only. The ready-check job posts it
// for checks that ran out; a Not ready click shows it in place.
func ReadyFailed(l *i18n.Lang, res ladder.ReadyResult) Reply {
	m := res.Match
	var b strings.Builder
	b.WriteString(l.T("ready.failed", "ID", m.ID))
	var back []string
	for _, t := range res.Requeued {
		back = append(back, t.UserIDs...)
	}
	if len(back) > 0 {
		b.WriteString("\n" + l.T("ready.requeued", "Players", mentions(back)))
	}
	for _, c := range res.Penalised {
		b.WriteString("\n" + l.T("ready.penalised", "User", mention(c.UserID), "Duration", l.Duration(c.Until.Sub(c.CreatedAt))))
	}
	return Reply{Content: b.String(), Mentions: m.Players()}
}

// Abandoned tells a match's channel that nobody reported it in time and it
// was cancelled, pinging its players only.
func Abandoned(l *i18n.Lang, m ladder.Match) Reply {
	return Reply{Content: l.T("match.abandoned", "ID", m.ID, "Players", mentions(m.Players())), Mentions: m.Players()}
}

// queueName finds a queue's name for a message about one of its matches.
func (h *handlers) queueName(ctx context.Context, guildID string, queueID int64) string {
	qs, err := h.Service.Queues(ctx, guildID)
	if err == nil {
		for _, q := range qs {
			if q.ID == queueID {
				return q.Name
			}
		}
	}
	return ""
}

// readyButton answers Ready and Not ready: it updates the announcement in
// place (who is ready; the match on; or the match cancelled).
func (h *handlers) readyButton(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	res, err := h.Service.Ready(ctx, actor(req), req.GuildID, req.CustomID.ID, req.CustomID.Action == actReady)
	if err != nil {
		return Reply{}, err
	}
	m, rc := res.Match, res.Check
	if res.AlreadyDone {
		u := userLang(req)
		switch rc.State {
		case ladder.ReadyPassed:
			return Whisper(u.T("ready.over_on", "ID", m.ID)), nil
		case ladder.ReadyFailed:
			return Whisper(u.T("ready.over_cancelled", "ID", m.ID)), nil
		}
		return Whisper(u.T("ready.already", "ID", m.ID)), nil
	}
	var r Reply
	// The announcement is the channel's: it stays in the guild's language.
	l := h.postLang(ctx, req)
	queue := h.queueName(ctx, req.GuildID, m.QueueID)
	switch {
	case rc.State == ladder.ReadyPassed && res.Draft.State == ladder.DraftPicking:
		r = DraftView(l, m, res.Draft, queue)
		r.Content = l.T("ready.everyone") + " " + r.Content
	case rc.State == ladder.ReadyPassed:
		r = matchOnView(l, m, queue)
		r.Posts = h.mapPosts(ctx, m, req)
	case rc.State == ladder.ReadyFailed:
		r = ReadyFailed(l, res)
	default:
		d, err := h.Service.Draft(ctx, req.GuildID, m.ID)
		if err != nil && ladder.ErrorCode(err) != ladder.CodeNotFound {
			return Reply{}, err
		}
		r = readyAnnouncement(l, m, rc, d, queue)
		// The update must not ping everyone again at each click.
		r.Mentions = []string{}
	}
	r.Update = true
	return r, nil
}

func (h *handlers) cancelVoteButton(ctx context.Context, req Request) (Reply, error) {
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; use /match cancel")
	}
	return h.doCancelVote(ctx, req, req.CustomID.ID)
}

// doCancelVote records a vote privately and, when it cancels the match,
// says so in the match's channel.
func (h *handlers) doCancelVote(ctx context.Context, req Request, id int64) (Reply, error) {
	res, err := h.Service.CancelVote(ctx, actor(req), req.GuildID, id)
	if err != nil {
		return Reply{}, err
	}
	m := res.Match
	u := userLang(req)
	switch {
	case res.AlreadyDone && res.Cancelled:
		return Whisper(u.T("cancel.already_cancelled", "ID", m.ID)), nil
	case res.AlreadyDone:
		return Whisper(u.T("cancel.already_voted", "ID", m.ID, "Votes", len(res.Votes), "Needed", res.Needed)), nil
	case res.Cancelled:
		l := h.postLang(ctx, req)
		return Reply{Ephemeral: true, Content: u.T("cancel.cancelled", "ID", m.ID), Posts: []Post{{ChannelID: matchChannel(m, req),
			Message: Reply{Content: l.T("cancel.post", "ID", m.ID, "Votes", len(res.Votes), "Players", len(m.Players())),
				Mentions: m.Players()}}}}, nil
	}
	return Whisper(u.T("cancel.recorded", "ID", m.ID, "Votes", len(res.Votes), "Needed", res.Needed)), nil
}

// lobbyOptions are /config queue set's lobby settings.
func lobbyOptions() []Option {
	zero, hour, oneF, fiveHundred, ten, sixHundred := 0.0, 3600.0, 0.99, 500.0, 10.0, 600.0
	return []Option{
		{Type: OptInteger, Name: "ready_window", Description: "seconds to click Ready after a match forms (0: no ready check)", Min: &zero, Max: &hour},
		{Type: OptString, Name: "cooldowns", Description: "cooldowns for missing a ready check, escalating within 24 h, e.g. 5m,30m,2h", MaxLength: 100},
		{Type: OptString, Name: "abandon_after", Description: "cancel an open match with no report after this long, e.g. 3h", MaxLength: 20},
		{Type: OptNumber, Name: "cancel_share", Description: "share of players a cancel vote must exceed (0.5: a majority)", Min: &zero, Max: &oneF},
		{Type: OptNumber, Name: "rating_penalty", Description: "rating taken off a player who misses a ready check or no-shows (0: off)", Min: &zero, Max: &fiveHundred},
		{Type: OptString, Name: "pick_mode", Description: "how teams are made: balanced by the matcher, or picked by two captains",
			Choices: []Choice{{Name: "balanced", Value: string(ladder.PickBalanced)}, {Name: "captains", Value: string(ladder.PickCaptains)}}},
		{Type: OptInteger, Name: "pick_window", Description: "seconds a captain has for each pick (10 to 600)", Min: &ten, Max: &sixHundred},
	}
}

// hasLobbyOption reports whether req changes a lobby setting.
func hasLobbyOption(req Request) bool {
	for _, o := range lobbyOptions() {
		if req.Has(o.Name) {
			return true
		}
	}
	return false
}

// lobbyFromOptions returns queue q's lobby settings with /config queue set's
// lobby options applied, not yet stored.
func (h *handlers) lobbyFromOptions(ctx context.Context, req Request, q ladder.Queue) (ladder.Lobby, error) {
	_, l, err := h.Service.Lobby(ctx, req.GuildID, q.Name)
	if err != nil {
		return ladder.Lobby{}, err
	}
	if n, ok := req.Int("ready_window"); ok {
		if l.ReadyWindow, err = ladder.ParseSeconds("ready_window", n, 3600); err != nil {
			return ladder.Lobby{}, err
		}
	}
	if s, ok := req.String("cooldowns"); ok {
		if l.Cooldowns, err = ladder.ParseCooldowns(s); err != nil {
			return ladder.Lobby{}, err
		}
	}
	if s, ok := req.String("abandon_after"); ok {
		if l.AbandonAfter, err = ladder.ParseAbandonAfter(s); err != nil {
			return ladder.Lobby{}, err
		}
	}
	if f, ok := req.Float("cancel_share"); ok {
		l.CancelShare = f
	}
	if f, ok := req.Float("rating_penalty"); ok {
		l.RatingPenalty = f
	}
	if s, ok := req.String("pick_mode"); ok {
		if l.PickMode, err = ladder.ParsePickMode(strings.TrimSpace(s)); err != nil {
			return ladder.Lobby{}, err
		}
	}
	if n, ok := req.Int("pick_window"); ok {
		if l.PickWindow, err = ladder.ParseSeconds("pick_window", n, 600); err != nil {
			return ladder.Lobby{}, err
		}
	}
	return l, nil
}

// lobbyLine describes a queue's lobby settings in /config answers.
func lobbyLine(tr *i18n.Lang, l ladder.Lobby) string {
	ready := tr.T("cfg.no_ready_check")
	if l.ReadyWindow > 0 {
		ready = tr.T("cfg.ready_check", "Window", tr.Duration(l.ReadyWindow))
	}
	s := ready + " · " + tr.T("cfg.lobby_line", "Cooldowns", ladder.FormatCooldowns(l.Cooldowns),
		"Abandon", ladder.FormatCooldowns([]time.Duration{l.AbandonAfter}), "Share", tr.Percent(l.CancelShare))
	if l.RatingPenalty > 0 {
		s += " · " + tr.T("cfg.rating_penalty", "Penalty", tr.Float(l.RatingPenalty))
	}
	if l.PickMode == ladder.PickCaptains {
		s += " · " + tr.T("cfg.captains_pick", "Window", tr.Duration(l.PickWindow))
	}
	return s
}

// modCooldown clears a player's queue cooldown.
func (h *handlers) modCooldown(ctx context.Context, req Request) (Reply, error) {
	player, _ := req.String("player")
	already, err := h.Service.ClearCooldown(ctx, actor(req), req.GuildID, player)
	if err != nil {
		return Reply{}, err
	}
	if already {
		return Whisper(userLang(req).T("mod.no_cooldown", "Player", mention(player))), nil
	}
	return Whisper(userLang(req).T("mod.cooldown_cleared", "Player", mention(player))), nil
}
