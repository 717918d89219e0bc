package dashboard

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// auditWindow is how many of the latest audit entries the page filters.
const auditWindow = 500

// auditFilter is the audit page's query.
type auditFilter struct {
	Actor, Action, Player, From, To string
}

func (f auditFilter) keep(e ladder.AuditEntry) bool {
	day := e.At.UTC().Format("2006-01-02")
	return (f.Actor == "" || strings.Contains(e.ActorID, f.Actor)) &&
		(f.Action == "" || strings.HasPrefix(e.Action, f.Action)) &&
		(f.Player == "" || e.Target == f.Player || strings.Contains(e.Before+e.After, `"`+f.Player+`"`)) &&
		(f.From == "" || day >= f.From) && (f.To == "" || day <= f.To)
}

// auditPage is the data of the audit log page.
type auditPage struct {
	Filter  auditFilter
	Entries []ladder.AuditEntry
	CSVURL  string
}

// auditPage serves the guild's audit log, newest first, filtered by actor
// (a substring: "web:" finds every dashboard write), action prefix,
// player and UTC dates; ?format=csv downloads the same rows.
func (d *Dashboard) auditPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	q := r.URL.Query()
	f := auditFilter{Actor: q.Get("actor"), Action: q.Get("action"), Player: q.Get("player"), From: q.Get("from"), To: q.Get("to")}
	for _, day := range []string{f.From, f.To} {
		if _, err := time.Parse("2006-01-02", day); day != "" && err != nil {
			d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "dates are written 2006-01-02, not %q", day))
			return
		}
	}
	all, err := d.svc.Audit(r.Context(), gr.Guild.ID, auditWindow)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	var rows []ladder.AuditEntry
	for _, e := range all {
		if f.keep(e) {
			rows = append(rows, e)
		}
	}
	if q.Get("format") == "csv" {
		writeAuditCSV(w, gr.Guild.ID, rows)
		return
	}
	cq := r.URL.Query()
	cq.Set("format", "csv")
	d.render(w, r, http.StatusOK, "audit", d.guildPage(r.Context(), gr, "dash.audit", auditPage{Filter: f, Entries: rows,
		CSVURL: guildPath(gr.Guild.ID, "audit") + "?" + cq.Encode()}))
}

func writeAuditCSV(w http.ResponseWriter, guildID string, rows []ladder.AuditEntry) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="audit-`+guildID+`.csv"`)
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"id", "at", "actor", "action", "match", "target", "reason", "before", "after"})
	for _, e := range rows {
		match := ""
		if e.MatchID != 0 {
			match = strconv.FormatInt(e.MatchID, 10)
		}
		_ = cw.Write([]string{strconv.FormatInt(e.ID, 10), e.At.UTC().Format(time.RFC3339), csvSafe(e.ActorID), csvSafe(e.Action),
			match, csvSafe(e.Target), csvSafe(e.Reason), csvSafe(e.Before), csvSafe(e.After)})
	}
	cw.Flush()
}

// csvSafe defuses cells a spreadsheet would run as a formula.
func csvSafe(s string) string { return commands.CSVSafe(s) }

// changeField is one field of an audit entry's recorded change, as the
// audit page shows it.
type changeField struct {
	Label, Value string
	// Labelled is whether Label is from the catalogs rather than the
	// recorded key.
	Labelled bool
}

// changeFields reads an audit entry's recorded change (a JSON object) as
// fields in language l, in the order recorded: a field's label is its
// audit.field.* entry (by the key in lower case) when there is one, else
// the key itself; its value as changeValue reads it. It is nil when the text is not a JSON object, which the page
// then shows as it is.
func changeFields(l *i18n.Lang, text string) []changeField {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []changeField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil
		}
		f := changeField{Label: key, Value: changeValue(l, key, raw)}
		if id := "audit.field." + strings.ToLower(key); l.Has(id) {
			f.Label, f.Labelled = l.T(id), true
		}
		out = append(out, f)
	}
	return out
}

// changeValue is one recorded value as the audit page shows it: a
// setting's value the way people read it in l (a duration in words, a
// division list as "Bronze 0, Silver 1400", a time per format.datetime, a
// number with the language's decimal mark, an empty ID as not set), a
// match state and a yes or no in the language, any other value as
// recorded.
func changeValue(l *i18n.Lang, key string, raw json.RawMessage) string {
	if v, ok := settingValue(l, strings.ToLower(key), raw); ok {
		return v
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if id := "state." + s; strings.EqualFold(key, "state") && l.Has(id) {
			return l.T(id)
		}
		return s
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		if b {
			return l.T("dash.yes")
		}
		return l.T("dash.no")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var n json.Number
	if dec.Decode(&n) == nil {
		return number(l, n)
	}
	return string(raw)
}

// settingValue formats the value of a guild or queue setting (the keys of
// ladder.Guild and ladder.Queue, in lower case) whose raw JSON no one
// reads: nanoseconds, RFC 3339 times, division objects, empty IDs.
func settingValue(l *i18n.Lang, key string, raw json.RawMessage) (string, bool) {
	switch key {
	case "confirmwindow", "queuetimeout", "bucket", "linger":
		var d time.Duration
		if json.Unmarshal(raw, &d) != nil {
			return "", false
		}
		return l.Duration(d), true
	case "ready_window_s", "pick_window_s":
		var secs float64
		if json.Unmarshal(raw, &secs) != nil {
			return "", false
		}
		return l.Duration(time.Duration(secs * float64(time.Second))), true
	case "staledays", "min_account_days":
		var n int
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		return l.N("unit.day", n), true
	case "createdat":
		var t time.Time
		if json.Unmarshal(raw, &t) != nil {
			return "", false
		}
		return l.DateTime(t), true
	case "moderatorroleid", "announcechannelid", "logchannelid", "channelid", "language", "preferredlocale",
		"categoryid", "lobbyvoiceid", "required_role", "excluded_role", "hours", "timezone":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		if s == "" {
			return l.T("cfg.not_set"), true
		}
		return s, true
	case "seasonschedule":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		if s == "" {
			return l.T("cfg.schedule_off"), true
		}
		return s + " (UTC)", true
	case "divisions":
		var ds []ladder.Division
		if json.Unmarshal(raw, &ds) != nil {
			return "", false
		}
		parts := make([]string, len(ds))
		for i, d := range ds {
			parts[i] = d.Name + " " + l.Rating(d.Min)
		}
		return strings.Join(parts, ", "), true
	case "params":
		var ps map[string]float64
		if json.Unmarshal(raw, &ps) != nil {
			return "", false
		}
		if len(ps) == 0 {
			return l.T("cfg.not_set"), true
		}
		names := make([]string, 0, len(ps))
		for name := range ps {
			names = append(names, name)
		}
		sort.Strings(names)
		for i, name := range names {
			names[i] = name + " " + l.Float(ps[name])
		}
		return strings.Join(names, ", "), true
	}
	return "", false
}

// number formats a recorded number with the language's decimal mark and
// no grouping: a rating reads 1500 and an ID keeps its digits.
func number(l *i18n.Lang, n json.Number) string {
	if _, err := n.Int64(); err == nil {
		return n.String()
	}
	if f, err := n.Float64(); err == nil {
		return l.Float(f)
	}
	return n.String()
}
