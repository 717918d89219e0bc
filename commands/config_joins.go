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
	switch req.Command {
	case "config queue schedule":
		o, err := h.Joins.Opening(ctx, q, h.Service.Now())
		if err != nil {
			return Reply{}, err
		}
		return Whisper(fmt.Sprintf("Queue **%s** hours: %s.", q.Name, DescribeOpening(o))), nil
	case "config queue rematch":
		return Whisper(fmt.Sprintf("Queue **%s** rematches: %s.", q.Name, describeRematch(st.Rematch))), nil
	}
	return Whisper(fmt.Sprintf("Queue **%s** requirements: %s.", q.Name, describeRequirements(st, q.Name, games))), nil
}

// joinsLine is a queue's join settings for /config show; "" when all
// are off (the default), so an untouched queue reads as before.
func (h *handlers) joinsLine(ctx context.Context, q ladder.Queue) (string, error) {
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
		parts = append(parts, "requires "+describeRequirements(st, q.Name, games))
	}
	if st.Hours != "" {
		parts = append(parts, fmt.Sprintf("open %s (%s)", st.Hours, st.TimeZone))
	}
	if st.Rematch != joins.RematchOff {
		parts = append(parts, "rematch "+string(st.Rematch))
	}
	return strings.Join(parts, "; "), nil
}

// describeRequirements says a queue's requirements in a line.
func describeRequirements(s joins.Settings, queue, gamesQueue string) string {
	var parts []string
	if s.MinRating != 0 {
		parts = append(parts, fmt.Sprintf("rating at least %g", s.MinRating))
	}
	if s.MaxRating != 0 {
		parts = append(parts, fmt.Sprintf("rating at most %g", s.MaxRating))
	}
	if s.MinGames != 0 {
		if gamesQueue == "" {
			gamesQueue = queue
		}
		parts = append(parts, fmt.Sprintf("%d rated games in %s", s.MinGames, gamesQueue))
	}
	if s.RequiredRole != "" {
		parts = append(parts, fmt.Sprintf("the <@&%s> role", s.RequiredRole))
	}
	if s.ExcludedRole != "" {
		parts = append(parts, fmt.Sprintf("not the <@&%s> role", s.ExcludedRole))
	}
	if s.MinAccountDays != 0 {
		parts = append(parts, fmt.Sprintf("a Discord account at least %d days old", s.MinAccountDays))
	}
	if len(parts) == 0 {
		return "none, anyone may join"
	}
	return strings.Join(parts, ", ")
}

func describeRematch(m joins.RematchMode) string {
	switch m {
	case joins.RematchSame:
		return fmt.Sprintf("a rated result offers a Rematch button for %s; once every player presses it they play again with the same teams", joins.RematchWindow)
	case joins.RematchRebalance:
		return fmt.Sprintf("a rated result offers a Rematch button for %s; once every player presses it they play again, split again by their new ratings", joins.RematchWindow)
	}
	return "off"
}

// DescribeOpening says a queue's open hours and whether it is open now;
// package panel shows it on the queue's panel.
func DescribeOpening(o joins.Opening) string {
	if !o.Scheduled {
		return "always open"
	}
	text := fmt.Sprintf("%s (%s)", o.Hours.String(), o.Hours.Loc)
	switch {
	case o.State.Open && o.State.Next.IsZero():
		return text + "; open now, and not closing within a week"
	case o.State.Open:
		return text + fmt.Sprintf("; open now, closes at %s (<t:%d:R>)", o.Hours.Local(o.State.Next), o.State.Next.Unix())
	case o.State.Next.IsZero():
		return text + "; closed, and not opening within a week"
	}
	return text + fmt.Sprintf("; closed now, opens at %s (<t:%d:R>)", o.Hours.Local(o.State.Next), o.State.Next.Unix())
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
		Content: fmt.Sprintf("%s wants a rematch of match #%d (%d/%d pressed); the others can press **Rematch** until <t:%d:T>.",
			mention(req.UserID), m.ID, len(res.Voters), res.Players, res.ExpiresAt.Unix()),
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
		how := "with the same teams"
		if st.Rematch == joins.RematchRebalance {
			how = "with the teams split again by your new ratings"
		}
		until := m.RatedAt.Add(joins.RematchWindow)
		return []Post{{ChannelID: channelID, Sent: h.recordMessage(m.ID, ladder.MessageRematch, channelID), Message: Reply{
			Content: fmt.Sprintf("Rematch? Once all %d players of match #%d press **Rematch** (until <t:%d:T>), you play again %s.",
				len(m.Players()), m.ID, until.Unix(), how),
			Buttons: [][]Button{RematchButton(m.ID)},
		}}}
	}
	return nil
}

// QueueClosed tells the players a closing queue took off, pinging them
// only, that its open hours ended and when it opens again.
func QueueClosed(c joins.Closed, userIDs []string) Reply {
	text := fmt.Sprintf("Queue **%s** closed for now: %s left the queue.", c.Queue.Name, mentions(userIDs))
	if next := c.Opening.State.Next; !next.IsZero() {
		text += fmt.Sprintf(" It opens again at %s (<t:%d:F>).", c.Opening.Hours.Local(next), next.Unix())
	}
	return Reply{Content: text, Mentions: userIDs}
}
