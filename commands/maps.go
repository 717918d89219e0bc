package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Component actions of map picks. Their custom IDs carry the match, the
// game and (for bans) the number of bans made when the menu was shown, so
// a menu works after a restart and a stale one changes nothing.
const (
	actMapVote = "mv"
	actMapBan  = "mb"
	// actMapPick is the losing team's pick of a series game's map
	// (map_pick loser); its custom ID carries the match and the game.
	actMapPick = "mp"
)

func (h *handlers) mapComponents() []Component {
	return []Component{
		{Action: actMapVote, Handle: h.mapVoteMenu},
		{Action: actMapBan, Handle: h.mapBanMenu},
		{Action: actMapPick, Handle: h.mapPickMenu},
	}
}

// MapPickView is the message of a match's map pick: the vote with its
// tally so far, the bans so far with whose ban is next, or the map
// chosen. pool gives the maps' images; l is the guild's language.
func MapPickView(l *i18n.Lang, res formats.Result, pool []formats.Map) Reply {
	p, m := res.Pick, res.Match
	var r Reply
	switch {
	case p.State == formats.StateDone:
		r = mapChosenView(l, res, pool)
	case p.Mode == formats.ModeLoser:
		return mapLoserView(l, m, p)
	case p.Mode == formats.ModeBan:
		r = mapBanView(l, m, p)
	default:
		r = mapVoteView(l, m, p)
	}
	if p.Game > 1 && len(r.Embeds) > 0 {
		// A later game of a series: say which game the pick is for.
		r.Embeds[0].Title += " · " + l.T("series_maps.game", "Game", p.Game)
	}
	return r
}

// mapLoserView is a later game's pick by the team that lost the game
// before: a menu of the maps left for its players.
func mapLoserView(l *i18n.Lang, m ladder.Match, p formats.Pick) Reply {
	opts := make([]SelectOption, len(p.Pool))
	for i, name := range p.Pool {
		opts[i] = SelectOption{Label: name, Value: name}
	}
	return Reply{
		Content: l.T("series_maps.loser_pick", "ID", m.ID, "Game", p.Game, "Lost", p.Game-1, "Team", p.Team, "Players", mentions(m.Teams[p.Team-1]),
			"Deadline", p.Deadline.Unix()),
		Mentions: m.Teams[p.Team-1],
		Embeds: []Embed{{Title: l.T("maps.chosen_title", "ID", m.ID, "Map", l.T("series_maps.game", "Game", p.Game)), Color: ColorInfo,
			Description: strings.Join(p.Pool, "\n"), Footer: l.T("series_maps.loser_footer")}},
		Menus: []SelectMenu{{CustomID: ID(actMapPick, m.ID, strconv.Itoa(p.Game)), Placeholder: l.T("series_maps.loser_placeholder", "Team", p.Team), Options: opts}},
	}
}

func mapVoteView(l *i18n.Lang, m ladder.Match, p formats.Pick) Reply {
	counts := p.Counts()
	var b strings.Builder
	opts := make([]SelectOption, len(p.Pool))
	for i, name := range p.Pool {
		fmt.Fprintf(&b, "%s · %s\n", name, l.Int(counts[i]))
		opts[i] = SelectOption{Label: name, Value: name}
	}
	return Reply{
		Content: l.T("maps.vote", "ID", m.ID, "Deadline", p.Deadline.Unix(), "Voted", len(p.Votes), "Players", len(m.Players())),
		Embeds: []Embed{{Title: l.T("maps.vote_title", "ID", m.ID), Color: ColorInfo, Description: b.String(),
			Footer: l.T("maps.vote_footer")}},
		Menus:    []SelectMenu{{CustomID: ID(actMapVote, m.ID, strconv.Itoa(p.Game)), Placeholder: l.T("maps.vote_placeholder"), Options: opts}},
		Mentions: []string{},
	}
}

