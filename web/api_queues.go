package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/ladderbot/ladderbot/ladder"
)

// The queue settings through the token API: the fields of /config queue
// set under the same names, read and written through the same parsing
// (ladder.ApplyQueueSettings) and the same validated, audited write
// (Service.ConfigureQueue) as the command and the dashboard.

// queueSettingsJSON is one queue: its name, then every setting in
// /config queue set's order, typed by the setting's kind (numbers,
// booleans, strings).
func queueSettingsJSON(q ladder.Queue, l ladder.Lobby) json.RawMessage {
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
	b.WriteByte('}')
	return b.Bytes()
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
		js, err := s.withCommunity(ctx, guild, q.Name, queueSettingsJSON(q, l))
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		out = append(out, js)
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
	values := map[string]string{}
	// The community settings (predictions, mvp_vote) live in package
	// community, written by its service as /config queue community does.
	var community [2]*bool
	for i, name := range communitySettings {
		raw, ok := body[name]
		if !ok || s.community == nil {
			continue
		}
		var on bool
		if err := json.Unmarshal(raw, &on); err != nil {
			writeJSONError(w, r, ladder.Errorf(ladder.CodeInvalid, "%s must be true or false, not %s", name, string(raw)))
			return
		}
		community[i] = &on
		delete(body, name)
	}
	for name, raw := range body {
		v, err := settingText(name, kinds, raw)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		values[name] = v
	}
	ctx, guild := r.Context(), r.PathValue("guild")
	q, l, err := s.svc.Lobby(ctx, guild, r.PathValue("name"))
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	if len(values) > 0 {
		lobby, err := ladder.ApplyQueueSettings(&q, &l, values)
		if err != nil {
			writeJSONError(w, r, err)
			return
		}
		var lp *ladder.Lobby
		if lobby {
			lp = &l
		}
		if q, _, err = s.svc.ConfigureQueue(ctx, tokenActor(tok), q, lp); err != nil {
			writeJSONError(w, r, err)
			return
		}
		if _, l, err = s.svc.Lobby(ctx, guild, q.Name); err != nil {
			writeJSONError(w, r, err)
			return
		}
	}
	if community[0] != nil || community[1] != nil {
		if _, err := s.community.SetSettings(ctx, tokenActor(tok), guild, q.Name, community[0], community[1]); err != nil {
			writeJSONError(w, r, err)
			return
		}
	}
	js, err := s.withCommunity(ctx, guild, q.Name, queueSettingsJSON(q, l))
	if err != nil {
		writeJSONError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, js)
}

// communitySettings are the queue settings of package community, in the
// order the JSON shows them after the others.
var communitySettings = [2]string{"predictions", "mvp_vote"}

// withCommunity appends a queue's community settings to its JSON, when
// this server has the community service.
func (s *Server) withCommunity(ctx context.Context, guild, queue string, js json.RawMessage) (json.RawMessage, error) {
	if s.community == nil {
		return js, nil
	}
	st, _, err := s.community.Settings(ctx, guild, queue)
	if err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(js, []byte("}"))
	out = append(out, fmt.Sprintf(`,%q:%t,%q:%t}`, communitySettings[0], st.Predictions, communitySettings[1], st.MVPVote)...)
	return out, nil
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
