package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// requirementsSub is /config queue requirements: who may join a queue.
// Its own subcommand because /config queue set is near Discord's 25
// options.
func requirementsSub() Option {
	zero, bound, games, days := 0.0, float64(joins.MaxRatingBound), float64(joins.MaxMinGames), float64(joins.MaxAccountDays)
	return sub("requirements", "Who may join a queue: rating range, games played, roles, account age (0 turns one off)",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		Option{Type: OptNumber, Name: "min_rating", Description: "least rating in this queue (0 off)", Min: &zero, Max: &bound},
		Option{Type: OptNumber, Name: "max_rating", Description: "greatest rating in this queue (0 off)", Min: &zero, Max: &bound},
		Option{Type: OptInteger, Name: "min_games", Description: "least rated games in games_queue (0 off)", Min: &zero, Max: &games},
		Option{Type: OptString, Name: "games_queue", Description: "the queue min_games counts (default: this one)", Autocomplete: true, MaxLength: 32},
		opt(OptRole, "required_role", "members must hold this role", false),
		opt(OptRole, "excluded_role", "members holding this role may not join", false),
		Option{Type: OptInteger, Name: "min_account_days", Description: "least age of the Discord account in days (0 off)", Min: &zero, Max: &days},
		Option{Type: OptString, Name: "clear", Description: "turn requirements off", Choices: []Choice{
			{Name: "all requirements", Value: "all"}, {Name: "required_role", Value: "required_role"}, {Name: "excluded_role", Value: "excluded_role"}}})
}

// scheduleSub is /config queue schedule: a queue's open hours.
func scheduleSub() Option {
	return sub("schedule", "A queue's open hours; outside them joins are refused and the queue empties at close",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		Option{Type: OptString, Name: "hours", Description: "e.g. mon-fri 18:00-23:00; sat,sun 12:00-02:00 — or off (always open)", MaxLength: 300},
		Option{Type: OptString, Name: "timezone", Description: "IANA time zone of the hours, e.g. Europe/Berlin (default UTC)", MaxLength: 64})
}

// rematchSub is /config queue rematch: whether a rated match offers its
// players a rematch.
func rematchSub() Option {
	return sub("rematch", "Whether a rated result offers its players a Rematch button (5 minutes, all must press)",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		Option{Type: OptString, Name: "rematch", Description: "off (default), same teams, or rebalance the same players", Choices: []Choice{
			{Name: "off", Value: string(joins.RematchOff)}, {Name: "same teams", Value: string(joins.RematchSame)},
			{Name: "rebalance", Value: string(joins.RematchRebalance)}}})
}

// configJoins is /config queue requirements, schedule and rematch: the
// options given go through joins.Service.Configure, which the token API
// calls too.
func (h *handlers) configJoins(ctx context.Context, req Request) (Reply, error) {
	if h.Joins == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "queue requirements and schedules are not available in this process")
	}
	name, _ := req.String("queue")
	q, err := h.queueNamed(ctx, req.GuildID, name)
	if err != nil {
		return Reply{}, err
	}
	values := map[string]string{}
	for k, v := range req.Options {
		if k == "queue" || k == "clear" {
			continue
		}
		values[k] = fmt.Sprint(v)
	}
	switch clear, _ := req.String("clear"); clear {
	case "all":
		for _, k := range []string{"min_rating", "max_rating", "min_games", "min_account_days"} {
			values[k] = "0"
		}
		values["games_queue"], values["required_role"], values["excluded_role"] = "", "", ""
	case "required_role", "excluded_role":
		values[clear] = ""
	case "":
	default:
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "clear must be all, required_role or excluded_role, not %q", clear)
	}
	st, err := h.Joins.Configure(ctx, actor(req), q, values)
	if err != nil {
		return Reply{}, err
	}
	games, err := h.Joins.QueueName(ctx, req.GuildID, st.GamesQueueID)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	switch req.Command {
	case "config queue schedule":
		o, err := h.Joins.Opening(ctx, q, h.Service.Now())
		if err != nil {
			return Reply{}, err
		}
		return Whisper(tr.T("cfg.hours_set", "Queue", q.Name, "Hours", describeOpening(tr, o))), nil
	case "config queue rematch":
		return Whisper(tr.T("cfg.rematch_set", "Queue", q.Name, "Rematch", describeRematch(tr, st.Rematch))), nil
	}
	return Whisper(tr.T("cfg.requirements_set", "Queue", q.Name, "Requirements", describeRequirements(tr, st, q.Name, games))), nil
}

