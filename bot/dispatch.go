package bot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// instantBudget bounds handlers that answer without deferring: Discord
// drops an interaction not acknowledged within 3 s.
const instantBudget = 2500 * time.Millisecond

// route is what the chain runs for one interaction.
type route struct {
	name      string // for the log: "queue join", "button:confirm", "modal:dispute"
	access    commands.Access
	instant   bool
	ephemeral bool // defer privately
	handle    commands.Handler
}

// interaction is the per-interaction state of the chain: what was
// acknowledged, so the answer takes the matching route.
type interaction struct {
	b        *Bot
	ic       *discordgo.Interaction
	req      commands.Request
	deferred discordgo.InteractionResponseType // 0 until deferred
	ephDefer bool
	acked    time.Time
}

// onInteraction is the one dispatch chain (STYLE.md): recover panics →
// timeout → defer when the handler touches storage → permission check →
// handler → map the error to user text → one log line.
func (b *Bot) onInteraction(s *discordgo.Session, ev *discordgo.InteractionCreate) {
	start := time.Now()
	if !b.admit() {
		return
	}
	defer b.inflight.Done()
	if !b.seen.first(ev.ID, start) {
		return
	}
	it := &interaction{b: b, ic: ev.Interaction}
	var (
		rt  route
		err error
		ref string
	)
	defer func() {
		// Recover: a panic anywhere in the chain becomes an internal error
		// with a reference, and the user still gets an answer.
		if p := recover(); p != nil {
			err = fmt.Errorf("bot: panic: %v\n%s", p, debug.Stack())
			ref = it.fail(err)
		}
		b.logInteraction(it, rt.name, start, err, ref)
		b.observe(it, rt, start, err)
	}()
	it.req, err = request(ev.Interaction)
	if err == nil {
		rt, err = b.route(it.req)
	}
	if err != nil {
		ref = it.fail(err)
		return
	}
	// Instant answers must be complete within Discord's 3 s; deferred ones
	// acknowledge within that, may wait for a worker up to WorkerWait, then
	// run for up to HandlerTimeout (the token itself lasts 15 min).
	ctx, cancel := context.WithTimeout(b.base, instantBudget)
	defer cancel()
	if !rt.instant && it.req.Kind != commands.KindAutocomplete {
		if err = it.deferAck(ctx, rt.ephemeral); err != nil {
			if alreadyAcknowledged(err) {
				// Another process of this shard took it (a duplicate
				// delivery); nothing to do here.
				err, rt.name = nil, rt.name+duplicateSuffix
				return
			}
			// Without an acknowledgement nothing more can be shown.
			err = fmt.Errorf("bot: defer: %w", err)
			return
		}
		// Acknowledged: the storage work now waits for a worker.
		wait := time.NewTimer(b.cfg.WorkerWait)
		select {
		case b.workers <- struct{}{}:
			wait.Stop()
			defer func() { <-b.workers }()
		case <-wait.C:
			err = ladder.Errorf(ladder.CodeUnavailable, "the bot is overloaded right now")
			ref = it.fail(err)
			return
		case <-b.base.Done():
			err = ladder.Wrap(ladder.CodeUnavailable, b.base.Err(), "the bot is restarting")
			ref = it.fail(err)
			return
		}
		cancel()
		ctx, cancel = context.WithTimeout(b.base, b.cfg.HandlerTimeout)
		defer cancel()
	}
	if err = b.set.Authorize(ctx, &it.req, rt.access); err == nil {
		var reply commands.Reply
		reply, err = rt.handle(ctx, it.req)
		if err == nil {
			err = it.answer(ctx, reply)
			if it.deferred == 0 && alreadyAcknowledged(err) {
				err, rt.name = nil, rt.name+duplicateSuffix
				return
			}
			if err == nil {
				b.sendPosts(ctx, it, reply.Posts)
			} else {
				err = fmt.Errorf("bot: answer: %w", err)
			}
			if err != nil && !it.answered() {
				ref = it.fail(err)
			}
			return
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = ladder.Wrap(ladder.CodeUnavailable, err, "that took too long; please try again")
	}
	ref = it.fail(err)
}

// route finds what handles req.
func (b *Bot) route(req commands.Request) (route, error) {
	switch req.Kind {
	case commands.KindCommand, commands.KindAutocomplete:
		root := req.Command
		for i, r := range root {
			if r == ' ' {
				root = root[:i]
				break
			}
		}
		c, ok := b.set.Command(root)
		if !ok {
			return route{name: req.Command}, ladder.Errorf(ladder.CodeNotFound, "unknown command /%s; the bot may be updating, try again in a minute", root)
		}
		rt := route{name: req.Command, access: c.Access, instant: c.Instant, ephemeral: c.Ephemeral, handle: c.Handle}
		if req.Kind == commands.KindAutocomplete {
			rt.name = "autocomplete:" + req.Command
			rt.handle = c.Autocomplete
			if c.Autocomplete == nil {
				return rt, ladder.Errorf(ladder.CodeInvalid, "no suggestions for /%s", req.Command)
			}
		}
		return rt, nil
	default:
		prefix := "button:"
		if req.Kind == commands.KindModal {
			prefix = "modal:"
		}
		c, ok := b.set.Component(req.CustomID.Action)
		if !ok {
			return route{name: prefix + "unknown"}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid any more; run the command again")
		}
		return route{name: prefix + c.Action, access: c.Access, instant: c.Instant, ephemeral: true, handle: c.Handle}, nil
	}
}

// deferAck acknowledges before any storage is touched: "thinking…" for
// commands, a silent deferred update for buttons and modals.
func (it *interaction) deferAck(ctx context.Context, ephemeral bool) error {
	typ := discordgo.InteractionResponseDeferredChannelMessageWithSource
	data := &discordgo.InteractionResponseData{Flags: flags(ephemeral)}
	// A deferred update needs a message to update: a button's, or the one
	// a form was opened from.
	if it.req.MessageID != "" && (it.req.Kind == commands.KindComponent || it.req.Kind == commands.KindModal) {
		typ, data = discordgo.InteractionResponseDeferredMessageUpdate, nil
	}
	err := retryTransient(ctx, func() error {
		return it.b.session.InteractionRespond(it.ic, &discordgo.InteractionResponse{Type: typ, Data: data}, discordgo.WithContext(ctx))
	})
	if err != nil {
		return err
	}
	it.deferred, it.ephDefer, it.acked = typ, ephemeral, time.Now()
	return nil
}

// alreadyAcknowledged reports Discord's "Interaction has already been
// acknowledged" (40060): another process answered this interaction.
func alreadyAcknowledged(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == 40060
}

func (it *interaction) answered() bool { return !it.acked.IsZero() && it.deferred == 0 }

// answer shows reply the way the interaction's state allows.
func (it *interaction) answer(ctx context.Context, r commands.Reply) error {
	s := it.b.session
	opt := discordgo.WithContext(ctx)
	if it.req.Kind == commands.KindAutocomplete {
		choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(r.Choices))
		for _, c := range r.Choices[:min(len(r.Choices), 25)] {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(c.Name, maxChoiceName), Value: c.Value})
		}
		return it.respond(ctx, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		})
	}
	component := it.req.Kind == commands.KindComponent || it.req.Kind == commands.KindModal
	switch it.deferred {
	case 0:
		typ := discordgo.InteractionResponseChannelMessageWithSource
		data := responseData(r)
		switch {
		case r.Modal != nil:
			typ, data = discordgo.InteractionResponseModal, modalData(r.Modal)
		case r.Update && component:
			typ = discordgo.InteractionResponseUpdateMessage
		}
		return it.respond(ctx, &discordgo.InteractionResponse{Type: typ, Data: data})
	case discordgo.InteractionResponseDeferredMessageUpdate:
		if r.Modal != nil {
			return errors.New("a modal cannot follow a deferral; make the component Instant")
		}
		if r.Update {
			return it.editOriginal(ctx, r)
		}
		_, err := s.FollowupMessageCreate(it.ic, false, webhookParams(r), opt)
		return err
	default:
		if r.Modal != nil {
			return errors.New("a modal cannot follow a deferral; make the command Instant")
		}
		if r.Ephemeral && !it.ephDefer {
			// The public "thinking…" cannot turn private: remove it and
			// answer privately instead.
			if err := s.InteractionResponseDelete(it.ic, opt); err != nil {
				return err
			}
			_, err := s.FollowupMessageCreate(it.ic, false, webhookParams(r), opt)
			return err
		}
		return it.editOriginal(ctx, r)
	}
}

