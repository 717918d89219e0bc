package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// The dispatch chain (STYLE.md) is composed of small steps, after arikawa's
// cmdroute middlewares and disgo's handlers: each step gets the call and
// the rest of the chain, and may stop it, change its context or act on its
// error on the way back. The steps know the transport only through
// responder, so a transport other than the gateway (HTTP interactions)
// runs the same chain.

// instantBudget bounds handlers that answer without deferring: Discord
// drops an interaction not acknowledged within 3 s.
const instantBudget = 2500 * time.Millisecond

// responder acknowledges and answers one interaction for the chain; each
// transport implements it (gatewayResponder over the discordgo session).
type responder interface {
	// Defer acknowledges before slow work: "thinking…" (private when
	// ephemeral) for commands, a silent deferred update for components.
	Defer(ctx context.Context, ephemeral bool) error
	// Answer shows r the way the acknowledgement so far allows.
	Answer(ctx context.Context, r commands.Reply) error
	// ShowError shows text privately by whatever route is left: an
	// answer, a followup, or an empty autocomplete list.
	ShowError(text string) error
	// Post sends a further message to a channel and returns its ID.
	Post(ctx context.Context, channelID string, msg commands.Reply) (string, error)
	// Acked is when the interaction was first acknowledged; zero if never.
	Acked() time.Time
	// Deferred reports whether Defer acknowledged the interaction.
	Deferred() bool
	// Answered reports whether the interaction got its full answer as its
	// acknowledgement (no deferral), so an error can only follow up.
	Answered() bool
}

// duplicateError marks a transport's "already acknowledged": another
// process of this shard took the interaction. It keeps the transport's
// message for the log.
type duplicateError struct{ err error }

func (e duplicateError) Error() string { return e.err.Error() }
func (e duplicateError) Unwrap() error { return e.err }

func isDuplicate(err error) bool {
	var d duplicateError
	return errors.As(err, &d)
}

// answerError marks a failure to show the handler's reply, so it is not
// taken for a handler that ran out of time.
type answerError struct{ err error }

func (e answerError) Error() string { return "bot: answer: " + e.err.Error() }
func (e answerError) Unwrap() error { return e.err }

// call is one interaction going through the chain.
type call struct {
	id    string // the interaction's ID, for dropping redeliveries
	start time.Time
	// created is when Discord created the interaction, from its ID, for
	// dropping one that arrives too late to be answered (expired.go); zero
	// when the transport bounds the interaction's age itself (HTTP).
	created time.Time
	req     commands.Request
	// reqErr is why the transport could not read the interaction.
	reqErr error
	route  route
	resp   responder
	// reply is the handler's, for the answer step.
	reply commands.Reply
	// quiet is set when nothing can be shown to the user any more (the
	// acknowledgement failed), so the error is only logged.
	quiet bool
}

// deferred reports whether the call acknowledges before its handler runs:
// every route that is not Instant, except autocomplete, which answers at
// once or not at all.
func (c *call) deferred() bool {
	return !c.route.instant && c.req.Kind != commands.KindAutocomplete
}

// handler runs the rest of the chain for a call.
type handler func(ctx context.Context, c *call) error

// step is one link of the chain.
type step func(next handler) handler

// compose builds the chain: steps[0] runs first and sees last what the
// rest returned; h is the innermost.
func compose(h handler, steps ...step) handler {
	for i := len(steps) - 1; i >= 0; i-- {
		h = steps[i](h)
	}
	return h
}

// dispatch returns the chain of b: admission → drop duplicates → drop
// expired → report (error text and one log line) → recover → route →
// defer → wait for a worker → timeout → answer → permission check →
// handler.
func (b *Bot) dispatch() handler {
	return compose(runHandler,
		admission(b.admit, b.inflight.Done),
		dropDuplicates(b.seen.first),
		dropExpired(b.cfg.Now, b.expired),
		b.report,
		recoverPanics,
		routing(b.route),
		acknowledge,
		waitForWorker(b.workers, b.cfg.WorkerWait),
		timeout(b.cfg.HandlerTimeout),
		answer(b.log, b.rehome),
		authorize(b.set.Authorize),
	)
}