func mapBanView(l *i18n.Lang, m ladder.Match, p formats.Pick) Reply {
	turn := p.Turn()
	banner := p.Banners[turn-1]
	var b strings.Builder
	for _, x := range p.Bans {
		auto := ""
		if x.Auto {
			auto = " " + l.T("maps.time_ran_out")
		}
		fmt.Fprintf(&b, "~~%s~~ · %s%s\n", x.Map, l.T("maps.team", "N", x.Team), auto)
	}
	left := p.Left()
	opts := make([]SelectOption, len(left))
	for i, name := range left {
		opts[i] = SelectOption{Label: name, Value: name}
		fmt.Fprintf(&b, "%s\n", name)
	}
	return Reply{
		Content:  l.T("maps.bans", "ID", m.ID, "User", mention(banner), "Team", turn, "Deadline", p.Deadline.Unix()),
		Mentions: []string{banner},
		// Who bans for each team is a line of the description, where
		// mentions render (a footer shows them as raw "<@…>").
		Embeds: []Embed{{Title: l.T("maps.bans_title", "ID", m.ID), Color: ColorInfo,
			Description: l.T("maps.bans_footer", "Banner1", mention(p.Banners[0]), "Banner2", mention(p.Banners[1])) + "\n\n" + b.String()}},
		Menus: []SelectMenu{{CustomID: ID(actMapBan, m.ID, strconv.Itoa(p.Game), strconv.Itoa(len(p.Bans))),
			Placeholder: l.T("maps.ban_placeholder", "Team", turn), Options: opts}},
	}
}

func mapChosenView(l *i18n.Lang, res formats.Result, pool []formats.Map) Reply {
	p, m := res.Pick, res.Match
	how := l.T("maps.how_random")
	switch p.Mode {
	case formats.ModeLoser:
		how = l.T("series_maps.how_loser", "Team", p.Team, "Lost", p.Game-1)
		switch {
		case len(p.Pool) == 1:
			how = l.T("series_maps.how_last")
		case res.TimedOut:
			how = l.T("series_maps.how_timed_out")
		}
	case formats.ModeVote:
		won, tied := p.Tally()
		how = l.T("maps.how_votes", "Votes", p.Counts()[indexOf(p.Pool, won)], "Of", len(p.Votes))
		if len(tied) > 1 {
			how += l.T("maps.how_tied", "Tied", strings.Join(tied, ", "))
		}
	case formats.ModeBan:
		how = l.N("maps.how_bans", len(p.Bans))
	}
	e := Embed{Title: l.T("maps.chosen_title", "ID", m.ID, "Map", p.Chosen), Color: ColorSuccess, Description: l.T("maps.chosen", "How", how)}
	for _, x := range pool {
		if x.Name == p.Chosen && x.ImageURL != "" {
			e.Image = x.ImageURL
		}
	}
	content := l.T("maps.played_on", "ID", m.ID, "Map", p.Chosen, "How", how)
	if p.Game > 1 {
		content = l.T("series_maps.chosen", "ID", m.ID, "Game", p.Game, "Map", p.Chosen, "How", how)
	}
	return Reply{
		Content:  content,
		Embeds:   []Embed{e},
		Mentions: []string{},
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return 0
}

// StartMaps starts the map pick of a match that is on and answers the
// message showing it; ok is false when its queue picks no map or another
// call started it already (and showed it).
func StartMaps(ctx context.Context, l *i18n.Lang, fm *formats.Service, m ladder.Match) (r Reply, ok bool, err error) {
	if fm == nil {
		return Reply{}, false, nil
	}
	res, err := fm.Start(ctx, m)
	if err != nil || res.Pick.MatchID == 0 || res.AlreadyDone {
		return Reply{}, false, err
	}
	pool, err := fm.Maps(ctx, m.QueueID)
	if err != nil {
		return Reply{}, false, err
	}
	return MapPickView(l, res, pool), true, nil
}

// mapPosts are the posts a handler adds when a match it answers is on:
// the map pick's message in the match's channel. A failure to start the
// pick must not undo the click that put the match on: the ready-checks
// job starts picks left unstarted, so it is only said in a line.
func (h *handlers) mapPosts(ctx context.Context, m ladder.Match, req Request) []Post {
	return h.formatPosts(ctx, m, matchChannel(m, req))
}

// formatPosts are the map pick's message and the series message of a
// match that is on, for channel.
func (h *handlers) formatPosts(ctx context.Context, m ladder.Match, channel string) []Post {
	var out []Post
	l := h.langOf(ctx, m.GuildID)
	r, ok, err := StartMaps(ctx, l, h.Formats, m)
	switch {
	case err != nil:
		msg := ladder.ErrorMessage(err)
		if format, args := ladder.ErrorFormat(err); format != "" {
			msg = MentionsIn(l.Error(format, args...))
		}
		out = append(out, Post{ChannelID: channel, Message: Reply{Content: l.T("maps.not_started", "ID", m.ID, "Error", msg), Mentions: []string{}}})
	case ok:
		out = append(out, Post{ChannelID: channel, Message: r, Sent: h.mapSent(m.ID, 1)})
	}
	if p, ok := h.seriesPost(ctx, m, channel); ok {
		out = append(out, p)
	}
	return out
}

// mapSent records where a pick's message went, so the deadline job can
// show the vote's end or a ban made for a banner in place.
func (h *handlers) mapSent(matchID int64, game int) func(ctx context.Context, channelID, messageID string) error {
	return func(ctx context.Context, channelID, messageID string) error {
		return h.Formats.RecordMessage(ctx, matchID, game, channelID, messageID)
	}
}

// mapMenuArgs reads the game (and the turn, for bans) of a map menu.
func mapMenuArgs(req Request, withTurn bool) (game, turn int, err error) {
	bad := ladder.Errorf(ladder.CodeInvalid, "this menu is not valid; use the menu of the match's map pick")
	if req.CustomID.ID == 0 || len(req.Selected) != 1 {
		return 0, 0, bad
	}
	if game, err = strconv.Atoi(req.CustomID.Arg(0)); err != nil || game < 1 || game > 9 {
		return 0, 0, bad
	}
	if withTurn {
		if turn, err = strconv.Atoi(req.CustomID.Arg(1)); err != nil || turn < 0 || turn > formats.MaxMaps {
			return 0, 0, bad
		}
	}
	return game, turn, nil
}

// mapVoteMenu records a vote and updates the vote's message in place.
func (h *handlers) mapVoteMenu(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "map picks are not served by this process")
	}
	game, _, err := mapMenuArgs(req, false)
	if err != nil {
		return Reply{}, err
	}
	res, err := h.Formats.Vote(ctx, actor(req), req.GuildID, req.CustomID.ID, game, req.Selected[0])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		if res.Pick.State == formats.StateDone {
			return Whisper(userLang(req).T("reply.map_vote_over", "ID", res.Match.ID, "Map", res.Pick.Chosen)), nil
		}
		return Whisper(userLang(req).T("reply.map_voted_already", "Map", req.Selected[0])), nil
	}
	return h.mapUpdate(ctx, req, res)
}