// joinsLine is a queue's join settings for /config show; "" when all
// are off (the default), so an untouched queue reads as before.
func (h *handlers) joinsLine(ctx context.Context, tr *i18n.Lang, q ladder.Queue) (string, error) {
	if h.Joins == nil {
		return "", nil
	}
	st, err := h.Joins.Settings(ctx, q)
	if err != nil {
		return "", err
	}
	var parts []string
	if st.HasRequirements() {
		games, err := h.Joins.QueueName(ctx, q.GuildID, st.GamesQueueID)
		if err != nil {
			return "", err
		}
		parts = append(parts, tr.T("cfg.joins_requires", "Requirements", describeRequirements(tr, st, q.Name, games)))
	}
	if st.Hours != "" {
		hours := st.Hours // as stored, should it no longer parse
		if oh, err := st.OpenHours(); err == nil {
			hours = tr.Phrase(oh)
		}
		parts = append(parts, tr.T("cfg.joins_open", "Hours", hours, "Zone", st.TimeZone))
	}
	if st.Rematch != joins.RematchOff {
		parts = append(parts, tr.T("cfg.joins_rematch", "Mode", string(st.Rematch)))
	}
	return strings.Join(parts, "; "), nil
}

// describeRequirements says a queue's requirements in a line.
func describeRequirements(tr *i18n.Lang, s joins.Settings, queue, gamesQueue string) string {
	var parts []string
	if s.MinRating != 0 {
		parts = append(parts, tr.T("cfg.req_min_rating", "Rating", tr.Float(s.MinRating)))
	}
	if s.MaxRating != 0 {
		parts = append(parts, tr.T("cfg.req_max_rating", "Rating", tr.Float(s.MaxRating)))
	}
	if s.MinGames != 0 {
		if gamesQueue == "" {
			gamesQueue = queue
		}
		parts = append(parts, tr.N("cfg.req_games", s.MinGames, "Queue", gamesQueue))
	}
	if s.RequiredRole != "" {
		parts = append(parts, tr.T("cfg.req_role", "Role", "<@&"+s.RequiredRole+">"))
	}
	if s.ExcludedRole != "" {
		parts = append(parts, tr.T("cfg.req_not_role", "Role", "<@&"+s.ExcludedRole+">"))
	}
	if s.MinAccountDays != 0 {
		parts = append(parts, tr.N("cfg.req_account", s.MinAccountDays))
	}
	if len(parts) == 0 {
		return tr.T("cfg.req_none")
	}
	return strings.Join(parts, ", ")
}

func describeRematch(tr *i18n.Lang, m joins.RematchMode) string {
	switch m {
	case joins.RematchSame:
		return tr.T("cfg.rematch_same", "Window", tr.Duration(joins.RematchWindow))
	case joins.RematchRebalance:
		return tr.T("cfg.rematch_rebalance", "Window", tr.Duration(joins.RematchWindow))
	}
	return tr.T("cfg.off")
}

// describeOpening says a queue's open hours and whether it is open now.
func describeOpening(tr *i18n.Lang, o joins.Opening) string {
	if !o.Scheduled {
		return tr.T("cfg.always_open")
	}
	text := fmt.Sprintf("%s (%s)", tr.Phrase(o.Hours), o.Hours.Zone())
	switch {
	case o.State.Open && o.State.Next.IsZero():
		return text + "; " + tr.T("cfg.open_week")
	case o.State.Open:
		return text + "; " + tr.T("cfg.open_closes", "When", o.Hours.Local(o.State.Next), "Unix", o.State.Next.Unix())
	case o.State.Next.IsZero():
		return text + "; " + tr.T("cfg.closed_week")
	}
	return text + "; " + tr.T("cfg.closed_opens", "When", o.Hours.Local(o.State.Next), "Unix", o.State.Next.Unix())
}

// OpeningStatus is the panel's Status field of a scheduled queue: "Open
// until …" or "Closed, opens at …".
func OpeningStatus(l *i18n.Lang, o joins.Opening) string {
	switch {
	case !o.Scheduled, o.State.Open && o.State.Next.IsZero():
		return l.T("panel.open")
	case o.State.Open:
		return l.T("panel.open_until", "When", o.Hours.Local(o.State.Next))
	case o.State.Next.IsZero():
		return l.T("panel.closed")
	}
	return l.T("panel.opens_at", "When", o.Hours.Local(o.State.Next), "Rel", fmt.Sprintf("<t:%d:R>", o.State.Next.Unix()))
}

