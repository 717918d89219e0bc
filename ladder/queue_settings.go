package ladder

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// SettingKind is how a queue setting's value is written: the form control
// the dashboard shows and the JSON type the token API reads and writes.
type SettingKind string

// Setting kinds.
const (
	KindInt     SettingKind = "int"
	KindNumber  SettingKind = "number"
	KindBool    SettingKind = "bool"
	KindText    SettingKind = "text"
	KindChannel SettingKind = "channel"
	KindChoice  SettingKind = "choice"
)

// QueueSetting is one field of /config queue set under the option's name,
// readable and writable as text, so the dashboard's forms and the token
// API change a queue exactly as the command does. Values are only parsed
// here; the ranges are checked by Queue.Validate and Lobby.Validate when
// Service.ConfigureQueue stores them, with the messages /config shows.
type QueueSetting struct {
	Name string
	Kind SettingKind
	// Help is the command option's description.
	Help string
	// Choices are the accepted values of a KindChoice setting; the model's
	// are filled in by the caller, which knows the rating package.
	Choices []string
	// Lobby says the setting is kept with the queue's lobby settings.
	Lobby bool
	get   func(Queue, Lobby) string
	set   func(*Queue, *Lobby, string) error
}

// Value returns the setting of q and l as text that Apply reads back.
func (s QueueSetting) Value(q Queue, l Lobby) string { return s.get(q, l) }

// queueSettings lists /config queue set's options in the command's order.
var queueSettings = []QueueSetting{
	{Name: "team_size", Kind: KindInt, Help: "players per team",
		get: func(q Queue, _ Lobby) string { return strconv.Itoa(q.TeamSize) },
		set: func(q *Queue, _ *Lobby, v string) error { return setInt("team_size", v, &q.TeamSize) }},
	{Name: "model", Kind: KindChoice, Help: "rating model",
		get: func(q Queue, _ Lobby) string { return q.Model },
		set: func(q *Queue, _ *Lobby, v string) error {
			if v = strings.TrimSpace(v); v != q.Model {
				// A new model starts from its own default parameters.
				q.Model, q.Params = v, nil
			}
			return nil
		}},
	{Name: "q_start", Kind: KindNumber, Help: "quality needed at first (0-1)",
		get: func(q Queue, _ Lobby) string { return formatFloat(q.QStart) },
		set: func(q *Queue, _ *Lobby, v string) error { return setFloat("q_start", v, &q.QStart) }},
	{Name: "q_floor", Kind: KindNumber, Help: "quality accepted after waiting (0-1)",
		get: func(q Queue, _ Lobby) string { return formatFloat(q.QFloor) },
		set: func(q *Queue, _ *Lobby, v string) error { return setFloat("q_floor", v, &q.QFloor) }},
	{Name: "channel", Kind: KindChannel, Help: "where its matches are announced (empty: where /queue join was last used)",
		get: func(q Queue, _ Lobby) string { return q.ChannelID },
		set: func(q *Queue, _ *Lobby, v string) error {
			v = strings.TrimSpace(v)
			if v != "" && validateSnowflake("channel", v) != nil {
				return Errorf(CodeInvalid, "channel must be a Discord channel or role, not %q", v)
			}
			q.ChannelID = v
			return nil
		}},
	{Name: "open", Kind: KindBool, Help: "accept new players",
		get: func(q Queue, _ Lobby) string { return strconv.FormatBool(!q.Disabled) },
		set: func(q *Queue, _ *Lobby, v string) error {
			var open bool
			if err := setBool("open", v, &open); err != nil {
				return err
			}
			q.Disabled = !open
			return nil
		}},
	{Name: "party_max_weight", Kind: KindNumber, Help: "party rating: weight of its best player (0-10; 0 and 0 off)",
		get: func(q Queue, _ Lobby) string { return formatFloat(q.PartyMaxWeight) },
		set: func(q *Queue, _ *Lobby, v string) error { return setFloat("party_max_weight", v, &q.PartyMaxWeight) }},
	{Name: "party_median_weight", Kind: KindNumber, Help: "party rating: weight of its median player (0-10)",
		get: func(q Queue, _ Lobby) string { return formatFloat(q.PartyMedianWeight) },
		set: func(q *Queue, _ *Lobby, v string) error {
			return setFloat("party_median_weight", v, &q.PartyMedianWeight)
		}},
	{Name: "ordinal_deviations", Kind: KindNumber, Help: "party rating: RDs taken off (0-10)",
		get: func(q Queue, _ Lobby) string { return formatFloat(q.OrdinalDeviations) },
		set: func(q *Queue, _ *Lobby, v string) error {
			return setFloat("ordinal_deviations", v, &q.OrdinalDeviations)
		}},
	{Name: "self_tune", Kind: KindBool, Help: "learn the model's constants from this queue's log at each season end",
		get: func(q Queue, _ Lobby) string { return strconv.FormatBool(q.SelfTune) },
		set: func(q *Queue, _ *Lobby, v string) error { return setBool("self_tune", v, &q.SelfTune) }},
	{Name: "behaviour_pairing", Kind: KindInt, Help: "match low behaviour scores together from this many queued players (0 off)",
		get: func(q Queue, _ Lobby) string { return strconv.Itoa(q.BehaviourPairing) },
		set: func(q *Queue, _ *Lobby, v string) error {
			return setInt("behaviour_pairing", v, &q.BehaviourPairing)
		}},
	{Name: "ready_window", Kind: KindInt, Lobby: true, Help: "seconds to click Ready after a match forms (0: no ready check)",
		get: func(_ Queue, l Lobby) string { return strconv.Itoa(int(l.ReadyWindow / time.Second)) },
		set: func(_ *Queue, l *Lobby, v string) error {
			return setSeconds("ready_window", v, 3600, &l.ReadyWindow)
		}},
	{Name: "cooldowns", Kind: KindText, Lobby: true, Help: "cooldowns for missing a ready check, escalating within 24 h, e.g. 5m,30m,2h",
		get: func(_ Queue, l Lobby) string { return FormatCooldowns(l.Cooldowns) },
		set: func(_ *Queue, l *Lobby, v string) (err error) {
			l.Cooldowns, err = ParseCooldowns(v)
			return err
		}},
	{Name: "abandon_after", Kind: KindText, Lobby: true, Help: "cancel an open match with no report after this long, e.g. 3h",
		get: func(_ Queue, l Lobby) string { return shortDuration(l.AbandonAfter) },
		set: func(_ *Queue, l *Lobby, v string) (err error) {
			l.AbandonAfter, err = ParseAbandonAfter(v)
			return err
		}},
	{Name: "cancel_share", Kind: KindNumber, Lobby: true, Help: "share of players a cancel vote must exceed (0.5: a majority)",
		get: func(_ Queue, l Lobby) string { return formatFloat(l.CancelShare) },
		set: func(_ *Queue, l *Lobby, v string) error { return setFloat("cancel_share", v, &l.CancelShare) }},
	{Name: "rating_penalty", Kind: KindNumber, Lobby: true, Help: "rating taken off a player who misses a ready check or no-shows (0: off)",
		get: func(_ Queue, l Lobby) string { return formatFloat(l.RatingPenalty) },
		set: func(_ *Queue, l *Lobby, v string) error { return setFloat("rating_penalty", v, &l.RatingPenalty) }},
	{Name: "pick_mode", Kind: KindChoice, Lobby: true, Choices: []string{string(PickBalanced), string(PickCaptains)},
		Help: "how teams are made: balanced by the matcher, or picked by two captains",
		get:  func(_ Queue, l Lobby) string { return string(l.PickMode) },
		set: func(_ *Queue, l *Lobby, v string) (err error) {
			l.PickMode, err = ParsePickMode(strings.TrimSpace(v))
			return err
		}},
	{Name: "pick_window", Kind: KindInt, Lobby: true, Help: "seconds a captain has for each pick (10 to 600)",
		get: func(_ Queue, l Lobby) string { return strconv.Itoa(int(l.PickWindow / time.Second)) },
		set: func(_ *Queue, l *Lobby, v string) error { return setSeconds("pick_window", v, 600, &l.PickWindow) }},
}

