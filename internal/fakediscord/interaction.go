package fakediscord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Interaction types and callback types of the Discord API.
const (
	TypeCommand      = 2
	TypeComponent    = 3
	TypeAutocomplete = 4
	TypeModalSubmit  = 5

	CallbackMessage        = 4
	CallbackDeferMessage   = 5
	CallbackDeferUpdate    = 6
	CallbackUpdate         = 7
	CallbackAutocomplete   = 8
	CallbackModal          = 9
	interactionDeadline    = 3 * time.Second
	discordAlreadyAckedErr = 40060
)

// User is a guild member invoking interactions.
type User struct {
	ID          string
	Name        string
	Roles       []string
	Permissions int64
}

// Call says where and by whom an interaction is made.
type Call struct {
	GuildID   string
	ChannelID string
	User      User
	// Locale is the user's client language (default en-US): commands,
	// subcommands and options may be typed by their names in it, as a
	// user of that client sees them; Discord delivers the canonical names.
	Locale string
	// GuildLocale is the guild's preferred locale (default en-US).
	GuildLocale string
}

// Callback is one interaction callback the fake received.
type Callback struct {
	Type int
	At   time.Time
}

// Modal is a modal the bot opened in answer to an interaction.
type Modal struct {
	CustomID string
	Title    string
	Fields   []Button // text inputs: CustomID, Label, Required, Value
}

// Interaction is the fake's record of one interaction and everything the
// bot did with it.
type Interaction struct {
	ID        string
	Token     string
	Type      int
	Call      Call
	Command   string // "queue join"
	CustomID  string
	MessageID string // the message a component is on
	// SentAt is when the fake sent the interaction, also the time its ID
	// says (to the millisecond): Discord's 3 s to answer start here.
	SentAt time.Time
	// Delivered is when the fake last wrote the interaction to a gateway
	// connection: at once, or replayed on a resume after an outage; zero
	// if it never did (and over HTTP).
	Delivered time.Time
	Callbacks []Callback
	// OriginalID is the message "@original" refers to after the callback.
	OriginalID string
	Followups  []string
	Edits      int
	Modal      *Modal
	Choices    []ChoiceDef
	// Rejected counts REST calls about this interaction the fake refused
	// (a second callback, a late first one, an edit before any callback).
	Rejected []string
	// Deliveries are the POSTs of an HTTP interaction (http.go).
	Deliveries []Delivery

	payload    []byte // the signed body of an HTTP interaction
	delivering int    // POSTs in flight
}

// failed reports whether every POST of an HTTP interaction has come back
// without a callback: Discord tells the user it failed.
func (ix *Interaction) failed() bool {
	return ix.payload != nil && ix.delivering == 0 && len(ix.Callbacks) == 0 && len(ix.Deliveries) > 0
}

// ArrivedLate reports whether the interaction reached the bot's gateway
// connection only after Discord's 3 s to answer it (replayed on a resume
// after an outage): Discord has told the user it failed, and refuses any
// callback for it.
func (ix Interaction) ArrivedLate() bool {
	return !ix.Delivered.IsZero() && ix.Delivered.Sub(ix.SentAt) > interactionDeadline
}

// AckLatency is the time from dispatch to the first callback, or -1.
func (ix Interaction) AckLatency() time.Duration {
	if len(ix.Callbacks) == 0 {
		return -1
	}
	return ix.Callbacks[0].At.Sub(ix.SentAt)
}

// answered reports whether the bot has finished its visible answer.
func (s *Server) answered(ix *Interaction) bool {
	if len(ix.Callbacks) == 0 {
		return false
	}
	switch ix.Callbacks[0].Type {
	case CallbackMessage, CallbackUpdate, CallbackAutocomplete, CallbackModal:
		return true
	}
	if len(ix.Followups) > 0 {
		return true
	}
	if ix.Edits > 0 {
		m := s.messages[ix.OriginalID]
		return m != nil && !m.Deleted
	}
	return false
}

// Pending is a test's handle on an interaction it made.
type Pending struct {
	s  *Server
	ID string
}

// Pending returns the handle of the interaction with ID id, which must
// exist: for redelivering an interaction found through Interactions.
func (s *Server) Pending(id string) *Pending {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interactions[id] == nil {
		panic("fakediscord: no interaction " + id)
	}
	return &Pending{s: s, ID: id}
}

