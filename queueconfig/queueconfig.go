// Package queueconfig reads and writes every setting of a queue as text
// under the option names of /config queue set, room, format, sides,
// requirements, schedule, rematch and community, for the dashboard's queue
// form and the token API's admin/queues routes. It adds no rule of its own:
// the text is parsed by ladder.ApplyQueueSettings, rooms.Settings.Apply,
// the formats' and the joins' parsers, checked by the same Validate
// methods, and stored through the writes (validated and audited) the
// commands make.
package queueconfig

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"github.com/ladderbot/ladderbot/rooms"
)

// Rooms keeps the queues' room settings; rooms.Manager implements it.
type Rooms interface {
	Settings(ctx context.Context, queueID int64) (rooms.Settings, error)
	SaveSettings(ctx context.Context, actor ladder.Actor, q ladder.Queue, s rooms.Settings) error
}

// Joins keeps the queues' join requirements, open hours and rematch
// setting; joins.Service implements it.
type Joins interface {
	Settings(ctx context.Context, q ladder.Queue) (joins.Settings, error)
	QueueName(ctx context.Context, guildID string, id int64) (string, error)
	Check(ctx context.Context, q ladder.Queue, values map[string]string) error
	Configure(ctx context.Context, actor ladder.Actor, q ladder.Queue, values map[string]string) (joins.Settings, error)
}

// Config reads and writes queues' settings. Without Rooms the room
// settings are left out, without Formats the format settings, without Joins the join settings, without
// Community predictions and mvp_vote.
type Config struct {
	Service   *ladder.Service
	Rooms     Rooms
	Formats   Formats
	Joins     Joins
	Community Community
}

// joinFields describe the join settings (/config queue requirements,
// schedule and rematch), in joins.SettingNames' order.
var joinFields = map[string]Field{
	"min_rating":       {Kind: ladder.KindNumber, Help: "least rating in this queue (0 off)", Group: "requirements"},
	"max_rating":       {Kind: ladder.KindNumber, Help: "greatest rating in this queue (0 off)", Group: "requirements"},
	"min_games":        {Kind: ladder.KindInt, Help: "least rated games in games_queue (0 off)", Group: "requirements"},
	"games_queue":      {Kind: ladder.KindText, Help: "the queue min_games counts (empty: this one)", Group: "requirements"},
	"required_role":    {Kind: ladder.KindText, Help: "members must hold this role (a role ID; empty: off)", Group: "requirements"},
	"excluded_role":    {Kind: ladder.KindText, Help: "members holding this role may not join (a role ID; empty: off)", Group: "requirements"},
	"min_account_days": {Kind: ladder.KindInt, Help: "least age of the Discord account in days (0 off)", Group: "requirements"},
	"hours":            {Kind: ladder.KindText, Help: "open hours, e.g. mon-fri 18:00-23:00; sat,sun 12:00-02:00 (empty: always open)", Group: "schedule"},
	"timezone":         {Kind: ladder.KindText, Help: "time zone of the hours, e.g. Europe/Berlin", Group: "schedule"},
	"rematch": {Kind: ladder.KindChoice, Help: "a Rematch button on rated results: same teams, or rebalanced", Group: "rematch",
		Choices: []string{string(joins.RematchOff), string(joins.RematchSame), string(joins.RematchRebalance)}},
}

// Community keeps the queues' predictions and MVP vote settings;
// community.Service implements it.
type Community interface {
	SettingsOf(ctx context.Context, queueID int64) (community.Settings, error)
	SetSettings(ctx context.Context, actor ladder.Actor, guildID, queue string, predictions, mvp *bool) (community.Settings, error)
}

// communityFields are /config queue community's options.
var communityFields = []Field{
	{Name: "predictions", Kind: ladder.KindBool, Help: "let anyone not playing call the winner of a formed match", Group: "community"},
	{Name: "mvp_vote", Kind: ladder.KindBool, Help: "let the players of a rated match vote its MVP", Group: "community"},
}

// Formats keeps the queues' format settings; formats.Service implements it.
type Formats interface {
	Settings(ctx context.Context, queueID int64) (formats.Settings, error)
	SaveSettings(ctx context.Context, actor ladder.Actor, q ladder.Queue, st formats.Settings) error
}

// formatFields are /config queue format's options.
var formatFields = []Field{
	{Name: "map_pick", Kind: ladder.KindChoice, Help: "how a match gets its map: none, vote, ban, random or loser",
		Choices: []string{string(formats.ModeNone), string(formats.ModeVote), string(formats.ModeBan), string(formats.ModeRandom), string(formats.ModeLoser)}},
	{Name: "best_of", Kind: ladder.KindInt, Help: "games a match: 1, or a best-of-3 or best-of-5 series", Choices: []string{"1", "3", "5"}},
	{Name: "series_rating", Kind: ladder.KindChoice, Help: "series: one rated result a series; games: each game rated",
		Choices: []string{string(formats.RateSeries), string(formats.RateGames)}},
}

// formatValues is a queue's format settings as text.
func formatValues(st formats.Settings) map[string]string {
	return map[string]string{"map_pick": string(st.MapPick), "best_of": strconv.Itoa(st.BestOf), "series_rating": string(st.SeriesRating)}
}