// admission lets a call in unless the bot is draining at shutdown; done
// is called once the admitted call is finished.
func admission(admit func() bool, done func()) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if !admit() {
				return nil
			}
			defer done()
			return next(ctx, c)
		}
	}
}

// dropDuplicates stops an interaction delivered twice (a gateway replay
// after a resume) before it is answered or logged a second time.
func dropDuplicates(first func(id string, now time.Time) bool) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if !first(c.id, c.start) {
				return nil
			}
			return next(ctx, c)
		}
	}
}

// report maps the chain's error to user text, shows it, and writes the
// one log line and metrics observation of the interaction (STYLE.md: log
// at the boundary, once).
func (b *Bot) report(next handler) handler {
	return func(ctx context.Context, c *call) error {
		err := next(ctx, c)
		ref := ""
		if err != nil && !c.quiet {
			var text string
			text, ref = userText(i18n.For(c.req.Locale), err)
			if serr := c.resp.ShowError(text); serr != nil {
				b.log.Warn("could not show an error to the user", "err", serr, "interaction_id", c.id)
			}
		}
		b.logInteraction(c, err, ref)
		b.observe(c, err)
		return err
	}
}

// userText is what the user reads for err in language l, and the
// reference ID of an internal error ("" otherwise): internal errors show
// only the reference; the log line has the full error. A coded error's
// message is rendered from its format in l (i18n.Lang.Error).
func userText(l *i18n.Lang, err error) (text, ref string) {
	format, args := ladder.ErrorFormat(err)
	// Its mentions name players and actors by ID; those that are not
	// Discord users' are written as text (commands.MentionsIn).
	msg := commands.MentionsIn(l.Error(format, args...))
	switch ladder.ErrorCode(err) {
	case ladder.CodeInternal:
		ref = newRef()
		msg = l.T("error.internal", "Ref", ref)
	case ladder.CodeUnavailable:
		msg = l.T("error.unavailable", "Message", msg)
	}
	return "⚠️ " + msg, ref
}

func newRef() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// recoverPanics turns a panic anywhere further down the chain into an
// internal error, so the user still gets an answer with a reference.
func recoverPanics(next handler) handler {
	return func(ctx context.Context, c *call) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("bot: panic: %v\n%s", p, debug.Stack())
				c.quiet = false
			}
		}()
		return next(ctx, c)
	}
}

// routing finds the route of the call's request; an unreadable
// interaction or an unknown command stops the chain with its error.
func routing(find func(commands.Request) (route, error)) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if c.reqErr != nil {
				return c.reqErr
			}
			rt, err := find(c.req)
			c.route = rt
			if err != nil {
				return err
			}
			return next(ctx, c)
		}
	}
}

// acknowledge defers the calls whose handlers touch storage, within
// Discord's 3 s, before any storage is touched (docs/spec.md 6). An interaction
// another process acknowledged ends here as a duplicate; without an
// acknowledgement nothing can be shown, so that error is only logged.
func acknowledge(next handler) handler {
	return func(ctx context.Context, c *call) error {
		if !c.deferred() {
			return next(ctx, c)
		}
		actx, cancel := context.WithTimeout(ctx, instantBudget)
		err := c.resp.Defer(actx, c.route.ephemeral)
		cancel()
		switch {
		case isDuplicate(err):
			c.route.name += duplicateSuffix
			return nil
		case err != nil:
			c.quiet = true
			return fmt.Errorf("bot: defer: %w", err)
		}
		return next(ctx, c)
	}
}