// Snapshot returns the interaction's record as it is now.
func (p *Pending) Snapshot() Interaction {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	ix := *p.s.interactions[p.ID]
	ix.Callbacks = slices.Clone(ix.Callbacks)
	ix.Followups = slices.Clone(ix.Followups)
	ix.Rejected = slices.Clone(ix.Rejected)
	return ix
}

// Ack waits for the first callback and returns it.
func (p *Pending) Ack(ctx context.Context) (Callback, error) {
	var cb Callback
	err := p.s.Wait(ctx, "the acknowledgement of interaction "+p.ID, func() bool {
		ix := p.s.interactions[p.ID]
		if len(ix.Callbacks) > 0 {
			cb = ix.Callbacks[0]
			return true
		}
		return false
	})
	return cb, err
}

// Response is what the user sees as the answer to an interaction.
type Response struct {
	// Callback is the type of the first callback (4..9).
	Callback int
	// Message is the visible answer: the last followup if any, else the
	// original response (for buttons, the message the button is on).
	Message Message
	// Original is the original response message, after edits.
	Original Message
	Modal    *Modal
	Choices  []ChoiceDef
}

// Ephemeral reports whether only the invoking user sees the answer.
func (r Response) Ephemeral() bool { return r.Message.Ephemeral() }

// ErrArrivedLate is the error of Pending.Result for an interaction that
// reached the bot's gateway connection only after Discord's 3 s to answer
// it (Interaction.ArrivedLate), unanswered: the user has read "This
// interaction failed", and no answer can come any more.
var ErrArrivedLate = errors.New("fakediscord: the interaction reached the bot after Discord's 3 s to answer it")

// Result waits until the bot's answer is complete and returns it, or
// fails with ErrDeliveryFailed or ErrArrivedLate when Discord has told
// the user the interaction failed.
func (p *Pending) Result(ctx context.Context) (Response, error) {
	var r Response
	var why error // set when the interaction can no longer be answered
	err := p.s.Wait(ctx, "the answer to interaction "+p.ID, func() bool {
		ix := p.s.interactions[p.ID]
		if ix.failed() {
			why = ErrDeliveryFailed
			return true
		}
		if len(ix.Callbacks) == 0 && ix.ArrivedLate() {
			why = ErrArrivedLate
			return true
		}
		if !p.s.answered(ix) {
			return false
		}
		r = Response{Callback: ix.Callbacks[0].Type, Modal: ix.Modal, Choices: ix.Choices}
		if m := p.s.messages[ix.OriginalID]; m != nil {
			r.Original = *m
			r.Message = *m
		}
		if n := len(ix.Followups); n > 0 {
			r.Message = *p.s.messages[ix.Followups[n-1]]
		}
		return true
	})
	if why != nil {
		return r, fmt.Errorf("interaction %s: %w", p.ID, why)
	}
	return r, err
}

// Slash invokes a registered slash command: path is "name [group] sub",
// options maps option names to values (string, int, float64, bool; user,
// channel and role options take the ID as a string). The fake checks them
// against the registered definition as the Discord client does.
func (s *Server) Slash(c Call, path string, options map[string]any) (*Pending, error) {
	return s.command(c, path, options, "")
}

// Autocomplete sends an autocomplete interaction for option focused of the
// command at path, with the partial options typed so far.
func (s *Server) Autocomplete(c Call, path string, options map[string]any, focused string) (*Pending, error) {
	return s.command(c, path, options, focused)
}

func (s *Server) command(c Call, path string, options map[string]any, focused string) (*Pending, error) {
	words := strings.Fields(path)
	if len(words) == 0 {
		return nil, fmt.Errorf("fakediscord: empty command path")
	}
	s.mu.Lock()
	def, ok := s.findCommand(c.GuildID, words[0], c.Locale)
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("fakediscord: command %q is not registered for guild %s or globally", words[0], c.GuildID)
	}
	words, options, focused = canonical(def.Options, words, options, focused, c.Locale)
	resolved := map[string]any{}
	opts, err := buildOptions(def.Options, words[1:], options, focused, resolved, path)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"id": def.ID, "name": def.Name, "type": 1, "options": opts}
	if len(resolved) > 0 {
		data["resolved"] = map[string]any{"users": resolved}
	}
	typ := TypeCommand
	if focused != "" {
		typ = TypeAutocomplete
	}
	return s.dispatch(c, typ, data, nil, func(ix *Interaction) { ix.Command = path })
}