// applyFormat sets the format settings named in values and checks the
// result as the formats' SaveSettings does.
func applyFormat(st *formats.Settings, values map[string]string) error {
	next := *st
	if v, ok := values["map_pick"]; ok {
		m, err := formats.ParseMode(v)
		if err != nil {
			return err
		}
		next.MapPick = m
	}
	if v, ok := values["best_of"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return ladder.Errorf(ladder.CodeInvalid, "best_of must be 1, 3 or 5, not %q", v)
		}
		next.BestOf = n
	}
	if v, ok := values["series_rating"]; ok {
		next.SeriesRating = formats.Rating(strings.TrimSpace(v))
	}
	if err := next.Validate(); err != nil {
		return err
	}
	*st = next
	return nil
}

// Field is one setting of a queue with its value as text.
type Field struct {
	Name    string
	Kind    ladder.SettingKind
	Help    string
	Choices []string
	Value   string
	// Group is the command that sets it: "set", "room", "format" or "sides".
	Group string
}

// Queue is a queue's name and its settings in the commands' order.
type Queue struct {
	Name   string
	Fields []Field
}

// Value returns the named setting's text.
func (q Queue) Value(name string) (string, bool) {
	for _, f := range q.Fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// sidesHelp is /config queue sides' option, said of the field.
const sidesHelp = "true when team 1 and team 2 mean something (home/away): the win chance then learns team 1's edge"

// Read returns a queue's settings.
func (c Config) Read(ctx context.Context, guildID, name string) (Queue, error) {
	q, l, err := c.Service.Lobby(ctx, guildID, name)
	if err != nil {
		return Queue{}, err
	}
	return c.read(ctx, q, l)
}

func (c Config) read(ctx context.Context, q ladder.Queue, l ladder.Lobby) (Queue, error) {
	out := Queue{Name: q.Name}
	for _, s := range ladder.QueueSettings() {
		f := Field{Name: s.Name, Kind: s.Kind, Help: s.Help, Choices: s.Choices, Value: s.Value(q, l), Group: "set"}
		if s.Name == "model" {
			f.Choices = rating.ModelNames()
		}
		out.Fields = append(out.Fields, f)
	}
	if c.Rooms != nil {
		rs, err := c.Rooms.Settings(ctx, q.ID)
		if err != nil {
			return Queue{}, err
		}
		values := rs.Values()
		for _, rf := range rooms.Fields {
			out.Fields = append(out.Fields, Field{Name: rf.Name, Kind: rf.Kind, Help: rf.Help, Choices: rf.Choices,
				Value: values[rf.Name], Group: "room"})
		}
	}
	if c.Formats != nil {
		st, err := c.Formats.Settings(ctx, q.ID)
		if err != nil {
			return Queue{}, err
		}
		values := formatValues(st)
		for _, f := range formatFields {
			f.Value, f.Group = values[f.Name], "format"
			out.Fields = append(out.Fields, f)
		}
	}
	if c.Joins != nil {
		st, err := c.Joins.Settings(ctx, q)
		if err != nil {
			return Queue{}, err
		}
		games, err := c.Joins.QueueName(ctx, q.GuildID, st.GamesQueueID)
		if err != nil {
			return Queue{}, err
		}
		values := st.Values(games)
		for _, name := range joins.SettingNames() {
			f := joinFields[name]
			f.Name, f.Value = name, values[name]
			out.Fields = append(out.Fields, f)
		}
	}
	sided, err := c.Service.QueueSided(ctx, q.GuildID, q.Name)
	if err != nil {
		return Queue{}, err
	}
	out.Fields = append(out.Fields, Field{Name: "sides", Kind: ladder.KindBool, Help: sidesHelp,
		Value: strconv.FormatBool(sided), Group: "sides"})
	if c.Community != nil {
		cs, err := c.Community.SettingsOf(ctx, q.ID)
		if err != nil {
			return Queue{}, err
		}
		for _, f := range communityFields {
			f.Value = strconv.FormatBool(map[string]bool{"predictions": cs.Predictions, "mvp_vote": cs.MVPVote}[f.Name])
			out.Fields = append(out.Fields, f)
		}
	}
	for i := range out.Fields {
		if out.Fields[i].Kind == ladder.KindBool {
			out.Fields[i].Choices = []string{"true", "false"}
		}
	}
	return out, nil
}

// Kinds maps every setting's name to its kind.
func (c Config) Kinds() map[string]ladder.SettingKind {
	out := map[string]ladder.SettingKind{"sides": ladder.KindBool}
	for _, s := range ladder.QueueSettings() {
		out[s.Name] = s.Kind
	}
	if c.Rooms != nil {
		for _, f := range rooms.Fields {
			out[f.Name] = f.Kind
		}
	}
	if c.Formats != nil {
		for _, f := range formatFields {
			out[f.Name] = f.Kind
		}
	}
	if c.Joins != nil {
		for name, f := range joinFields {
			out[name] = f.Kind
		}
	}
	if c.Community != nil {
		for _, f := range communityFields {
			out[f.Name] = f.Kind
		}
	}
	return out
}

// Set changes the settings named in values (text, as Read shows them) of
// a queue and returns the queue as it is after. Every value is parsed and
// checked before anything is stored, so a bad one (an unknown name, a
// value /config would refuse, with its message) changes nothing. Values
// equal to the current ones are left alone; changed reports whether any
// was not.
func (c Config) Set(ctx context.Context, actor ladder.Actor, guildID, name string, values map[string]string) (out Queue, changed bool, err error) {
	if !actor.Moderator {
		return Queue{}, false, ladder.Errorf(ladder.CodeForbidden, "only moderators can change queues")
	}
	q, l, err := c.Service.Lobby(ctx, guildID, name)
	if err != nil {
		return Queue{}, false, err
	}
	cur, err := c.read(ctx, q, l)
	if err != nil {
		return Queue{}, false, err
	}
	groups := map[string]map[string]string{"set": {}, "room": {}, "format": {}, "sides": {}, "requirements": {}, "schedule": {}, "rematch": {}, "community": {}}
	for _, n := range slices.Sorted(maps.Keys(values)) {
		i := slices.IndexFunc(cur.Fields, func(f Field) bool { return f.Name == n })
		if i < 0 {
			return Queue{}, false, ladder.Errorf(ladder.CodeInvalid, "no queue setting called %q", n)
		}
		if err := ladder.CheckText(n, values[n]); err != nil {
			return Queue{}, false, err
		}
		if f := cur.Fields[i]; values[n] != f.Value {
			groups[f.Group][n] = values[n]
		}
	}
	// Parse and check everything first.
	nq, nl := q, l
	lobby, err := ladder.ApplyQueueSettings(&nq, &nl, groups["set"])
	if err != nil {
		return Queue{}, false, err
	}
	if len(groups["set"]) > 0 {
		// ConfigureQueue checks the ranges; check them here too so a bad
		// value refuses the room and sides changes with it.
		if err := nq.Validate(); err != nil {
			return Queue{}, false, err
		}
		if err := nl.Validate(); err != nil {
			return Queue{}, false, err
		}
	}
	var rs rooms.Settings
	if len(groups["room"]) > 0 {
		if rs, err = c.Rooms.Settings(ctx, q.ID); err != nil {
			return Queue{}, false, err
		}
		if err := rs.Apply(groups["room"]); err != nil {
			return Queue{}, false, err
		}
	}
	var st formats.Settings
	if len(groups["format"]) > 0 {
		if st, err = c.Formats.Settings(ctx, q.ID); err != nil {
			return Queue{}, false, err
		}
		if err := applyFormat(&st, groups["format"]); err != nil {
			return Queue{}, false, err
		}
	}
	var sided bool
	if v, ok := groups["sides"]["sides"]; ok {
		if sided, err = strconv.ParseBool(strings.TrimSpace(v)); err != nil {
			return Queue{}, false, ladder.Errorf(ladder.CodeInvalid, "sides must be true or false, not %q", v)
		}
	}
	join := map[string]string{}
	for _, g := range []string{"requirements", "schedule", "rematch"} {
		maps.Copy(join, groups[g])
	}
	if len(join) > 0 {
		if err := c.Joins.Check(ctx, q, join); err != nil {
			return Queue{}, false, err
		}
	}
	var social [2]*bool
	for i, f := range communityFields {
		if v, ok := groups["community"][f.Name]; ok {
			on, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return Queue{}, false, ladder.Errorf(ladder.CodeInvalid, "%s must be true or false, not %q", f.Name, v)
			}
			social[i] = &on
		}
	}
	// Then store, through the commands' writes.
	if len(groups["set"]) > 0 {
		var lp *ladder.Lobby
		if lobby {
			lp = &nl
		}
		if _, _, err := c.Service.ConfigureQueue(ctx, actor, nq, lp); err != nil {
			return Queue{}, false, err
		}
	}
	if len(groups["room"]) > 0 {
		if err := c.Rooms.SaveSettings(ctx, actor, q, rs); err != nil {
			return Queue{}, false, err
		}
	}
	if len(groups["format"]) > 0 {
		if err := c.Formats.SaveSettings(ctx, actor, q, st); err != nil {
			return Queue{}, false, err
		}
	}
	if len(groups["sides"]) > 0 {
		if err := c.Service.SetQueueSides(ctx, actor, guildID, q.Name, sided); err != nil {
			return Queue{}, false, err
		}
	}
	if len(join) > 0 {
		if _, err := c.Joins.Configure(ctx, actor, q, join); err != nil {
			return Queue{}, false, err
		}
	}

	if len(groups["community"]) > 0 {
		if _, err := c.Community.SetSettings(ctx, actor, guildID, q.Name, social[0], social[1]); err != nil {
			return Queue{}, false, err
		}
	}
	changed = len(groups["set"])+len(groups["room"])+len(groups["format"])+len(groups["sides"])+len(join)+len(groups["community"]) > 0
	out, err = c.Read(ctx, guildID, q.Name)
	return out, changed, err
}
