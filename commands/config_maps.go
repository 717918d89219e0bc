package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// mapsGroup is /config maps: a queue's pool of maps or modes.
func mapsGroup() Option {
	queue := Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32}
	name := Option{Type: OptString, Name: "name", Description: "the map's (or mode's) name", Required: true, MaxLength: 100}
	return group("maps", "A queue's pool of maps or modes, up to 25, that its matches pick from",
		sub("add", "Add a map to a queue's pool", queue, name,
			Option{Type: OptString, Name: "image", Description: "an https:// image shown when the map is chosen", MaxLength: 500}),
		sub("remove", "Remove a map from a queue's pool", queue, name),
		sub("list", "List a queue's pool and how its maps are picked", queue))
}

// formatSub is /config queue format: how a queue's matches are played
// beyond a single game. Its own subcommand because /config queue set is
// near Discord's 25 options.
func formatSub() Option {
	return sub("format", "How a queue's matches get their map: a vote, bans, at random, or none",
		Option{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
		Option{Type: OptString, Name: "map_pick", Description: "none (default), vote, ban, random or loser", Choices: []Choice{
			{Name: "none", Value: string(formats.ModeNone)}, {Name: "vote", Value: string(formats.ModeVote)},
			{Name: "ban", Value: string(formats.ModeBan)}, {Name: "random", Value: string(formats.ModeRandom)},
			{Name: "loser", Value: string(formats.ModeLoser)}}},
		Option{Type: OptInteger, Name: "best_of", Description: "games a match: 1 (default), or a best-of-3 or best-of-5 series", Choices: []Choice{
			{Name: "1", Value: int64(1)}, {Name: "3", Value: int64(3)}, {Name: "5", Value: int64(5)}}},
		Option{Type: OptString, Name: "series_rating", Description: "series (default): one rated result a series; games: each game rated", Choices: []Choice{
			{Name: "series", Value: string(formats.RateSeries)}, {Name: "games", Value: string(formats.RateGames)}}})
}

// formatsQueue finds the queue a /config maps or format call names.
func (h *handlers) formatsQueue(ctx context.Context, req Request) (ladder.Queue, error) {
	if h.Formats == nil {
		return ladder.Queue{}, ladder.Errorf(ladder.CodeUnavailable, "map pools are not served by this process")
	}
	name, _ := req.String("queue")
	return h.queueNamed(ctx, req.GuildID, name)
}

func (h *handlers) configMaps(ctx context.Context, req Request) (Reply, error) {
	q, err := h.formatsQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	name, _ := req.String("name")
	name = strings.TrimSpace(name)
	var pool []formats.Map
	var said string
	switch req.Command {
	case "config maps add":
		image, _ := req.String("image")
		if pool, err = h.Formats.AddMap(ctx, actor(req), q, formats.Map{Name: name, ImageURL: strings.TrimSpace(image)}); err != nil {
			return Reply{}, err
		}
		said = userLang(req).T("cfg.map_added", "Map", name, "Queue", q.Name) + " "
	case "config maps remove":
		if pool, err = h.Formats.RemoveMap(ctx, actor(req), q, name); err != nil {
			return Reply{}, err
		}
		said = userLang(req).T("cfg.map_removed", "Map", name, "Queue", q.Name) + " "
	default:
		if pool, err = h.Formats.Maps(ctx, q.ID); err != nil {
			return Reply{}, err
		}
	}
	st, err := h.Formats.Settings(ctx, q.ID)
	if err != nil {
		return Reply{}, err
	}
	return Whisper(said + describePool(userLang(req), q, pool, st)), nil
}

func (h *handlers) configFormat(ctx context.Context, req Request) (Reply, error) {
	q, err := h.formatsQueue(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	st, err := h.Formats.Settings(ctx, q.ID)
	if err != nil {
		return Reply{}, err
	}
	changed := false
	if v, ok := req.String("map_pick"); ok {
		if st.MapPick, err = formats.ParseMode(v); err != nil {
			return Reply{}, err
		}
		changed = true
	}
	if n, ok := req.Int("best_of"); ok {
		st.BestOf, changed = int(n), true
	}
	if v, ok := req.String("series_rating"); ok {
		st.SeriesRating, changed = formats.Rating(v), true
	}
	if changed {
		if err := h.Formats.SaveSettings(ctx, actor(req), q, st); err != nil {
			return Reply{}, err
		}
	}
	pool, err := h.Formats.Maps(ctx, q.ID)
	if err != nil {
		return Reply{}, err
	}
	return Whisper(describePool(userLang(req), q, pool, st)), nil
}

// describePool says a queue's pool and map pick in a few lines.
func describePool(tr *i18n.Lang, q ladder.Queue, pool []formats.Map, st formats.Settings) string {
	var b strings.Builder
	b.WriteString(tr.T("cfg.pick_"+string(st.MapPick), "Queue", q.Name))
	if st.BestOf > 1 {
		how := tr.T("cfg.series_once")
		if st.SeriesRating == formats.RateGames {
			how = tr.T("cfg.series_games")
		}
		b.WriteString("\n" + tr.T("cfg.series", "BestOf", st.BestOf, "How", how, "Rating", string(st.SeriesRating)))
	}
	if len(pool) == 0 {
		b.WriteString("\n" + tr.T("cfg.pool_empty"))
		if st.MapPick != formats.ModeNone {
			b.WriteString(" " + tr.T("cfg.pool_empty_no_map"))
		}
		return b.String()
	}
	b.WriteString("\n" + tr.T("cfg.pool", "N", len(pool), "Max", formats.MaxMaps))
	// 25 maps with image links (a Discord attachment's link runs to 200
	// characters, and one may have 2,048) pass Discord's 2,000 characters
	// a message; the maps that fit are listed whole and the rest counted.
	lines := make([]string, len(pool))
	for i, m := range pool {
		lines[i] = fmt.Sprintf("%d. %s", i+1, m.Name)
		if m.ImageURL != "" {
			lines[i] += fmt.Sprintf(" · <%s>", m.ImageURL)
		}
	}
	b.WriteString("\n" + fitLines(tr, lines, poolChars-utf8.RuneCountInString(b.String())))
	return b.String()
}

// poolChars bounds a pool's description, leaving room within Discord's
// 2,000 characters for the sentence before it (a map added or removed).
const poolChars = 1700
