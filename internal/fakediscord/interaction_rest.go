package fakediscord

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// This file holds the REST side of interactions: callbacks, follow-ups and
// edits of "@original", with the rules Discord enforces on them.

func (s *Server) serveCallback(w http.ResponseWriter, r *http.Request) {
	var p struct {
		Type int            `json:"type"`
		Data messagePayload `json:"data"`
	}
	files, err := readBody(r, &p)
	if err != nil {
		httpError(w, 400, err.Error())
		return
	}
	s.mu.Lock()
	ix := s.interactions[r.PathValue("id")]
	if ix == nil || ix.Token != r.PathValue("token") {
		s.mu.Unlock()
		httpError(w, 404, "Unknown interaction")
		return
	}
	s.awaitDelivery(ix)
	status, msg := s.callback(ix, p.Type, p.Data, files)
	if status != 0 {
		ix.Rejected = append(ix.Rejected, fmt.Sprintf("callback %d: %s", p.Type, msg))
	}
	hook := s.callbackHook
	s.notify()
	snapshot := *ix
	s.mu.Unlock()
	if status != 0 {
		code := 50035 // invalid form body
		switch {
		case strings.HasPrefix(msg, "Interaction has already"):
			code = discordAlreadyAckedErr
		case status == http.StatusNotFound:
			code = 10062 // unknown interaction
		}
		writeJSON(w, status, map[string]any{"code": code, "message": msg})
		return
	}
	if hook != nil {
		hook(&snapshot)
	}
	w.WriteHeader(http.StatusNoContent)
}

// callback applies one interaction callback; it returns a non-zero HTTP
// status and a message when Discord would refuse it. Call with mu held.
func (s *Server) callback(ix *Interaction, typ int, data messagePayload, files []File) (int, string) {
	now := time.Now()
	if len(ix.Callbacks) > 0 {
		return 400, "Interaction has already been acknowledged."
	}
	if now.Sub(ix.SentAt) > interactionDeadline {
		return 404, "Unknown interaction (acknowledged after the 3 s deadline)"
	}
	valid := map[int][]int{
		TypeCommand:      {CallbackMessage, CallbackDeferMessage, CallbackModal},
		TypeComponent:    {CallbackMessage, CallbackDeferMessage, CallbackDeferUpdate, CallbackUpdate, CallbackModal},
		TypeAutocomplete: {CallbackAutocomplete},
		TypeModalSubmit:  {CallbackMessage, CallbackDeferMessage, CallbackDeferUpdate, CallbackUpdate},
	}
	if !slices.Contains(valid[ix.Type], typ) {
		return 400, fmt.Sprintf("callback type %d is not valid for interaction type %d", typ, ix.Type)
	}
	if (typ == CallbackDeferUpdate || typ == CallbackUpdate) && ix.MessageID == "" {
		return 400, "no message to update"
	}
	switch typ {
	case CallbackMessage, CallbackDeferMessage:
		m := &Message{ChannelID: ix.Call.ChannelID, InteractionID: ix.ID, Deferred: typ == CallbackDeferMessage}
		if err := m.apply(data, files, false); err != nil {
			return 400, err.Error()
		}
		if typ == CallbackMessage && m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 {
			return 400, "Cannot send an empty message"
		}
		m.ID = s.newID()
		s.messages[m.ID] = m
		ix.OriginalID = m.ID
	case CallbackDeferUpdate:
		ix.OriginalID = ix.MessageID
	case CallbackUpdate:
		m := s.messages[ix.MessageID]
		if m == nil {
			return 400, "Unknown Message"
		}
		edited := *m
		if err := edited.apply(data, files, true); err != nil {
			return 400, err.Error()
		}
		edited.Edits++
		*m = edited
		ix.OriginalID = m.ID
	case CallbackAutocomplete:
		if len(data.Choices) > 25 {
			return 400, "more than 25 choices"
		}
		for i, c := range data.Choices {
			if err := checkChoice(fmt.Sprintf("choices.%d", i), c.Name, c.Value); err != nil {
				return 400, err.Error()
			}
		}
		for _, c := range data.Choices {
			ix.Choices = append(ix.Choices, ChoiceDef{Name: c.Name, Value: c.Value})
		}
	case CallbackModal:
		md, err := parseModal(data)
		if err != nil {
			return 400, err.Error()
		}
		ix.Modal = md
	}
	ix.Callbacks = append(ix.Callbacks, Callback{Type: typ, At: now})
	return 0, ""
}