// ActRematch is the component action of a result's Rematch button; the
// ID is the rated match's. Package panel puts it on result posts.
const ActRematch = "rematch"

// LabelRematch is the Rematch button's label (docs/spec.md 11).
const LabelRematch = "Rematch"

// RematchButton is the row with a match's Rematch button.
func RematchButton(matchID int64) []Button {
	return []Button{{Label: LabelRematch, Style: Primary, CustomID: ID(ActRematch, matchID)}}
}

func (h *handlers) rematchComponents() []Component {
	return []Component{{Action: ActRematch, Handle: h.rematch}}
}

// rematch is a press of a result's Rematch button.
func (h *handlers) rematch(ctx context.Context, req Request) (Reply, error) {
	if h.Joins == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "rematches are not available in this process")
	}
	if req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid")
	}
	res, err := h.Joins.PressRematch(ctx, req.GuildID, req.CustomID.ID, ladder.Entrant{UserID: req.UserID, Roles: memberRoles(req), RolesKnown: true})
	if err != nil {
		return Reply{}, err
	}
	m := res.Match
	if res.Formed.Match.ID != 0 {
		if res.AlreadyDone {
			return Whisper(userLang(req).T("reply.rematch_done", "ID", m.ID, "New", res.Formed.Match.ID)), nil
		}
		formed := []ladder.FormedMatch{res.Formed}
		h.countFormed(formed)
		r := Whisper(userLang(req).T("reply.rematch_on", "ID", res.Formed.Match.ID))
		r.Posts = h.announcements(ctx, h.postLang(ctx, req), formed, matchChannel(m, req))
		return r, nil
	}
	if res.AlreadyDone {
		// A replayed or doubled press: said privately, no second public line.
		return Whisper(userLang(req).T("reply.rematch_pressed", "ID", m.ID, "Pressed", len(res.Voters), "Players", res.Players, "Until", res.ExpiresAt.Unix())), nil
	}
	r := Whisper(userLang(req).T("reply.rematch_asked", "ID", m.ID, "Pressed", len(res.Voters), "Players", res.Players, "Until", res.ExpiresAt.Unix()))
	r.Posts = []Post{{ChannelID: req.ChannelID, Message: Reply{
		Content: h.postLang(ctx, req).T("post.rematch_wants", "User", mention(req.UserID), "ID", m.ID,
			"Pressed", len(res.Voters), "Players", res.Players, "Until", res.ExpiresAt.Unix()),
	}}}
	return r, nil
}

// rematchOffer is the post offering a rated match's players a rematch,
// with the Rematch button, when its queue offers rematches; none
// otherwise. It is recorded with the match's messages, so the buttons job
// takes the button off once the offer has expired.
func (h *handlers) rematchOffer(ctx context.Context, m ladder.Match, channelID string) []Post {
	if h.Joins == nil || channelID == "" {
		return nil
	}
	qs, err := h.Service.Queues(ctx, m.GuildID)
	if err != nil {
		return nil
	}
	for _, q := range qs {
		if q.ID != m.QueueID {
			continue
		}
		ok, err := h.Joins.Offers(ctx, m, q, h.Service.Now())
		if err != nil || !ok {
			return nil
		}
		st, err := h.Joins.Settings(ctx, q)
		if err != nil {
			return nil
		}
		l := h.langOf(ctx, m.GuildID)
		key := "post.rematch_offer_same"
		if st.Rematch == joins.RematchRebalance {
			key = "post.rematch_offer_rebalance"
		}
		until := m.RatedAt.Add(joins.RematchWindow)
		return []Post{{ChannelID: channelID, Sent: h.recordMessage(m.ID, ladder.MessageRematch, channelID), Message: Reply{
			Content: l.T(key, "Players", len(m.Players()), "ID", m.ID, "Until", until.Unix(), "Button", LabelRematch),
			Buttons: [][]Button{RematchButton(m.ID)},
		}}}
	}
	return nil
}

// QueueClosed tells the players a closing queue took off, pinging them
// only, that its open hours ended and when it opens again.
func QueueClosed(l *i18n.Lang, c joins.Closed, userIDs []string) Reply {
	text := l.T("post.queue_closed", "Queue", c.Queue.Name, "Players", mentions(userIDs))
	if next := c.Opening.State.Next; !next.IsZero() {
		text += " " + l.T("post.queue_reopens", "When", c.Opening.Hours.Local(next), "Unix", next.Unix())
	}
	return Reply{Content: text, Mentions: userIDs}
}