// QueueSettings returns the settings of /config queue set, in its order.
func QueueSettings() []QueueSetting {
	out := make([]QueueSetting, len(queueSettings))
	copy(out, queueSettings)
	return out
}

// ApplyQueueSettings sets the named settings of q and l from text, in the
// order of QueueSettings, and reports whether a lobby setting was among
// them. An unknown name or a value that does not parse is a CodeInvalid
// error naming it; the caller stores nothing then. Ranges are checked when
// the result is stored (Service.ConfigureQueue).
func ApplyQueueSettings(q *Queue, l *Lobby, values map[string]string) (lobby bool, err error) {
	known := make(map[string]bool, len(queueSettings))
	for _, s := range queueSettings {
		known[s.Name] = true
	}
	for name := range values {
		if !known[name] {
			return false, Errorf(CodeInvalid, "no queue setting called %q", name)
		}
	}
	for _, s := range queueSettings {
		v, ok := values[s.Name]
		if !ok {
			continue
		}
		if err := CheckText(s.Name, v); err != nil {
			return false, err
		}
		if err := s.set(q, l, v); err != nil {
			return false, err
		}
		lobby = lobby || s.Lobby
	}
	return lobby, nil
}

// ParseSeconds turns a whole number of seconds into a duration, refusing
// one outside 0 to most before it can overflow into a valid-looking value.
func ParseSeconds(name string, n, most int64) (time.Duration, error) {
	if n < 0 || n > most {
		return 0, Errorf(CodeInvalid, "%s must be from 0 to %d seconds, not %d", name, most, n)
	}
	return time.Duration(n) * time.Second, nil
}

// ParseAbandonAfter reads abandon_after, a Go duration such as 3h.
func ParseAbandonAfter(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, Errorf(CodeInvalid, "abandon_after must be a duration like 3h or 90m, not %q", s)
	}
	return d, nil
}

func setSeconds(name, v string, most int64, to *time.Duration) error {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return Errorf(CodeInvalid, "%s must be a whole number of seconds, not %q", name, v)
	}
	*to, err = ParseSeconds(name, n, most)
	return err
}

func setInt(name, v string, to *int) error {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return Errorf(CodeInvalid, "%s must be a whole number, not %q", name, v)
	}
	*to = int(n)
	return nil
}

func setFloat(name, v string, to *float64) error {
	f, err := ParseDecimal(v)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return Errorf(CodeInvalid, "%s must be a number, not %q", name, v)
	}
	*to = f
	return nil
}

func setBool(name, v string, to *bool) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "on", "1", "yes":
		*to = true
	case "false", "off", "0", "no":
		*to = false
	default:
		return Errorf(CodeInvalid, "%s must be true or false, not %q", name, v)
	}
	return nil
}

// formatFloat writes f as short as it reads back exactly.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