func (it *interaction) respond(ctx context.Context, resp *discordgo.InteractionResponse) error {
	// Files are readers, used up by an attempt; each attempt gets fresh ones.
	files := make([][]byte, 0)
	if resp.Data != nil {
		for _, f := range resp.Data.Files {
			b, _ := io.ReadAll(f.Reader)
			files = append(files, b)
		}
	}
	err := retryTransient(ctx, func() error {
		if resp.Data != nil {
			for i, f := range resp.Data.Files {
				f.Reader = bytes.NewReader(files[i])
			}
		}
		return it.b.session.InteractionRespond(it.ic, resp, discordgo.WithContext(ctx))
	})
	if err != nil {
		return err
	}
	it.acked = time.Now()
	return nil
}

// retryTransient runs fn, and again after 250 ms and 500 ms while it fails
// with a transient error: a 5xx from Discord or a network error (SPEC 9).
// discordgo itself retries 502 and waits out 429. Only idempotent calls go
// through here (callbacks, edits): a callback that did arrive answers
// "already acknowledged" on the retry, which counts as done.
func retryTransient(ctx context.Context, fn func() error) error {
	wait := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || attempt > 1 && alreadyAcknowledged(err) {
			return nil
		}
		if attempt == 3 || !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// transient reports errors worth retrying.
func transient(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) {
		return re.Response != nil && re.Response.StatusCode >= 500
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// editOriginal edits "@original". discordgo puts every JSON webhook edit
// of a session in one rate-limit bucket, which would serialize the answers
// of concurrent interactions; each interaction token is its own bucket in
// Discord, so the edit goes through a bucket of its own.
func (it *interaction) editOriginal(ctx context.Context, r commands.Reply) error {
	s := it.b.session
	return retryTransient(ctx, func() error {
		edit := webhookEdit(r)
		if len(edit.Files) > 0 {
			_, err := s.InteractionResponseEdit(it.ic, edit, discordgo.WithContext(ctx))
			return err
		}
		uri := discordgo.EndpointWebhookMessage(it.ic.AppID, it.ic.Token, "@original")
		_, err := s.RequestWithBucketID("PATCH", uri, edit, uri, discordgo.WithContext(ctx))
		return err
	})
}

// fail shows err to the user as an ephemeral message and returns the
// reference ID of an internal error ("" otherwise). Internal errors show
// only the reference; the log line has the full error.
func (it *interaction) fail(err error) string {
	ref := ""
	msg := ladder.ErrorMessage(err)
	switch ladder.ErrorCode(err) {
	case ladder.CodeInternal:
		ref = newRef()
		msg = "Something went wrong on our side (reference " + ref + "). A moderator can find the details in the bot's log."
	case ladder.CodeUnavailable:
		msg = msg + " (temporary problem; please try again)"
	}
	if it.req.Kind == commands.KindAutocomplete {
		// Autocomplete cannot show text; an empty list is the answer.
		ctx, cancel := context.WithTimeout(it.b.base, instantBudget)
		defer cancel()
		it.respond(ctx, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}},
		})
		return ref
	}
	ctx, cancel := context.WithTimeout(it.b.base, 10*time.Second)
	defer cancel()
	reply := commands.Reply{Content: "⚠️ " + msg, Ephemeral: true}
	if it.deferred == 0 && !it.acked.IsZero() {
		// Already answered (a later step failed); a followup is all we can do.
		it.b.session.FollowupMessageCreate(it.ic, false, webhookParams(reply), discordgo.WithContext(ctx))
		return ref
	}
	if err := it.answer(ctx, reply); err != nil {
		it.b.log.Warn("could not show an error to the user", "err", err, "interaction_id", it.ic.ID)
	}
	return ref
}