func parseModal(data messagePayload) (*Modal, error) {
	md := &Modal{CustomID: data.CustomID, Title: data.Title}
	if md.CustomID == "" || md.Title == "" {
		return nil, fmt.Errorf("modal needs custom_id and title")
	}
	if n := utf8.RuneCountInString(md.Title); n > maxModalTitle {
		return nil, fmt.Errorf("title: must be %d or fewer in length (%d)", maxModalTitle, n)
	}
	if n := utf8.RuneCountInString(md.CustomID); n > maxCustomID {
		return nil, fmt.Errorf("custom_id: must be between 1 and %d in length (%d)", maxCustomID, n)
	}
	var m Message
	if err := m.apply(data, nil, false); err != nil {
		return nil, err
	}
	for _, r := range m.Rows {
		for _, c := range r.Components {
			if c.Type != 4 {
				return nil, fmt.Errorf("modal component of type %d, want text inputs (4)", c.Type)
			}
			if err := checkTextInput(c); err != nil {
				return nil, err
			}
			md.Fields = append(md.Fields, c)
		}
	}
	if len(md.Fields) == 0 || len(md.Fields) > 5 {
		return nil, fmt.Errorf("modal with %d fields, want 1-5", len(md.Fields))
	}
	return md, nil
}

func (s *Server) serveFollowup(w http.ResponseWriter, r *http.Request) {
	var p messagePayload
	files, err := readBody(r, &p)
	if err != nil {
		httpError(w, 400, err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ix := s.byToken[r.PathValue("token")]
	if ix == nil || r.PathValue("app") != s.AppID {
		httpError(w, 404, "Unknown Webhook")
		return
	}
	s.awaitDelivery(ix)
	if len(ix.Callbacks) == 0 {
		ix.Rejected = append(ix.Rejected, "followup before any callback")
		s.notify()
		httpError(w, 404, "Unknown Webhook (interaction not acknowledged)")
		return
	}
	m := &Message{ChannelID: ix.Call.ChannelID, InteractionID: ix.ID}
	if err := m.apply(p, files, false); err != nil {
		httpError(w, 400, err.Error())
		return
	}
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 {
		httpError(w, 400, "Cannot send an empty message")
		return
	}
	m.ID = s.newID()
	s.messages[m.ID] = m
	ix.Followups = append(ix.Followups, m.ID)
	s.notify()
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, 200, m.wire())
}

func (s *Server) serveWebhookMessage(w http.ResponseWriter, r *http.Request) {
	var p messagePayload
	files, err := readBody(r, &p)
	if err != nil {
		httpError(w, 400, err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ix := s.byToken[r.PathValue("token")]
	if ix == nil || r.PathValue("app") != s.AppID {
		httpError(w, 404, "Unknown Webhook")
		return
	}
	s.awaitDelivery(ix)
	id := r.PathValue("msg")
	if id == "@original" {
		id = ix.OriginalID
	} else if !slices.Contains(ix.Followups, id) {
		id = ""
	}
	m := s.messages[id]
	if m == nil || m.Deleted {
		ix.Rejected = append(ix.Rejected, r.Method+" "+r.PathValue("msg")+": no such message")
		s.notify()
		httpError(w, 404, "Unknown Message")
		return
	}
	switch r.Method {
	case http.MethodGet:
	case http.MethodDelete:
		m.Deleted = true
		s.notify()
		w.WriteHeader(http.StatusNoContent)
		return
	case http.MethodPatch:
		edited := *m
		if err := edited.apply(p, files, true); err != nil {
			httpError(w, 400, err.Error())
			return
		}
		edited.Deferred = false
		edited.Edits++
		*m = edited
		if id == ix.OriginalID {
			ix.Edits++
		}
		s.notify()
	}
	writeJSON(w, 200, m.wire())
}

// Discord's limits on a modal, in characters: its title, and each text
// input's label, placeholder and value.
const (
	maxModalTitle      = 45
	maxTextInputLabel  = 45
	maxTextInputHint   = 100
	maxTextInputValue  = 4000
	textInputShort     = 1
	textInputParagraph = 2
)

// checkTextInput refuses a text input Discord refuses with 50035: a label
// empty or over 45 characters, a placeholder over 100, a value or a
// min_length or max_length over 4,000, or a style other than short (1)
// or paragraph (2).
func checkTextInput(c Button) error {
	if n := utf8.RuneCountInString(c.Label); n == 0 || n > maxTextInputLabel {
		return fmt.Errorf("components.text_input %q label: must be between 1 and %d in length (%d)", c.CustomID, maxTextInputLabel, n)
	}
	if n := utf8.RuneCountInString(c.Placeholder); n > maxTextInputHint {
		return fmt.Errorf("components.text_input %q placeholder: must be %d or fewer in length (%d)", c.CustomID, maxTextInputHint, n)
	}
	if n := utf8.RuneCountInString(c.Value); n > maxTextInputValue {
		return fmt.Errorf("components.text_input %q value: must be %d or fewer in length (%d)", c.CustomID, maxTextInputValue, n)
	}
	if c.Style != textInputShort && c.Style != textInputParagraph {
		return fmt.Errorf("components.text_input %q style: must be 1 (short) or 2 (paragraph), not %d", c.CustomID, c.Style)
	}
	if v := c.MinLength; v != nil && (*v < 0 || *v > maxTextInputValue) {
		return fmt.Errorf("components.text_input %q min_length: must be from 0 to %d, not %d", c.CustomID, maxTextInputValue, *v)
	}
	if v := c.MaxLength; v != nil && (*v < 1 || *v > maxTextInputValue) {
		return fmt.Errorf("components.text_input %q max_length: must be from 1 to %d, not %d", c.CustomID, maxTextInputValue, *v)
	}
	if c.MinLength != nil && c.MaxLength != nil && *c.MinLength > *c.MaxLength {
		return fmt.Errorf("components.text_input %q min_length: must be at most max_length %d, not %d", c.CustomID, *c.MaxLength, *c.MinLength)
	}
	// A prefilled value must fit the input's own max_length.
	if n := utf8.RuneCountInString(c.Value); c.MaxLength != nil && n > *c.MaxLength {
		return fmt.Errorf("components.text_input %q value: must be %d or fewer in length (%d)", c.CustomID, *c.MaxLength, n)
	}
	return nil
}

// Discord's limits on a choice, of a registered option or of an
// autocomplete answer: a name of 1 to 100 characters, a string value of
// at most 100.
const (
	maxChoiceName  = 100
	maxChoiceValue = 100
)

// checkChoice refuses a choice Discord refuses with 50035.
func checkChoice(path, name string, value any) error {
	if n := utf8.RuneCountInString(name); n == 0 || n > maxChoiceName {
		return fmt.Errorf("%s.name: must be between 1 and %d in length (%d)", path, maxChoiceName, n)
	}
	if v, ok := value.(string); ok {
		if n := utf8.RuneCountInString(v); n > maxChoiceValue {
			return fmt.Errorf("%s.value: must be %d or fewer in length (%d)", path, maxChoiceValue, n)
		}
	}
	return nil
}