func (s *Server) findCommand(guild, name, locale string) (CommandDef, bool) {
	for _, scope := range []string{guild, ""} {
		for _, d := range s.commands[scope] {
			if d.Name == name || (locale != "" && d.NameLocalizations[locale] == name) {
				return d, true
			}
		}
	}
	return CommandDef{}, false
}

// canonical turns the subcommand words and option names a user of locale
// typed into the registered names, which are what Discord delivers.
func canonical(defs []OptionDef, words []string, values map[string]any, focused, locale string) ([]string, map[string]any, string) {
	named := func(d OptionDef, typed string) bool {
		return d.Name == typed || (locale != "" && d.NameLocalizations[locale] == typed)
	}
	out := []string{words[0]}
	for _, w := range words[1:] {
		next := w
		for _, d := range defs {
			if (d.Type == 1 || d.Type == 2) && named(d, w) {
				next, defs = d.Name, d.Options
				break
			}
		}
		out = append(out, next)
	}
	vals := make(map[string]any, len(values))
	for k, v := range values {
		name := k
		for _, d := range defs {
			if d.Type != 1 && d.Type != 2 && named(d, k) {
				name = d.Name
				break
			}
		}
		if k == focused {
			focused = name
		}
		vals[name] = v
	}
	return out, vals, focused
}

func buildOptions(defs []OptionDef, sub []string, values map[string]any, focused string, resolved map[string]any, path string) ([]map[string]any, error) {
	if len(sub) > 0 {
		for _, d := range defs {
			if d.Name == sub[0] && (d.Type == 1 || d.Type == 2) {
				inner, err := buildOptions(d.Options, sub[1:], values, focused, resolved, path)
				if err != nil {
					return nil, err
				}
				return []map[string]any{{"name": d.Name, "type": d.Type, "options": inner}}, nil
			}
		}
		return nil, fmt.Errorf("fakediscord: %q: no subcommand %q", path, sub[0])
	}
	for _, d := range defs {
		if d.Type == 1 || d.Type == 2 {
			return nil, fmt.Errorf("fakediscord: %q: a subcommand is required", path)
		}
	}
	var out []map[string]any
	used := 0
	for _, d := range defs {
		v, ok := values[d.Name]
		if !ok {
			if d.Required && focused == "" {
				return nil, fmt.Errorf("fakediscord: %q: required option %q missing", path, d.Name)
			}
			continue
		}
		used++
		isFocused := d.Name == focused
		if isFocused && !d.Autocomplete {
			return nil, fmt.Errorf("fakediscord: %q: option %q has no autocomplete", path, d.Name)
		}
		wire, err := optionValue(d, v, isFocused)
		if err != nil {
			return nil, fmt.Errorf("fakediscord: %q: %w", path, err)
		}
		o := map[string]any{"name": d.Name, "type": d.Type, "value": wire}
		if isFocused {
			o["focused"] = true
		}
		if d.Type == 6 {
			id := wire.(string)
			resolved[id] = map[string]any{"id": id, "username": "user" + id}
		}
		out = append(out, o)
	}
	if used != len(values) {
		return nil, fmt.Errorf("fakediscord: %q: unknown options in %v", path, values)
	}
	return out, nil
}

