package dashboard

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// guildSetting is one field of the guild's settings form, named after
// the option of /config moderator, channels, thresholds, divisions or
// season that sets it.
type guildSetting struct {
	Name, Help string
	get        func(ladder.Guild) string
	set        func(*ladder.Guild, string) error
}

var guildSettings = []guildSetting{
	{"role", "moderator role ID (/config moderator; besides Manage Server)",
		func(g ladder.Guild) string { return g.ModeratorRoleID },
		func(g *ladder.Guild, v string) error { return setID("role", v, &g.ModeratorRoleID) }},
	{"announce", "channel ID for season standings and the weekly top 10",
		func(g ladder.Guild) string { return g.AnnounceChannelID },
		func(g *ladder.Guild, v string) error { return setID("announce", v, &g.AnnounceChannelID) }},
	{"log", "channel ID for moderator actions",
		func(g ladder.Guild) string { return g.LogChannelID },
		func(g *ladder.Guild, v string) error { return setID("log", v, &g.LogChannelID) }},
	{"weekly_top", "on or off: post each queue's top 10 to the announce channel every Monday",
		func(g ladder.Guild) string {
			if g.WeeklyTop {
				return "on"
			}
			return "off"
		},
		func(g *ladder.Guild, v string) error { return setOnOff("weekly_top", v, &g.WeeklyTop) }},
	{"placement_games", "rated games before ranking (0-100)",
		func(g ladder.Guild) string { return strconv.Itoa(g.PlacementGames) },
		func(g *ladder.Guild, v string) error { return setWhole("placement_games", v, &g.PlacementGames) }},
	{"stale_days", "days without a game before inactive",
		func(g ladder.Guild) string { return strconv.Itoa(g.StaleDays) },
		func(g *ladder.Guild, v string) error { return setWhole("stale_days", v, &g.StaleDays) }},
	{"confirm_minutes", "minutes to confirm a report",
		func(g ladder.Guild) string { return strconv.Itoa(int(g.ConfirmWindow / time.Minute)) },
		func(g *ladder.Guild, v string) error { return setMinutes("confirm_minutes", v, &g.ConfirmWindow) }},
	{"queue_minutes", "minutes a queue entry waits",
		func(g ladder.Guild) string { return strconv.Itoa(int(g.QueueTimeout / time.Minute)) },
		func(g *ladder.Guild, v string) error { return setMinutes("queue_minutes", v, &g.QueueTimeout) }},
	{"season_carry", "share of rating carried to a new season (0-1)",
		func(g ladder.Guild) string { return strconv.FormatFloat(g.SeasonCarry, 'g', -1, 64) },
		func(g *ladder.Guild, v string) error {
			f, err := ladder.ParseDecimal(v)
			if err != nil {
				return ladder.Errorf(ladder.CodeInvalid, "season_carry must be a number, not %q", v)
			}
			g.SeasonCarry = f
			return nil
		}},
	{"divisions", "divisions, lowest first, e.g. Bronze:0, Silver:1400, Gold:1550",
		func(g ladder.Guild) string { return ladder.FormatDivisions(g.Divisions) },
		func(g *ladder.Guild, v string) (err error) { g.Divisions, err = ladder.ParseDivisions(v); return err }},
	{"schedule", "season schedule: 5-field cron (UTC), or off",
		func(g ladder.Guild) string {
			if g.SeasonSchedule == "" {
				return "off"
			}
			return g.SeasonSchedule
		},
		func(g *ladder.Guild, v string) error { g.SeasonSchedule = ladder.ParseSeasonSchedule(v); return nil }},
}

func setID(name, v string, to *string) error {
	v = strings.TrimSpace(v)
	if v != "" && (len(v) > 20 || strings.Trim(v, "0123456789") != "") {
		return ladder.Errorf(ladder.CodeInvalid, "%s must be a Discord channel or role, not %q", name, v)
	}
	*to = v
	return nil
}

// setOnOff reads a switch as on or off (or true and false, yes and no,
// 1 and 0, in any case): what /config channels' weekly_top sets.
func setOnOff(name, v string, to *bool) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "on", "true", "yes", "1":
		*to = true
	case "off", "false", "no", "0":
		*to = false
	default:
		return ladder.Errorf(ladder.CodeInvalid, "%s must be on or off, not %q", name, v)
	}
	return nil
}

func setWhole(name, v string, to *int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return ladder.Errorf(ladder.CodeInvalid, "%s must be a whole number, not %q", name, v)
	}
	*to = n
	return nil
}

func setMinutes(name, v string, to *time.Duration) error {
	var n int
	if err := setWhole(name, v, &n); err != nil {
		return err
	}
	if n < 0 || n > 1<<20 {
		// Past this the minutes would overflow; the guild's own check
		// (Guild.Validate) gives the real range.
		return ladder.Errorf(ladder.CodeInvalid, "%s is out of range: %d", name, n)
	}
	*to = time.Duration(n) * time.Minute
	return nil
}

// settingsForm is the data of the guild settings page.
type settingsForm struct {
	Fields []fieldView
	Season ladder.Season
	// Roles is the division and badge role mapping, the form of
	// /config roles (the command can also create the roles on Discord).
	Roles []roleRow
}

// roleRow is one division or badge and its role ("" unmapped); Field is
// its form field.
type roleRow struct{ What, Field, RoleID string }

// roleField names the form field of a division or badge.
func roleField(kind, name string) string { return kind + ":" + name }

