package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
)

// The queue settings through the token API: the fields of /config queue
// set under the same names, read and written through the same parsing
// (ladder.ApplyQueueSettings) and the same validated, audited write
// (Service.ConfigureQueue) as the command and the dashboard.

// queueSettingsJSON is one queue: its name, then every setting in
// /config queue set's order, typed by the setting's kind (numbers,
// booleans, strings).
func queueSettingsJSON(q ladder.Queue, l ladder.Lobby, extra ...joinField) json.RawMessage {
	var b bytes.Buffer
	name, _ := json.Marshal(q.Name)
	b.WriteString(`{"name":`)
	b.Write(name)
	for _, s := range ladder.QueueSettings() {
		v := s.Value(q, l)
		key, _ := json.Marshal(s.Name)
		b.WriteByte(',')
		b.Write(key)
		b.WriteByte(':')
		switch s.Kind {
		case ladder.KindInt, ladder.KindNumber:
			b.WriteString(v)
		case ladder.KindBool:
			on, _ := strconv.ParseBool(v)
			b.WriteString(strconv.FormatBool(on))
		default:
			text, _ := json.Marshal(v)
			b.Write(text)
		}
	}
	for _, f := range extra {
		key, _ := json.Marshal(f.name)
		b.WriteByte(',')
		b.Write(key)
		b.WriteByte(':')
		if f.kind == ladder.KindInt || f.kind == ladder.KindNumber {
			b.WriteString(f.value)
			continue
		}
		text, _ := json.Marshal(f.value)
		b.Write(text)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// joinField is one of a queue's join settings (package joins) in the
// queue's JSON.
type joinField struct {
	name, value string
	kind        ladder.SettingKind
}

// joinKinds are the JSON types of the join settings.
var joinKinds = map[string]ladder.SettingKind{
	"min_rating": ladder.KindNumber, "max_rating": ladder.KindNumber, "min_games": ladder.KindInt,
	"games_queue": ladder.KindText, "required_role": ladder.KindText, "excluded_role": ladder.KindText,
	"min_account_days": ladder.KindInt, "hours": ladder.KindText, "timezone": ladder.KindText, "rematch": ladder.KindChoice,
}

// joinFields are q's join settings in joins.SettingNames order; none
// without the joins service.
func (s *Server) joinFields(ctx context.Context, q ladder.Queue) ([]joinField, error) {
	if s.joins == nil {
		return nil, nil
	}
	st, err := s.joins.Settings(ctx, q)
	if err != nil {
		return nil, err
	}
	games, err := s.joins.QueueName(ctx, q.GuildID, st.GamesQueueID)
	if err != nil {
		return nil, err
	}
	values := st.Values(games)
	var out []joinField
	for _, name := range joins.SettingNames() {
		out = append(out, joinField{name: name, value: values[name], kind: joinKinds[name]})
	}
	return out, nil
}

// apiAdminQueues serves GET /api/v1/guilds/{guild}/admin/queues:
// {"queues": [{"name", "team_size", "model", …}]}.
func (s *Server) apiAdminQueues(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	ctx, guild := r.Context(), r.PathValue("guild")
	qs, err := s.svc.Queues(ctx, guild)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := []json.RawMessage{}
	for _, q := range qs {
		q, l, err := s.svc.Lobby(ctx, guild, q.Name)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		extra, err := s.joinFields(ctx, q)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		out = append(out, queueSettingsJSON(q, l, extra...))
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"queues": out})
}

// apiAdminSetQueue serves PUT /api/v1/guilds/{guild}/admin/queues/{name}
// with an object of the settings to change, e.g. {"q_start": 0.7,
// "cooldowns": "5m,30m"}; the others keep their values. It answers the
// queue as GET shows it. A bad value is a 400 with /config's message, and
// nothing is stored.
func (s *Server) apiAdminSetQueue(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	var body map[string]json.RawMessage
	if err := decodeJSON(r, &body); err != nil {
		writeJSONError(w, r, err)
		return
	}
	if len(body) == 0 {
		writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, "give at least one setting to change"))
		return
	}
	kinds := map[string]ladder.SettingKind{}
	for _, st := range ladder.QueueSettings() {
		kinds[st.Name] = st.Kind
	}
	if s.joins != nil {
		for name, k := range joinKinds {
			kinds[name] = k
		}
	}
	values, joinValues := map[string]string{}, map[string]string{}
	for name, raw := range body {
		v, err := settingText(name, kinds, raw)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		if joins.IsSetting(name) {
			joinValues[name] = v
		} else {
			values[name] = v
		}
	}
	ctx, guild := r.Context(), r.PathValue("guild")
	q, l, err := s.svc.Lobby(ctx, guild, r.PathValue("name"))
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	lobby, err := ladder.ApplyQueueSettings(&q, &l, values)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	if len(joinValues) > 0 {
		// Checked before anything is stored, so a bad join setting
		// changes none of the others.
		if err := s.joins.Check(ctx, q, joinValues); err != nil {
			writeJSONError(w, r, err)
			return
		}
	}
	if len(values) > 0 {
		var lp *ladder.Lobby
		if lobby {
			lp = &l
		}
		if q, _, err = s.svc.ConfigureQueue(ctx, tokenActor(tok), q, lp); err != nil {
			writeJSONError(w, r, err)
			return
		}
	}
	if len(joinValues) > 0 {
		if _, err := s.joins.Configure(ctx, tokenActor(tok), q, joinValues); err != nil {
			writeJSONError(w, r, err)
			return
		}
	}
	if _, l, err = s.svc.Lobby(ctx, guild, q.Name); err != nil {
		writeJSONError(w, r, err)
		return
	}
	extra, err := s.joinFields(ctx, q)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, queueSettingsJSON(q, l, extra...))
}

// settingText turns one JSON value into the text ApplyQueueSettings
// reads, insisting on the setting's JSON type.
func settingText(name string, kinds map[string]ladder.SettingKind, raw json.RawMessage) (string, error) {
	kind, ok := kinds[name]
	if !ok {
		return "", ladder.Errorf(ladder.CodeInvalid, "no queue setting called %q", name)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", ladder.Errorf(ladder.CodeInvalid, "%s: %v", name, err)
	}
	switch x := v.(type) {
	case json.Number:
		if kind == ladder.KindInt || kind == ladder.KindNumber {
			return x.String(), nil
		}
	case bool:
		if kind == ladder.KindBool {
			return strconv.FormatBool(x), nil
		}
	case string:
		if kind != ladder.KindInt && kind != ladder.KindNumber && kind != ladder.KindBool {
			return x, nil
		}
	}
	want := map[ladder.SettingKind]string{ladder.KindInt: "a whole number", ladder.KindNumber: "a number", ladder.KindBool: "true or false"}[kind]
	if want == "" {
		want = "a string"
	}
	return "", ladder.Errorf(ladder.CodeInvalid, "%s must be %s, not %s", name, want, string(raw))
}
