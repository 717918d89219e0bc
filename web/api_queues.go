package web

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/queueconfig"
)

// The queue settings through the token API: the fields of /config queue
// set, room and sides under the same names, read and written through
// queueconfig, the same parsing and the same validated, audited writes as
// the commands and the dashboard.

// queueSettingsJSON is one queue: its name, then every setting in the
// commands' order, typed by the setting's kind (numbers, booleans,
// strings).
func queueSettingsJSON(q queueconfig.Queue) json.RawMessage {
	var b bytes.Buffer
	name, _ := json.Marshal(q.Name)
	b.WriteString(`{"name":`)
	b.Write(name)
	for _, f := range q.Fields {
		key, _ := json.Marshal(f.Name)
		b.WriteByte(',')
		b.Write(key)
		b.WriteByte(':')
		switch f.Kind {
		case ladder.KindInt, ladder.KindNumber:
			b.WriteString(f.Value)
		case ladder.KindBool:
			on, _ := strconv.ParseBool(f.Value)
			b.WriteString(strconv.FormatBool(on))
		default:
			text, _ := json.Marshal(f.Value)
			b.Write(text)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// apiAdminQueues serves GET /api/v1/guilds/{guild}/admin/queues:
// {"queues": [{"name", "team_size", "model", …, "room", …, "sides"}]}.
func (s *Server) apiAdminQueues(w http.ResponseWriter, r *http.Request, tok ladder.Token) {
	ctx, guild := r.Context(), r.PathValue("guild")
	qs, err := s.svc.Queues(ctx, guild)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	out := []json.RawMessage{}
	for _, q := range qs {
		qc, err := s.queues.Read(ctx, guild, q.Name)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		out = append(out, queueSettingsJSON(qc))
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"queues": out})
}

// apiAdminSetQueue serves PUT /api/v1/guilds/{guild}/admin/queues/{name}
// with an object of the settings to change, e.g. {"q_start": 0.7,
// "cooldowns": "5m,30m", "room": "channel", "sides": true}; the others
// keep their values. It answers the queue as GET shows it. A bad value is
// a 400 with /config's message, and nothing is stored.
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
	kinds := s.queues.Kinds()
	values := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(body)) {
		v, err := settingText(name, kinds, body[name])
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		values[name] = v
	}
	q, _, err := s.queues.Set(r.Context(), tokenActor(tok), r.PathValue("guild"), r.PathValue("name"), values)
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, queueSettingsJSON(q))
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
