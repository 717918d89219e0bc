package commands

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// profileHistory is how many rating-history points the chart draws.
const profileHistory = 200

func (h *handlers) profileCommand() Command {
	return Command{
		Name:        "profile",
		Description: "A player's rating, record, recent matches and rating chart",
		Options: []Option{
			opt(OptUser, "player", "whose profile (default: yours)", false),
			queueOpt(),
			seasonOpt(),
		},
		Handle:       h.profile,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) profile(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	user, ok := req.String("player")
	if !ok {
		user = req.UserID
	}
	queue, _ := req.String("queue")
	season, _ := req.Int("season")
	p, err := h.Service.Profile(ctx, ladder.ProfileQuery{GuildID: req.GuildID, UserID: user, Queue: queue, Season: int(season), History: profileHistory, Recent: 5})
	if ladder.ErrorCode(err) == ladder.CodeNotFound && user != req.UserID {
		return Reply{}, ladder.Errorf(ladder.CodeNotFound, "%s has not played on this ladder yet", mention(user))
	}
	if err != nil {
		return Reply{}, err
	}
	l := userLang(req)
	r := h.profileReply(l, p, req.Names)
	if sd, err := h.Service.ShowdownName(ctx, req.GuildID, user); err == nil && len(r.Embeds) > 0 {
		r.Embeds[0].Fields = append(r.Embeds[0].Fields, Field{Name: l.T("profile.showdown"), Value: sd, Inline: true})
	}
	b, err := h.Service.Behaviour(ctx, req.GuildID, user)
	if err != nil {
		return Reply{}, err
	}
	if len(r.Embeds) > 0 {
		r.Embeds[0].Fields = append(r.Embeds[0].Fields, Field{Name: l.T("profile.behaviour"), Value: behaviourIn(l, b), Inline: true})
	}
	if h.Formats != nil && len(r.Embeds) > 0 {
		rs, err := h.Formats.MapRecords(ctx, req.GuildID, p.Queue.ID, p.Season.ID, user)
		if err != nil {
			return Reply{}, err
		}
		if v := MapRates(l, rs); v != "" {
			r.Embeds[0].Fields = append(r.Embeds[0].Fields, Field{Name: l.T("series_maps.maps_title"), Value: v})
		}
	}
	if h.Community != nil && len(r.Embeds) > 0 {
		mvp, err := h.Community.PlayerMVPs(ctx, req.GuildID, queue, user, int(season))
		if err != nil {
			return Reply{}, err
		}
		if mvp.Votes > 0 {
			r.Embeds[0].Fields = append(r.Embeds[0].Fields, Field{Name: l.T("profile.mvp"), Value: l.N("profile.mvp_votes", mvp.Votes, "MVPs", l.Int(mvp.MVPs)), Inline: true})
		}
	}
	return r, nil
}

// profileReply is /profile's embed; resolved are the display names
// Discord resolved for the command's options (may be nil), which the
// title, showing text as it is, uses for a player the ladder has no name
// for.
func (h *handlers) profileReply(l *i18n.Lang, p ladder.Profile, resolved map[string]string) Reply {
	s := p.Standing
	name := plainName(s.Name, s.UserID, resolved)
	e := Embed{Title: l.T("profile.title", "Name", name, "Queue", p.Queue.Name, "Season", p.Season.Number), Color: ColorInfo}
	standing := s.Division
	switch {
	case s.Provisional:
		standing = l.T("profile.placement", "Done", p.Placement, "Of", p.PlacementGames)
	case s.Stale:
		standing += " · " + l.T("profile.inactive")
	case s.Rank > 0:
		standing = fmt.Sprintf("#%d · %s", s.Rank, s.Division)
	}
	record := fmt.Sprintf("%d-%d", s.Wins, s.Losses)
	if s.Draws > 0 {
		record += fmt.Sprintf("-%d", s.Draws)
	}
	if s.Streak != 0 {
		kind := "profile.streak_won"
		if s.Streak < 0 {
			kind = "profile.streak_lost"
		}
		record += " · " + l.N(kind, abs(s.Streak))
	}
	e.Fields = []Field{
		{Name: l.T("profile.rating"), Value: l.Rating(s.Rating) + " ± " + l.Rating(s.RD), Inline: true},
		{Name: l.T("profile.gxe"), Value: l.PercentN(s.GXE/100, 1), Inline: true},
		{Name: l.T("profile.standing"), Value: standing, Inline: true},
		{Name: l.T("profile.record"), Value: record, Inline: true},
	}
	if why := unrankedText(l, p.Listing, s.LastMatch); why != "" {
		e.Fields = append(e.Fields, Field{Name: l.T("profile.unranked"), Value: why})
	}
	if len(p.Recent) > 0 {
		var b strings.Builder
		for _, m := range p.Recent {
			fmt.Fprintf(&b, "#%d · %s · %s\n", m.ID, stateIn(l, m.State), recentOutcome(l, m, s.UserID))
		}
		e.Fields = append(e.Fields, Field{Name: l.T("profile.recent"), Value: b.String()})
	}
	r := Reply{}
	if h.Chart != nil && len(p.History) > 0 {
		at := make([]time.Time, len(p.History))
		ys := make([]float64, len(p.History))
		for i, pt := range p.History {
			at[i], ys[i] = pt.At, pt.Rating
		}
		png, err := h.Chart(l.T("profile.chart_title", "Name", name), at, ys)
		if err == nil {
			r.Files = []File{{Name: "rating.png", ContentType: "image/png", Data: png}}
			e.Image = "attachment://rating.png"
		} else {
			e.Footer = l.T("profile.chart_failed")
		}
	}
	r.Embeds = []Embed{e}
	return r
}

// unrankedText is the sentence in language tr that tells an unlisted
// player why the board leaves them out and what lists them (ladder.Listing,
// docs/spec.md 4), with the date of their last rated match when inactivity
// is the reason; "" for a listed player.
func unrankedText(tr *i18n.Lang, l ladder.Listing, last time.Time) string {
	why := listingReason(tr, l)
	if why == "" {
		return ""
	}
	if l.Reason == "stale" && !last.IsZero() {
		why = tr.T("profile.unranked_since", "Date", tr.Date(last), "Why", why)
	}
	s := tr.T("profile.unranked_why", "Why", why, "Lists", listingLists(tr, l))
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:] + "."
}