// waitForWorker makes an acknowledged call wait up to wait for one of the
// workers (a semaphore) before its storage work runs, so a burst is
// acknowledged at once and its work queues. A call that waits too long,
// or whose bot shuts down, is answered "try again".
func waitForWorker(workers chan struct{}, wait time.Duration) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if !c.deferred() {
				return next(ctx, c)
			}
			timer := time.NewTimer(wait)
			select {
			case workers <- struct{}{}:
				timer.Stop()
				defer func() { <-workers }()
			case <-timer.C:
				return ladder.Errorf(ladder.CodeUnavailable, "the bot is overloaded right now")
			case <-ctx.Done():
				timer.Stop()
				return ladder.Wrap(ladder.CodeUnavailable, ctx.Err(), "the bot is restarting")
			}
			return next(ctx, c)
		}
	}
}

// timeout bounds the rest of the call: instant answers must be complete
// within Discord's 3 s; deferred ones run for up to handlerTimeout once
// they have a worker (the interaction token itself lasts 15 min). A
// permission check or handler that ran out of time is "took too long", a
// temporary problem, not an internal error.
func timeout(handlerTimeout time.Duration) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			d := instantBudget
			if c.deferred() {
				d = handlerTimeout
			}
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			err := next(ctx, c)
			var ae answerError
			if errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &ae) {
				return ladder.Wrap(ladder.CodeUnavailable, err, "that took too long; please try again")
			}
			return err
		}
	}
}

// postBudget bounds a post that follows the opening of a match's room.
const postBudget = 30 * time.Second

// answer shows the handler's reply, then sends its further posts (a
// formed match's announcement); a failed post is logged and undoes
// nothing, the action is already stored. A post to a match room that is
// gone goes to the channel rehome returns instead (nil: none), unless
// rehome posted that very message there itself (the match where it
// stands), which then stands for it. An instant answer another process
// gave first makes the call a duplicate.
func answer(log *slog.Logger, rehome func(ctx context.Context, channelID string) (string, []rehomedPost)) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if err := next(ctx, c); err != nil {
				return err
			}
			err := c.resp.Answer(ctx, c.reply)
			switch {
			case !c.resp.Deferred() && isDuplicate(err):
				c.route.name += duplicateSuffix
				return nil
			case err != nil:
				c.quiet = c.resp.Answered()
				return answerError{err}
			}
			for _, p := range c.reply.Posts {
				ch, pctx, cancel := p.ChannelID, ctx, context.CancelFunc(func() {})
				if p.Open != nil {
					// Opening a room may take a while under Discord's rate
					// limits; the announcement it is for must still go out
					// after the interaction's budget ran out.
					ch = p.Open(ctx)
					pctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), postBudget)
				}
				id, err := c.resp.Post(pctx, ch, p.Message)
				if channelGone(err) && rehome != nil && p.Message.Edit == "" {
					if home, posted := rehome(pctx, ch); home != "" {
						ch = home
						if same, ok := shownAs(posted, p.Message); ok {
							// The match's view rehome posted there is this
							// message: recorded as this post, not sent twice.
							id, err = same, nil
						} else {
							id, err = c.resp.Post(pctx, ch, p.Message)
						}
					}
				}
				if err == nil && p.Sent != nil {
					err = p.Sent(pctx, ch, id)
				}
				if err == nil && p.Follow != nil {
					for _, f := range p.Follow(pctx) {
						if id, err = c.resp.Post(pctx, ch, f.Message); err == nil && f.Sent != nil {
							err = f.Sent(pctx, ch, id)
						}
					}
				}
				cancel()
				if err != nil {
					log.Warn("posting to channel failed", "guild_id", c.req.GuildID, "channel_id", ch, "err", err)
				}
			}
			return nil
		}
	}
}

// authorize checks the route's access in the handler's path (docs/spec.md 6: not
// only by default_member_permissions, which guild admins can override).
func authorize(check func(context.Context, *commands.Request, commands.Access) error) step {
	return func(next handler) handler {
		return func(ctx context.Context, c *call) error {
			if err := check(ctx, &c.req, c.route.access); err != nil {
				return err
			}
			return next(ctx, c)
		}
	}
}

// runHandler is the innermost link: the route's handler, whose reply the
// answer step shows.
func runHandler(ctx context.Context, c *call) error {
	reply, err := c.route.handle(ctx, c.req)
	c.reply = reply
	return err
}
