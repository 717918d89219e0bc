package bot

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
)

// gatewayResponder answers an interaction that came over the gateway, by
// Discord's REST callbacks and webhook edits through the session. It is
// the dispatch chain's responder for the gateway transport.
type gatewayResponder struct {
	session   *discordgo.Session
	base      context.Context // bounds error answers given after the chain's own context
	ic        *discordgo.Interaction
	kind      commands.Kind
	messageID string

	deferred discordgo.InteractionResponseType // 0 until deferred
	ephDefer bool
	acked    time.Time

	// initial, when set, delivers the interaction's first response instead
	// of the REST callback: over HTTP interactions the first response must
	// be the body of Discord's POST (interactions.go), and only the later
	// edits and followups go through REST.
	initial func(ctx context.Context, resp *discordgo.InteractionResponse) error
}

// callback sends the interaction's first response: by the transport's
// initial hook, or as the REST callback the gateway transport uses.
func (g *gatewayResponder) callback(ctx context.Context, resp *discordgo.InteractionResponse) error {
	if g.initial != nil {
		return g.initial(ctx, resp)
	}
	return g.session.InteractionRespond(g.ic, resp, discordgo.WithContext(ctx))
}

// Acked implements responder.
func (g *gatewayResponder) Acked() time.Time { return g.acked }

// Deferred implements responder.
func (g *gatewayResponder) Deferred() bool { return g.deferred != 0 }

// Answered implements responder.
func (g *gatewayResponder) Answered() bool { return !g.acked.IsZero() && g.deferred == 0 }

// Defer acknowledges before any storage is touched: "thinking…" for
// commands, a silent deferred update for buttons and modals. It
// implements responder.
func (g *gatewayResponder) Defer(ctx context.Context, ephemeral bool) error {
	typ := discordgo.InteractionResponseDeferredChannelMessageWithSource
	data := &discordgo.InteractionResponseData{Flags: flags(ephemeral)}
	// A deferred update needs a message to update: a button's, or the one
	// a form was opened from.
	if g.messageID != "" && (g.kind == commands.KindComponent || g.kind == commands.KindModal) {
		typ, data = discordgo.InteractionResponseDeferredMessageUpdate, nil
	}
	err := retryTransient(ctx, func() error {
		return g.callback(ctx, &discordgo.InteractionResponse{Type: typ, Data: data})
	})
	if err != nil {
		return markDuplicate(err)
	}
	g.deferred, g.ephDefer, g.acked = typ, ephemeral, time.Now()
	return nil
}

// markDuplicate marks Discord's "Interaction has already been
// acknowledged" (40060) as a duplicate for the chain.
func markDuplicate(err error) error {
	if alreadyAcknowledged(err) {
		return duplicateError{err}
	}
	return err
}

// alreadyAcknowledged reports Discord's "Interaction has already been
// acknowledged" (40060): another process answered this interaction.
func alreadyAcknowledged(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == 40060
}

// Answer shows reply the way the interaction's state allows. It
// implements responder.
func (g *gatewayResponder) Answer(ctx context.Context, r commands.Reply) error {
	return markDuplicate(g.answer(ctx, r))
}

func (g *gatewayResponder) answer(ctx context.Context, r commands.Reply) error {
	s := g.session
	opt := discordgo.WithContext(ctx)
	if g.kind == commands.KindAutocomplete {
		choices := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(r.Choices))
		for _, c := range r.Choices[:min(len(r.Choices), 25)] {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(c.Name, maxChoiceName), Value: c.Value})
		}
		return g.respond(ctx, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices},
		})
	}
	component := g.kind == commands.KindComponent || g.kind == commands.KindModal
	switch g.deferred {
	case 0:
		typ := discordgo.InteractionResponseChannelMessageWithSource
		data := responseData(r)
		switch {
		case r.Modal != nil:
			typ, data = discordgo.InteractionResponseModal, modalData(r.Modal)
		case r.Update && component:
			typ = discordgo.InteractionResponseUpdateMessage
		}
		return g.respond(ctx, &discordgo.InteractionResponse{Type: typ, Data: data})
	case discordgo.InteractionResponseDeferredMessageUpdate:
		if r.Modal != nil {
			return errors.New("a modal cannot follow a deferral; make the component Instant")
		}
		if r.Update {
			return g.editOriginal(ctx, r)
		}
		_, err := s.FollowupMessageCreate(g.ic, false, webhookParams(r), opt)
		return err
	default:
		if r.Modal != nil {
			return errors.New("a modal cannot follow a deferral; make the command Instant")
		}
		if r.Ephemeral && !g.ephDefer {
			// The public "thinking…" cannot turn private: remove it and
			// answer privately instead.
			if err := s.InteractionResponseDelete(g.ic, opt); err != nil {
				return err
			}
			_, err := s.FollowupMessageCreate(g.ic, false, webhookParams(r), opt)
			return err
		}
		return g.editOriginal(ctx, r)
	}
}

func (g *gatewayResponder) respond(ctx context.Context, resp *discordgo.InteractionResponse) error {
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
		return g.callback(ctx, resp)
	})
	if err != nil {
		return err
	}
	g.acked = time.Now()
	return nil
}

// retryTransient runs fn, and again after 250 ms and 500 ms while it fails
// with a transient error: a 5xx from Discord or a network error (docs/spec.md 9).
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
func (g *gatewayResponder) editOriginal(ctx context.Context, r commands.Reply) error {
	s := g.session
	return retryTransient(ctx, func() error {
		edit := webhookEdit(r)
		if len(edit.Files) > 0 {
			_, err := s.InteractionResponseEdit(g.ic, edit, discordgo.WithContext(ctx))
			return err
		}
		uri := discordgo.EndpointWebhookMessage(g.ic.AppID, g.ic.Token, "@original")
		_, err := s.RequestWithBucketID("PATCH", uri, edit, uri, discordgo.WithContext(ctx))
		return err
	})
}

// ShowError shows text as a private message. The chain's context may be
// spent (a timeout is one reason to show an error), so it has its own,
// from the bot's. It implements responder.
func (g *gatewayResponder) ShowError(text string) error {
	if g.kind == commands.KindAutocomplete {
		// Autocomplete cannot show text; an empty list is the answer.
		ctx, cancel := context.WithTimeout(g.base, instantBudget)
		defer cancel()
		g.respond(ctx, &discordgo.InteractionResponse{
			Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}},
		})
		return nil
	}
	ctx, cancel := context.WithTimeout(g.base, 10*time.Second)
	defer cancel()
	reply := commands.Reply{Content: text, Ephemeral: true}
	if g.Answered() {
		// Already answered (a later step failed); a followup is all we can do.
		g.session.FollowupMessageCreate(g.ic, false, webhookParams(reply), discordgo.WithContext(ctx))
		return nil
	}
	return g.answer(ctx, reply)
}

// Post sends a further message to a channel. It implements responder.
func (g *gatewayResponder) Post(ctx context.Context, channelID string, msg commands.Reply) (string, error) {
	return postMessage(ctx, g.session, channelID, msg)
}