// ListingText is why the board leaves a player out and what lists them,
// in language tr, as the player page shows it: "RD 150 is above 100: one
// rated match lists you"; "" for a listed player.
func ListingText(tr *i18n.Lang, l ladder.Listing) string {
	why := listingReason(tr, l)
	if why == "" {
		return ""
	}
	return tr.T("profile.unranked_why", "Why", why, "Lists", listingLists(tr, l))
}

// listingReason is why the board leaves a player out, "" for a listed one.
func listingReason(tr *i18n.Lang, l ladder.Listing) string {
	switch l.Reason {
	case "placement":
		return tr.T("profile.unranked_placement", "Games", tr.Int(l.Games), "Of", tr.Int(l.PlacementGames))
	case "rd":
		return tr.T("profile.unranked_rd", "RD", tr.Rating(l.RD), "Max", tr.Int(ladder.ProvisionalRD))
	case "stale":
		return tr.N("profile.unranked_stale", l.StaleDays)
	}
	return ""
}

// listingLists is what lists an unlisted player: the rated matches it
// takes, when the service could tell.
func listingLists(tr *i18n.Lang, l ladder.Listing) string {
	switch n := l.MatchesToList; {
	case n == 1:
		return tr.T("profile.lists_one")
	case n > 1:
		return tr.N("profile.lists_more", n)
	}
	return tr.T("profile.lists_rd", "Max", tr.Int(ladder.ProvisionalRD))
}

func recentOutcome(l *i18n.Lang, m ladder.Match, userID string) string {
	team := m.Team(userID)
	switch {
	case !m.State.Rated():
		return l.T("outcome.not_rated")
	case m.Winner == ladder.Draw:
		return l.T("outcome.draw")
	case m.Winner == team:
		return l.T("outcome.win")
	default:
		return l.T("outcome.loss")
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// MapRates renders a player's win rate per map, a line each (at most 10,
// the most played), "" when no map has enough games. Maps' names run to
// 100 characters, so ten lines may pass Discord's 1,024 characters a
// field: the lines that fit are shown whole and the rest counted.
func MapRates(l *i18n.Lang, rs []formats.MapRecord) string {
	lines := make([]string, 0, min(len(rs), 10))
	for _, r := range rs[:min(len(rs), 10)] {
		lines = append(lines, l.T("series_maps.map_rate", "Map", r.Map, "Rate", l.Percent(float64(r.Wins)/float64(r.Games)), "Wins", r.Wins, "Games", r.Games))
	}
	return fitLines(l, lines, embedFieldValue)
}