func (d *Dashboard) settingsData(r *http.Request, g ladder.Guild, submitted map[string]string) (settingsForm, error) {
	var out settingsForm
	for _, s := range guildSettings {
		v := s.get(g)
		if sv, ok := submitted[s.Name]; ok {
			v = sv
		}
		out.Fields = append(out.Fields, fieldView{Name: s.Name, Kind: "text", Help: s.Help, Value: v})
	}
	season, err := d.svc.LatestSeason(r.Context(), g.ID)
	if err != nil {
		return out, err
	}
	out.Season = season
	rows, err := d.roleRows(r, g)
	if err != nil {
		return out, err
	}
	for i := range rows {
		if v, ok := submitted[rows[i].Field]; ok {
			rows[i].RoleID = v
		}
	}
	out.Roles = rows
	return out, nil
}

// roleRows lists the guild's divisions, then the badges, with their roles.
func (d *Dashboard) roleRows(r *http.Request, g ladder.Guild) ([]roleRow, error) {
	rc, err := d.svc.DivisionRoleConfig(r.Context(), g.ID)
	if err != nil {
		return nil, err
	}
	l := pageLang(r)
	var out []roleRow
	for _, div := range g.Divisions {
		out = append(out, roleRow{What: div.Name, Field: roleField("division", div.Name), RoleID: rc.Mapping[div.Name]})
	}
	for _, b := range ladder.Badges {
		out = append(out, roleRow{What: l.T("dash.badge", "Badge", b), Field: roleField("badge", b), RoleID: rc.Badges[b]})
	}
	return out, nil
}

// saveRoles applies the changed rows of the role mapping through
// Service.SetRoles, the write of /config roles, which validates and
// audits; an empty role unmaps. A bad role shows the form again with its
// message and stores nothing.
func (d *Dashboard) saveRoles(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	rows, err := d.roleRows(r, gr.Guild)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	set := ladder.RoleMapping{Divisions: map[string]string{}, Badges: map[string]string{}}
	submitted := map[string]string{}
	for _, row := range rows {
		if !r.PostForm.Has(row.Field) {
			continue
		}
		v := strings.TrimSpace(r.PostForm.Get(row.Field))
		submitted[row.Field] = v
		if v == row.RoleID {
			continue
		}
		kind, name, _ := strings.Cut(row.Field, ":")
		if kind == "badge" {
			set.Badges[name] = v
		} else {
			set.Divisions[name] = v
		}
	}
	if len(set.Divisions)+len(set.Badges) == 0 {
		d.back(w, r, guildPath(gr.Guild.ID, "settings"), pageLang(r).T("dash.nothing_changed"))
		return
	}
	if _, err := d.svc.SetRoles(r.Context(), gr.Actor, gr.Guild.ID, set); err != nil {
		d.settingsRefused(w, r, gr, submitted, err)
		return
	}
	d.back(w, r, guildPath(gr.Guild.ID, "settings"), pageLang(r).T("cfg.roles_saved"))
}

// settingsPage serves the guild's settings: moderator role, channels,
// thresholds, divisions and the season schedule, and the season's end.
func (d *Dashboard) settingsPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	data, err := d.settingsData(r, gr.Guild, nil)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, http.StatusOK, "settings", d.guildPage(r.Context(), gr, "dash.settings", data))
}

// saveSettings applies the changed fields and stores the guild through
// Service.UpdateGuild, the write of /config, which validates and audits;
// a bad value shows the form again with its message and stores nothing.
func (d *Dashboard) saveSettings(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	g := gr.Guild
	submitted := map[string]string{}
	var err error
	changed := false
	for _, s := range guildSettings {
		if !r.PostForm.Has(s.Name) {
			continue
		}
		v := r.PostForm.Get(s.Name)
		submitted[s.Name] = v
		if v == s.get(g) {
			continue
		}
		changed = true
		if err = ladder.CheckText(s.Name, v); err == nil {
			err = s.set(&g, v)
		}
		if err != nil {
			break
		}
	}
	if !changed {
		d.back(w, r, guildPath(g.ID, "settings"), pageLang(r).T("dash.nothing_changed"))
		return
	}
	if err == nil {
		_, err = d.svc.UpdateGuild(r.Context(), gr.Actor, g)
	}
	if err != nil {
		d.settingsRefused(w, r, gr, submitted, err)
		return
	}
	d.back(w, r, guildPath(g.ID, "settings"), pageLang(r).T("dash.settings_saved"))
}

// settingsRefused shows the settings page again with what was submitted
// and the message of err, which refused it.
func (d *Dashboard) settingsRefused(w http.ResponseWriter, r *http.Request, gr guildRequest, submitted map[string]string, err error) {
	d.refused(w, r, err, "settings", func() (page, error) {
		data, err := d.settingsData(r, gr.Guild, submitted)
		return d.guildPage(r.Context(), gr, "dash.settings", data), err
	})
}

// endSeason ends the season the form showed (so a second click, or a
// click after the schedule ended it, changes nothing) and starts the next.
// The final standings are not posted to Discord from here.
func (d *Dashboard) endSeason(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	n, err := strconv.Atoi(r.PostFormValue("season"))
	if err != nil || n < 1 {
		d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "season must be a season number"))
		return
	}
	ro, err := d.svc.EndSeason(r.Context(), gr.Actor, gr.Guild.ID, n)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.invalidate(gr.Guild.ID)
	msg := pageLang(r).T("dash.season_ended", "Ended", ro.Ended.Number, "Started", ro.Started.Number)
	if ro.AlreadyDone {
		msg = pageLang(r).T("mod.season_already", "Season", ro.Ended.Number)
	}
	d.back(w, r, guildPath(gr.Guild.ID, "settings"), msg)
}
