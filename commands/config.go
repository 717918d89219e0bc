package commands

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

func (h *handlers) configCommand() Command {
	var models []Choice
	for _, m := range rating.ModelNames() {
		models = append(models, Choice{Name: m, Value: m})
	}
	one, eight, zeroF, oneF := 1.0, float64(rating.MaxTeamSize), 0.0, 1.0
	tenF, thousandF := 10.0, 1000.0
	hundred, days, week, day := 100.0, 3650.0, 7*24*60.0, 24*60.0
	modelOpt := Option{Type: OptString, Name: "model", Description: "rating model", Choices: models}
	teamOpt := func(required bool) Option {
		return Option{Type: OptInteger, Name: "team_size", Description: "players per team", Required: required, Min: &one, Max: &eight}
	}
	return Command{
		Name:        "config",
		Description: "Server settings: queues, thresholds, channels, moderator role, divisions, seasons",
		Access:      Admins,
		Ephemeral:   true,
		Options: []Option{
			sub("show", "Show the current settings"),
			group("queue", "Add or change queues",
				sub("add", "Add a queue", Option{Type: OptString, Name: "name", Description: "queue name", Required: true, MaxLength: 32}, teamOpt(true), modelOpt,
					opt(OptChannel, "channel", "where its matches are announced", false)),
				sub("set", "Change a queue", append([]Option{
					{Type: OptString, Name: "queue", Description: "queue name", Required: true, Autocomplete: true, MaxLength: 32},
					teamOpt(false), modelOpt,
					{Type: OptNumber, Name: "q_start", Description: "quality needed at first (0-1)", Min: &zeroF, Max: &oneF},
					{Type: OptNumber, Name: "q_floor", Description: "quality accepted after waiting (0-1)", Min: &zeroF, Max: &oneF},
					opt(OptChannel, "channel", "where its matches are announced", false),
					opt(OptBool, "open", "accept new players", false),
					Option{Type: OptNumber, Name: "party_max_weight", Description: "party rating: weight of its best player (0-10; 0 and 0 off)", Min: &zeroF, Max: &tenF},
					Option{Type: OptNumber, Name: "party_median_weight", Description: "party rating: weight of its median player (0-10)", Min: &zeroF, Max: &tenF},
					Option{Type: OptNumber, Name: "ordinal_deviations", Description: "party rating: RDs taken off (0-10)", Min: &zeroF, Max: &tenF},
					opt(OptBool, "self_tune", "learn the model's constants from this queue's log at each season end", false),
					Option{Type: OptInteger, Name: "behaviour_pairing", Description: "match low behaviour scores together from this many queued players (0 off)", Min: &zeroF, Max: &thousandF}}, lobbyOptions()...)...),
				roomSub(),
				sidesSub(),
				formatSub(),
				requirementsSub(),
				scheduleSub(),
				rematchSub(),
				communitySub(),
				sub("panel", "Post the queue's panel: a message with Join, Leave, Join with… and Status buttons",
					Option{Type: OptString, Name: "queue", Description: "queue name (default: the server's first queue)", Autocomplete: true, MaxLength: 32},
					opt(OptChannel, "channel", "where the panel goes (default: the queue's channel, else here)", false))),
			mapsGroup(),
			sub("moderator", "Set the moderator role (besides Manage Server)", opt(OptRole, "role", "the role", true)),
			sub("channels", "Set where announcements and moderator logs go",
				opt(OptChannel, "announce", "season standings and weekly top 10", false),
				opt(OptChannel, "log", "moderator actions", false),
				opt(OptChannel, "results", "every rated result, with rating changes", false),
				opt(OptBool, "weekly_top", "post each queue's top 10 to the announce channel every Monday", false)),
			sub("thresholds", "Placement, inactivity, confirm and queue timeouts",
				Option{Type: OptInteger, Name: "placement_games", Description: "rated games before ranking (0-100)", Min: &zeroF, Max: &hundred},
				Option{Type: OptInteger, Name: "stale_days", Description: "days without a game before inactive", Min: &one, Max: &days},
				Option{Type: OptInteger, Name: "confirm_minutes", Description: "minutes to confirm a report", Min: &one, Max: &week},
				Option{Type: OptInteger, Name: "queue_minutes", Description: "minutes a queue entry waits", Min: &one, Max: &day},
				Option{Type: OptNumber, Name: "season_carry", Description: "share of rating carried to a new season (0-1)", Min: &zeroF, Max: &oneF}),
			sub("divisions", "Set the divisions, lowest first, on the rating scale the queues display",
				Option{Type: OptString, Name: "list", Description: "e.g. Bronze:0, Silver:1400, Gold:1550", Required: true, MaxLength: 400}),
			sub("roles", "Give each division, and last season's badges, a Discord role (only mapped roles are touched)",
				Option{Type: OptString, Name: "division", Description: "the division to map", Autocomplete: true, MaxLength: 32},
				Option{Type: OptString, Name: "badge", Description: "last season's badge to map", Choices: []Choice{
					{Name: "top 3", Value: "top3"}, {Name: "top 30", Value: "top30"}, {Name: "top 100", Value: "top100"}}},
				opt(OptRole, "role", "its role (leave out to unmap the division or badge)", false),
				opt(OptBool, "create", "create a role for every unmapped division, or for the badge given (needs Manage Roles)", false),
				opt(OptBool, "clear", "remove the whole mapping; roles players hold stay", false)),
			sub("season", "Set the season schedule",
				Option{Type: OptString, Name: "schedule", Description: "5-field cron (UTC), or off", Required: true, MaxLength: 100}),
			languageSub(),
		},
		Handle:       h.config,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) config(ctx context.Context, req Request) (Reply, error) {
	g, err := h.ensure(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	a := actor(req)
	for _, name := range []string{"channel", "announce", "log", "results", "role"} {
		if v, _ := req.String(name); req.Has(name) && !snowflake(v) {
			// Channel and role options are always IDs; anything else is forged.
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord channel or role, not %q", name, v)
		}
	}
	switch req.Command {
	case "config show":
		return h.configShow(ctx, userLang(req), g)
	case "config roles":
		return h.configRoles(ctx, req, g)
	case "config queue add":
		name, _ := req.String("name")
		k, _ := req.Int("team_size")
		q := ladder.NewQueue(req.GuildID, strings.TrimSpace(name), int(k))
		if m, ok := req.String("model"); ok {
			q.Model = m
		}
		q.ChannelID, _ = req.String("channel")
		q, err := h.Service.CreateQueue(ctx, a, q)
		if err != nil {
			return Reply{}, err
		}
		return Whisper(userLang(req).T("cfg.queue_added", "Queue", q.Name, "Size", q.TeamSize, "Model", q.Model)), nil
	case "config queue set":
		return h.configQueue(ctx, req)
	case "config queue room":
		return h.configRoom(ctx, req)
	case "config queue community":
		return h.configCommunity(ctx, req)
	case "config queue sides":
		return h.configSides(ctx, req)
	case "config queue format":
		return h.configFormat(ctx, req)
	case "config maps add", "config maps remove", "config maps list":
		return h.configMaps(ctx, req)
	case "config queue requirements", "config queue schedule", "config queue rematch":
		return h.configJoins(ctx, req)
	case "config queue panel":
		return h.configPanel(ctx, req)
	case "config language":
		return h.configLanguage(ctx, req, g)
	case "config moderator":
		g.ModeratorRoleID, _ = req.String("role")
	case "config channels":
		if !req.Has("announce") && !req.Has("log") && !req.Has("results") && !req.Has("weekly_top") {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give announce, log, results, weekly_top or several")
		}
		if c, ok := req.String("results"); ok {
			if h.Panels == nil {
				return Reply{}, ladder.Errorf(ladder.CodeInvalid, "the results channel is not available on this bot")
			}
			if err := h.Panels.SetResultsChannel(ctx, req.GuildID, c); err != nil {
				return Reply{}, err
			}
		}
		if c, ok := req.String("announce"); ok {
			g.AnnounceChannelID = c
		}
		if c, ok := req.String("log"); ok {
			g.LogChannelID = c
		}
		if on, ok := req.Bool("weekly_top"); ok {
			g.WeeklyTop = on
		}
	case "config thresholds":
		if len(req.Options) == 0 {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give at least one threshold to change")
		}
		if n, ok := req.Int("placement_games"); ok {
			g.PlacementGames = int(n)
		}
		if n, ok := req.Int("stale_days"); ok {
			g.StaleDays = int(n)
		}
		if n, ok := req.Int("confirm_minutes"); ok {
			g.ConfirmWindow = time.Duration(n) * time.Minute
		}
		if n, ok := req.Int("queue_minutes"); ok {
			g.QueueTimeout = time.Duration(n) * time.Minute
		}
		if f, ok := req.Float("season_carry"); ok {
			g.SeasonCarry = f
		}
	case "config divisions":
		list, _ := req.String("list")
		divs, err := parseDivisions(list)
		if err != nil {
			return Reply{}, err
		}
		g.Divisions = divs
	case "config season":
		s, _ := req.String("schedule")
		g.SeasonSchedule = ladder.ParseSeasonSchedule(s)
	default:
		return Reply{}, unknownSub(req)
	}
	if _, err := h.Service.UpdateGuild(ctx, a, g); err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	r, err := h.configShow(ctx, tr, g)
	r.Content = tr.T("cfg.saved")
	return r, err
}

func (h *handlers) configQueue(ctx context.Context, req Request) (Reply, error) {
	tr := userLang(req)
	name, _ := req.String("queue")
	q, err := h.queueNamed(ctx, req.GuildID, name)
	if err != nil {
		return Reply{}, err
	}
	if k, ok := req.Int("team_size"); ok {
		q.TeamSize = int(k)
	}
	if m, ok := req.String("model"); ok && m != q.Model {
		q.Model, q.Params = m, nil
	}
	if f, ok := req.Float("q_start"); ok {
		q.QStart = f
	}
	if f, ok := req.Float("q_floor"); ok {
		q.QFloor = f
	}
	if c, ok := req.String("channel"); ok {
		q.ChannelID = c
	}
	if open, ok := req.Bool("open"); ok {
		q.Disabled = !open
	}
	if on, ok := req.Bool("self_tune"); ok {
		q.SelfTune = on
	}
	setPartyRating(req, &q)
	setBehaviourPairing(req, &q)
	if !hasLobbyOption(req) {
		if q, err = h.Service.UpdateQueue(ctx, actor(req), q); err != nil {
			return Reply{}, err
		}
		return Whisper(tr.T("cfg.queue_saved", "Queue", q.Name, "Settings", queueLine(tr, q))), nil
	}
	l, err := h.lobbyFromOptions(ctx, req, q)
	if err != nil {
		return Reply{}, err
	}
	// Both in one transaction: a bad lobby value leaves the queue as it was.
	if q, l, err = h.Service.ConfigureQueue(ctx, actor(req), q, &l); err != nil {
		return Reply{}, err
	}
	return Whisper(tr.T("cfg.queue_saved", "Queue", q.Name, "Settings", queueLine(tr, q)) + "\n" + tr.T("cfg.lobby", "Lobby", lobbyLine(tr, l))), nil
}

// queueLine sums a queue's settings up in language tr.
func queueLine(tr *i18n.Lang, q ladder.Queue) string {
	s := tr.T("cfg.queue_line", "Size", q.TeamSize, "Model", q.Model, "Start", tr.Number(q.QStart, 2), "Floor", tr.Number(q.QFloor, 2))
	if q.ChannelID != "" {
		s += " · <#" + q.ChannelID + ">"
	}
	if q.Disabled {
		s += " · " + tr.T("cfg.closed")
	}
	if q.SelfTune {
		s += " · " + tr.T("cfg.self_tuning")
	}
	s += partyRatingText(tr, q)
	s += behaviourPairingText(tr, q)
	return s
}

func (h *handlers) configShow(ctx context.Context, tr *i18n.Lang, g ladder.Guild) (Reply, error) {
	qs, err := h.Service.Queues(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	queueFields, queueNames := make([]Field, 0, len(qs)), make([]string, 0, len(qs))
	for _, q := range qs {
		var queue strings.Builder
		fmt.Fprintf(&queue, "%s\n", queueLine(tr, q))
		_, l, err := h.Service.Lobby(ctx, g.ID, q.Name)
		if err != nil {
			return Reply{}, err
		}
		fmt.Fprintf(&queue, "%s\n", tr.T("cfg.show_lobby", "Lobby", lobbyLine(tr, l)))
		if h.Rooms != nil {
			s, err := h.Rooms.Settings(ctx, q.ID)
			if err != nil {
				return Reply{}, err
			}
			fmt.Fprintf(&queue, "%s\n", tr.T("cfg.show_rooms", "Rooms", describeRoom(tr, s)))
		}
		if line, err := h.joinsLine(ctx, tr, q); err != nil {
			return Reply{}, err
		} else if line != "" {
			fmt.Fprintf(&queue, "%s\n", tr.T("cfg.show_joins", "Joins", line))
		}
		queueFields = append(queueFields, Field{Name: tr.T("cfg.queue_field", "Queue", q.Name), Value: queue.String()})
		queueNames = append(queueNames, q.Name)
	}
	orNone := func(prefix, id string) string {
		if id == "" {
			return tr.T("cfg.not_set")
		}
		return prefix + id + ">"
	}
	var divs []string
	for _, d := range g.Divisions {
		divs = append(divs, d.Name+":"+tr.Float(d.Min))
	}
	results := ""
	if h.Panels != nil {
		if results, err = h.Panels.ResultsChannel(ctx, g.ID); err != nil {
			return Reply{}, err
		}
	}
	schedule, err := scheduleText(tr, g.SeasonSchedule, h.Service.Now())
	if err != nil {
		return Reply{}, err
	}
	e := Embed{Title: tr.T("cfg.settings"), Color: ColorInfo, Fields: []Field{
		{Name: tr.T("cfg.moderator_role"), Value: orNone("<@&", g.ModeratorRoleID), Inline: true},
		{Name: tr.T("cfg.announcements"), Value: orNone("<#", g.AnnounceChannelID), Inline: true},
		{Name: tr.T("cfg.moderator_log"), Value: orNone("<#", g.LogChannelID), Inline: true},
		{Name: tr.T("cfg.results"), Value: orNone("<#", results), Inline: true},
		{Name: tr.T("cfg.weekly_top"), Value: onOff(tr, g.WeeklyTop), Inline: true},
		{Name: tr.T("cfg.thresholds"), Value: tr.T("cfg.thresholds_value",
			"Placement", tr.N("cfg.games", g.PlacementGames), "Stale", tr.N("unit.day", g.StaleDays), "Confirm", tr.Duration(g.ConfirmWindow),
			"Queue", tr.Duration(g.QueueTimeout), "Carry", tr.Number(g.SeasonCarry, 2))},
		{Name: tr.T("cfg.divisions"), Value: strings.Join(divs, ", ")},
		{Name: tr.T("cfg.season_schedule"), Value: schedule},
	}}
	rc, err := h.Service.DivisionRoleConfig(ctx, g.ID)
	if err != nil {
		return Reply{}, err
	}
	e.Fields = append(e.Fields, Field{Name: tr.T("cfg.rank_roles"), Value: roleLines(tr, g, rc)})
	e.Fields = appendWithin(tr, e, queueFields, queueNames)
	return Reply{Ephemeral: true, Embeds: []Embed{e}}, nil
}

// appendWithin adds each queue's field to e after the server's own
// settings, one field a queue so that no queue's settings are cut off in
// the middle, for as many queues as Discord's limits allow; the queues
// that do not fit are named in a last field, with the dashboard, which
// shows every queue, as the place to see them.
func appendWithin(tr *i18n.Lang, e Embed, queues []Field, names []string) []Field {
	size := func(f Field) int {
		return utf8.RuneCountInString(f.Name) + min(utf8.RuneCountInString(f.Value), embedFieldValue)
	}
	used := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer)
	for _, f := range e.Fields {
		used += size(f)
	}
	// Room for the last field that names the queues left out: its name
	// and up to 400 characters of names.
	const rest = 450
	fields := e.Fields
	for i, q := range queues {
		last := i == len(queues)-1
		fits := len(fields)+1 <= embedFields && used+size(q) <= embedTotal
		if !last {
			fits = len(fields)+2 <= embedFields && used+size(q)+rest <= embedTotal
		}
		if !fits {
			list := clipText(strings.Join(names[i:], ", "), rest-50)
			return append(fields, Field{Name: tr.N("cfg.more_queues", len(queues)-i), Value: list})
		}
		used += size(q)
		fields = append(fields, q)
	}
	return fields
}

// scheduleText shows a season schedule with the next time it fires, so a
// moderator sees at once what the expression means.
func scheduleText(tr *i18n.Lang, schedule string, now time.Time) (string, error) {
	if schedule == "" {
		return tr.T("cfg.schedule_off"), nil
	}
	next, err := ladder.NextSeasonClose(schedule, now)
	if err != nil {
		return "", err
	}
	return tr.T("cfg.schedule", "Schedule", schedule, "Next", tr.DateTime(next), "Unix", next.Unix()), nil
}

// parseDivisions reads "Name:min, Name:min, …", lowest first.
func parseDivisions(s string) ([]ladder.Division, error) { return ladder.ParseDivisions(s) }

// queueNamed finds a guild's queue by name, in any case, for the /config
// queue subcommands; the last of equal names wins, as before.
func (h *handlers) queueNamed(ctx context.Context, guildID, name string) (ladder.Queue, error) {
	qs, err := h.Service.Queues(ctx, guildID)
	if err != nil {
		return ladder.Queue{}, err
	}
	var q ladder.Queue
	for _, c := range qs {
		if strings.EqualFold(c.Name, name) {
			q = c
		}
	}
	if q.ID == 0 {
		return ladder.Queue{}, ladder.Errorf(ladder.CodeNotFound, "no queue called %q", name)
	}
	return q, nil
}