func optionValue(d OptionDef, v any, focused bool) (any, error) {
	if focused {
		// The client sends whatever was typed so far, as a string for
		// string options and possibly partial for numbers.
		return fmt.Sprint(v), nil
	}
	var wire any
	var num float64
	switch d.Type {
	case 3, 6, 7, 8, 9:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("option %q wants a string, got %T", d.Name, v)
		}
		if d.Type != 3 {
			if _, err := strconv.ParseUint(str, 10, 64); err != nil {
				return nil, fmt.Errorf("option %q wants an ID, got %q", d.Name, str)
			}
		} else if d.MaxLength > 0 && len([]rune(str)) > d.MaxLength {
			return nil, fmt.Errorf("option %q longer than %d", d.Name, d.MaxLength)
		}
		wire = str
	case 4:
		switch n := v.(type) {
		case int:
			wire, num = n, float64(n)
		case int64:
			wire, num = n, float64(n)
		default:
			return nil, fmt.Errorf("option %q wants an integer, got %T", d.Name, v)
		}
	case 10:
		switch n := v.(type) {
		case int:
			wire, num = float64(n), float64(n)
		case float64:
			wire, num = n, n
		default:
			return nil, fmt.Errorf("option %q wants a number, got %T", d.Name, v)
		}
	case 5:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("option %q wants a boolean, got %T", d.Name, v)
		}
		wire = b
	default:
		return nil, fmt.Errorf("option %q has type %d the fake does not send", d.Name, d.Type)
	}
	if d.Type == 4 || d.Type == 10 {
		if d.MinValue != nil && num < *d.MinValue || d.MaxValue != nil && num > *d.MaxValue {
			return nil, fmt.Errorf("option %q value %v out of range", d.Name, v)
		}
	}
	if len(d.Choices) > 0 {
		found := false
		for _, c := range d.Choices {
			if fmt.Sprint(c.Value) == fmt.Sprint(wire) {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("option %q value %v is not one of its choices", d.Name, v)
		}
	}
	return wire, nil
}

// Click presses the button with customID on message messageID, as the
// Discord client would: the button must exist and be enabled, and an
// ephemeral message can only be clicked by the user who saw it.
func (s *Server) Click(c Call, messageID, customID string) (*Pending, error) {
	if _, err := s.usable(c, messageID, customID, "button"); err != nil {
		return nil, err
	}
	return s.ClickForged(c, messageID, customID)
}

// usable returns the component with customID on message messageID if c's
// user can use it: the message exists, the component is there and
// enabled, and an ephemeral message is the user's own.
func (s *Server) usable(c Call, messageID, customID, what string) (Button, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil || m.Deleted {
		return Button{}, fmt.Errorf("fakediscord: no message %s", messageID)
	}
	b, ok := m.Button(customID)
	switch {
	case !ok:
		return Button{}, fmt.Errorf("fakediscord: message %s has no %s %q", messageID, what, customID)
	case b.Disabled:
		return Button{}, fmt.Errorf("fakediscord: %s %q is disabled", what, customID)
	case m.Ephemeral() && s.interactions[m.InteractionID] != nil && s.interactions[m.InteractionID].Call.User.ID != c.User.ID:
		return Button{}, fmt.Errorf("fakediscord: %s cannot see ephemeral message %s", c.User.ID, messageID)
	case !s.canSee(m.ChannelID, c.User.ID):
		return Button{}, fmt.Errorf("fakediscord: %s cannot see channel %s of message %s", c.User.ID, m.ChannelID, messageID)
	}
	return b, nil
}

// ClickForged sends a component interaction with any custom ID, as a
// modified client could, without checking the message has that button.
func (s *Server) ClickForged(c Call, messageID, customID string) (*Pending, error) {
	data := map[string]any{"custom_id": customID, "component_type": 2}
	msg := map[string]any{"id": messageID, "channel_id": c.ChannelID}
	return s.dispatch(c, TypeComponent, data, msg, func(ix *Interaction) {
		ix.CustomID, ix.MessageID = customID, messageID
	})
}

// Select chooses values in the select menu with customID on message
// messageID, as the Discord client would: the menu must exist and be
// enabled, the values must be among its options, as many as it allows,
// and an ephemeral message can only be used by the user who saw it.
func (s *Server) Select(c Call, messageID, customID string, values ...string) (*Pending, error) {
	b, err := s.usable(c, messageID, customID, "select menu")
	if err != nil {
		return nil, err
	}
	if b.Type != componentSelect {
		return nil, fmt.Errorf("fakediscord: %q on message %s is not a select menu", customID, messageID)
	}
	if lo, hi := selectBounds(b); len(values) < lo || len(values) > hi {
		return nil, fmt.Errorf("fakediscord: select menu %q takes %d to %d values, not %d", customID, lo, hi, len(values))
	}
	for _, v := range values {
		if !slices.ContainsFunc(b.Options, func(o SelectOption) bool { return o.Value == v }) {
			return nil, fmt.Errorf("fakediscord: %q is not an option of select menu %q", v, customID)
		}
	}
	return s.SelectForged(c, messageID, customID, values...)
}