// sendPosts sends a reply's extra messages (announcements); a failure is logged
// and does not undo the action, which is already stored.
func (b *Bot) sendPosts(ctx context.Context, it *interaction, posts []commands.Post) {
	for _, p := range posts {
		if _, err := b.session.ChannelMessageSendComplex(p.ChannelID, messageSend(p.Message), discordgo.WithContext(ctx)); err != nil {
			b.log.Warn("posting to channel failed", "guild_id", it.req.GuildID, "channel_id", p.ChannelID, "err", err)
		}
	}
}

func newRef() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// logInteraction writes the one line per interaction.
func (b *Bot) logInteraction(it *interaction, name string, start time.Time, err error, ref string) {
	attrs := []slog.Attr{
		slog.String("guild_id", it.req.GuildID),
		slog.String("user_id", it.req.UserID),
		slog.String("cmd", name),
		slog.Int64("duration_ms", time.Since(start).Milliseconds()),
	}
	if !it.acked.IsZero() {
		attrs = append(attrs, slog.Int64("ack_ms", it.acked.Sub(start).Milliseconds()))
	}
	level := slog.LevelInfo
	if err != nil {
		code := ladder.ErrorCode(err)
		attrs = append(attrs, slog.String("code", string(code)), slog.String("err", err.Error()))
		if ref != "" {
			attrs = append(attrs, slog.String("ref", ref))
		}
		if code == ladder.CodeInternal || code == ladder.CodeUnavailable {
			level = slog.LevelError
		}
	}
	b.log.LogAttrs(context.Background(), level, "interaction", attrs...)
}