// mapBanMenu records a ban and updates the bans' message in place.
func (h *handlers) mapBanMenu(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "map picks are not served by this process")
	}
	game, turn, err := mapMenuArgs(req, true)
	if err != nil {
		return Reply{}, err
	}
	res, err := h.Formats.Ban(ctx, actor(req), req.GuildID, req.CustomID.ID, game, turn, req.Selected[0])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		if res.Pick.State == formats.StateDone {
			return Whisper(userLang(req).T("reply.map_bans_over", "ID", res.Match.ID, "Map", res.Pick.Chosen)), nil
		}
		return Whisper(userLang(req).T("reply.map_ban_made", "N", turn+1, "ID", res.Match.ID)), nil
	}
	return h.mapUpdate(ctx, req, res)
}

// mapPickMenu records the losing team's pick of the next game's map and
// shows it in place.
func (h *handlers) mapPickMenu(ctx context.Context, req Request) (Reply, error) {
	if h.Formats == nil {
		return Reply{}, ladder.Errorf(ladder.CodeUnavailable, "map picks are not served by this process")
	}
	game, _, err := mapMenuArgs(req, false)
	if err != nil {
		return Reply{}, err
	}
	res, err := h.Formats.PickMap(ctx, actor(req), req.GuildID, req.CustomID.ID, game, req.Selected[0])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		return Whisper(userLang(req).T("series_maps.picked_already", "ID", res.Match.ID, "Game", game, "Map", res.Pick.Chosen)), nil
	}
	return h.mapUpdate(ctx, req, res)
}

// mapUpdate shows a pick's new state in place of its message.
func (h *handlers) mapUpdate(ctx context.Context, req Request, res formats.Result) (Reply, error) {
	pool, err := h.Formats.Maps(ctx, res.Match.QueueID)
	if err != nil {
		return Reply{}, err
	}
	l := h.langOf(ctx, res.Match.GuildID)
	r := MapPickView(l, res, pool)
	if res.TimedOut && len(res.Banned) > 0 {
		r.Content += "\n" + l.T("maps.timed_out", "N", res.Banned[0].Turn+1, "Map", res.Banned[0].Map, "Team", res.Banned[0].Team)
	}
	r.Update = true
	return r, nil
}