// SelectForged sends a select menu interaction with any custom ID and
// values, as a modified client could, without checking the message.
func (s *Server) SelectForged(c Call, messageID, customID string, values ...string) (*Pending, error) {
	data := map[string]any{"custom_id": customID, "component_type": componentSelect, "values": append([]string{}, values...)}
	msg := map[string]any{"id": messageID, "channel_id": c.ChannelID}
	return s.dispatch(c, TypeComponent, data, msg, func(ix *Interaction) {
		ix.CustomID, ix.MessageID = customID, messageID
	})
}

// Submit fills in and submits the modal the bot opened in answer to
// parent. Every required field must have a value; unknown fields fail.
func (s *Server) Submit(c Call, parent *Pending, values map[string]string) (*Pending, error) {
	s.mu.Lock()
	pix := s.interactions[parent.ID]
	modal, messageID := pix.Modal, pix.MessageID
	s.mu.Unlock()
	if modal == nil {
		return nil, fmt.Errorf("fakediscord: interaction %s opened no modal", parent.ID)
	}
	var rows []map[string]any
	known := map[string]bool{}
	for _, f := range modal.Fields {
		known[f.CustomID] = true
		v := values[f.CustomID]
		if v == "" && f.Required != nil && *f.Required {
			return nil, fmt.Errorf("fakediscord: modal field %q is required", f.CustomID)
		}
		rows = append(rows, map[string]any{"type": 1, "components": []map[string]any{{"type": 4, "custom_id": f.CustomID, "value": v}}})
	}
	for k := range values {
		if !known[k] {
			return nil, fmt.Errorf("fakediscord: modal %q has no field %q", modal.CustomID, k)
		}
	}
	data := map[string]any{"custom_id": modal.CustomID, "components": rows}
	var msg map[string]any
	if messageID != "" {
		msg = map[string]any{"id": messageID, "channel_id": c.ChannelID}
	}
	return s.dispatch(c, TypeModalSubmit, data, msg, func(ix *Interaction) {
		ix.CustomID, ix.MessageID = modal.CustomID, messageID
	})
}

func randomToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// dispatch records an interaction and sends INTERACTION_CREATE on the
// gateway session of the guild's shard.
func (s *Server) dispatch(c Call, typ int, data, message map[string]any, init func(*Interaction)) (*Pending, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The ID is minted at the moment the interaction is sent: its
	// snowflake time is SentAt, to the millisecond, as a bot reads it.
	now := time.Now()
	ix := &Interaction{ID: s.newIDAt(now), Token: randomToken(), Type: typ, Call: c, SentAt: now}
	init(ix)
	locale := c.Locale
	if locale == "" {
		locale = "en-US"
	}
	guildLocale := c.GuildLocale
	if guildLocale == "" {
		guildLocale = "en-US"
	}
	name := c.User.Name
	if name == "" {
		name = "user" + c.User.ID
	}
	payload := map[string]any{
		"id": ix.ID, "application_id": s.AppID, "type": typ, "token": ix.Token, "version": 1,
		"guild_id": c.GuildID, "channel_id": c.ChannelID, "locale": locale, "guild_locale": guildLocale,
		"app_permissions": "8", "data": data,
		"member": map[string]any{
			"user":        map[string]any{"id": c.User.ID, "username": name, "global_name": name},
			"roles":       append([]string{}, c.User.Roles...),
			"permissions": strconv.FormatInt(c.User.Permissions, 10),
		},
	}
	if message != nil {
		payload["message"] = message
	}
	if s.endpoint != "" && (s.httpGuilds == nil || s.httpGuilds[c.GuildID]) {
		return s.dispatchHTTP(ix, payload)
	}
	ss := s.sessionFor(c.GuildID)
	if ss == nil {
		return nil, fmt.Errorf("fakediscord: no gateway session for guild %s", c.GuildID)
	}
	s.interactions[ix.ID] = ix
	s.byToken[ix.Token] = ix
	ss.sendInteraction(ix, payload)
	s.fanOutTo(ss, payload)
	s.notify()
	return &Pending{s: s, ID: ix.ID}, nil
}

// Interactions returns a snapshot of every interaction so far.
func (s *Server) Interactions() []Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Interaction, 0, len(s.interactions))
	for _, ix := range s.interactions {
		c := *ix
		c.Callbacks = slices.Clone(ix.Callbacks)
		out = append(out, c)
	}
	return out
}
