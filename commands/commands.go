package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/formats"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/internal/groupcommit"
	"github.com/ladderbot/ladderbot/joins"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/rooms"
)

// Deps is what the handlers need, passed once at start-up.
type Deps struct {
	Service *ladder.Service
	// Chart renders a rating history as a PNG for /profile; nil attaches
	// no chart. main wires it to internal/chart, so this package stays on
	// the standard library and ladder.
	Chart func(title string, at []time.Time, rating []float64) ([]byte, error)
	// Metrics counts the matches queue joins form; nil counts nothing.
	Metrics Metrics
	// VerifyReplay fetches a Showdown replay and checks it against the two
	// teams' linked Showdown names, answering the winning team (1, 2, or 0
	// for a tie) or an error saying why the replay proves nothing. main
	// wires internal/showdown's Client.Verify; nil refuses /report replay.
	VerifyReplay func(ctx context.Context, url string, team1, team2 []string) (int, error)
	// CreateRole creates a Discord role called name in a guild and answers
	// its ID, or Discord's refusal (the bot lacks Manage Roles); main wires
	// the bot's discordgo session. nil refuses /config roles create.
	CreateRole func(ctx context.Context, guildID, name string) (string, error)
	// Rooms opens formed matches' rooms and keeps the queues' room
	// settings (/config queue room); nil announces matches in the queue's
	// channel and refuses /config queue room.
	Rooms *rooms.Manager
	// Panels places queue panels and the results channel; main wires
	// package panel. nil refuses /config queue panel, results channels
	// and /setup.
	Panels Panels
	// EnsureChannel answers the ID of the guild's text channel called
	// name, creating it when there is none; EnsureRole the same for a
	// role. main wires the bot's discordgo session; nil refuses /setup's
	// create buttons.
	EnsureChannel func(ctx context.Context, guildID, name string) (string, error)
	EnsureRole    func(ctx context.Context, guildID, name string) (string, error)
	// Community answers /compare, /history and /stats; nil refuses them.
	Community *community.Service
	// Formats keeps map pools and runs map picks (/config maps, /config
	// queue format, the map vote and ban menus); nil refuses them and
	// matches get no map.
	Formats *formats.Service
	// Joins keeps the queues' requirements, open hours and rematches
	// (/config queue requirements, schedule and rematch, the Rematch
	// button); nil refuses them.
	Joins *joins.Service
	// Integrity lists and dismisses integrity flags (/mod integrity);
	// nil refuses it.
	Integrity *integrity.Service
}

// New returns the one explicit list of ladderbot's commands and components.
func New(d Deps) *Set {
	h := &handlers{Deps: d}
	if d.Service != nil {
		h.confirms = groupcommit.New[string](ConfirmBatch, d.Service.Confirms).Linger(ConfirmLinger)
	}
	cmds := []Command{
		h.queueCommand(),
		h.reportCommand(),
		h.leaderboardCommand(),
		h.profileCommand(),
		h.matchCommand(),
		h.balanceCommand(),
		h.modCommand(),
		h.configCommand(),
		h.subCommand(),
		h.noShowCommand(),
		h.linkCommand(),
		h.setupCommand(),
		h.compareCommand(),
		h.historyCommand(),
		h.statsCommand(),
	}
	var comps []Component
	comps = append(comps, h.queueComponents()...)
	comps = append(comps, h.reportComponents()...)
	comps = append(comps, h.leaderboardComponents()...)
	comps = append(comps, h.modComponents()...)
	comps = append(comps, h.lobbyComponents()...)
	comps = append(comps, h.draftComponents()...)
	comps = append(comps, h.subComponents()...)
	comps = append(comps, h.noShowComponents()...)
	comps = append(comps, h.panelComponents()...)
	comps = append(comps, h.predictComponents()...)
	comps = append(comps, h.setupComponents()...)
	comps = append(comps, h.historyComponents()...)
	comps = append(comps, h.mapComponents()...)
	comps = append(comps, h.seriesComponents()...)
	comps = append(comps, h.rematchComponents()...)
	s := NewSet(h.moderatorRole, cmds, comps)
	s.lost = h.roomLost
	return s
}

// handlers carries Deps to every handler method.
type handlers struct {
	Deps
	// confirms batches the Confirm buttons of one guild pressed while
	// its previous confirms are written (Service.Confirms): a busy
	// queue's confirms share the queue's lock and one commit. It holds
	// only the presses in flight.
	confirms *groupcommit.Group[string, ladder.ConfirmInput, ladder.MatchResult]
}

// ConfirmBatch is the most confirms of one guild written in one
// transaction.
const ConfirmBatch = 16

// ConfirmLinger is how long, at most, a guild's next batch of confirms
// waits after a batch of two or more for as many presses as that batch
// had plus those already waiting (groupcommit.Group.Linger): in a busy
// queue it keeps the batches full instead of alternating between the
// presses that came while a batch was written and that batch's players.
// Half a millisecond is nothing beside an interaction's round trip to
// Discord; BenchmarkConfirm's 8 writers went from batches of 4 to batches
// of 8 with it.
const ConfirmLinger = 500 * time.Microsecond

// moderatorRole is the permission check's view of the guild settings.
func (h *handlers) moderatorRole(ctx context.Context, guildID string) (string, error) {
	g, err := h.Service.EnsureGuild(ctx, guildID)
	if err != nil {
		return "", err
	}
	return g.ModeratorRoleID, nil
}

// actor is the ladder actor of a request.
func actor(req Request) ladder.Actor {
	return ladder.Actor{UserID: req.UserID, Moderator: req.Moderator}
}

// mention renders a user mention. Not every ID that acts or plays is a
// Discord user's: the dashboard acts as "web:<user ID>", which is that
// Discord user; an API token acts as "api:<name>", the jobs as "system",
// and an imported history's players have the IDs its file gave them.
// Those are written as they are (markdown escaped), not as a mention
// Discord would show as raw "<@…>" text.
func mention(userID string) string {
	if id, ok := strings.CutPrefix(userID, "web:"); ok && snowflake(id) {
		return "<@" + id + ">"
	}
	if !snowflake(userID) {
		return markdownEscaper.Replace(userID)
	}
	return "<@" + userID + ">"
}

// markdownEscaper escapes the characters Discord's markdown formats with,
// so that text from outside shows as typed.
var markdownEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`, "<", `\<`, "#", `\#`, "[", `\[`, "]", `\]`)

// Mention is mention for the packages that render messages beside the
// commands (the results channel's posts).
func Mention(userID string) string { return mention(userID) }

// userMention matches a user mention as the ladder's messages write one,
// <@ID>, with any ID: not a role's (<@&ID>) or a nickname's (<@!ID>).
var userMention = regexp.MustCompile(`<@([^<>&!\n][^<>\n]{0,63})>`)

// MentionsIn rewrites the user mentions in a message the ladder wrote
// (an error's text names players and actors as <@ID>) as mention writes
// them, so that the dashboard's "web:<ID>", an API token's "api:<name>"
// or an imported player's key do not show as raw "<@…>" text.
func MentionsIn(text string) string { return ReplaceMentions(text, mention) }

// ReplaceMentions replaces each user mention <@ID> in text with f(ID): the
// dashboard, which shows no Discord mentions, writes players' names.
func ReplaceMentions(text string, f func(id string) string) string {
	return userMention.ReplaceAllStringFunc(text, func(m string) string { return f(m[2 : len(m)-1]) })
}

// mentions renders a team as mentions.
func mentions(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = mention(id)
	}
	return strings.Join(parts, ", ")
}

// ratingIn renders R ± RD in language l.
func ratingIn(l *i18n.Lang, r, rd float64) string { return l.Rating(r) + " ± " + l.Rating(rd) }

// ensure creates the guild on first use so every command works before
// anyone configures anything (docs/spec.md 3).
// It also notes the guild's preferred locale when Discord reports a new
// one, for the posts of the scheduled jobs (GuildLang).
func (h *handlers) ensure(ctx context.Context, req Request) (ladder.Guild, error) {
	g, err := h.Service.EnsureGuild(ctx, req.GuildID)
	if err != nil || req.GuildLocale == "" || req.GuildLocale == g.PreferredLocale {
		return g, err
	}
	if err := h.Service.NotePreferredLocale(ctx, g.ID, req.GuildLocale); err != nil {
		return g, err
	}
	g.PreferredLocale = req.GuildLocale
	return g, nil
}

// queueChoices answers autocomplete for queue names. On a server where
// nobody has used the bot yet it creates the guild first, as the command
// being typed will, so its default queue is offered.
func (h *handlers) queueChoices(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	typed, _ := req.String(req.Focused)
	var out []Choice
	for _, q := range qs {
		if strings.Contains(strings.ToLower(q.Name), strings.ToLower(typed)) {
			out = append(out, Choice{Name: fmt.Sprintf("%s (%dv%d, %s)", q.Name, q.TeamSize, q.TeamSize, q.Model), Value: q.Name})
		}
	}
	return Reply{Choices: out}, nil
}

// seasonChoices answers autocomplete for season numbers.
func (h *handlers) seasonChoices(ctx context.Context, req Request) (Reply, error) {
	ss, err := h.Service.Seasons(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	typed := fmt.Sprint(req.Options[req.Focused])
	l := userLang(req)
	var out []Choice
	for i := len(ss) - 1; i >= 0 && len(out) < 25; i-- {
		s := ss[i]
		name := l.T("autocomplete.season_current", "N", s.Number, "From", l.Date(s.StartedAt))
		if !s.Running() {
			name = l.T("autocomplete.season_ended", "N", s.Number, "From", l.Date(s.StartedAt), "To", l.Date(s.EndedAt))
		}
		if typed == "" || strings.Contains(fmt.Sprint(s.Number), typed) {
			out = append(out, Choice{Name: name, Value: int64(s.Number)})
		}
	}
	return Reply{Choices: out}, nil
}

// autocomplete routes a command's autocomplete by focused option name.
func (h *handlers) autocomplete(ctx context.Context, req Request) (Reply, error) {
	switch req.Focused {
	case "queue", "games_queue":
		return h.queueChoices(ctx, req)
	case "season":
		return h.seasonChoices(ctx, req)
	case "division":
		return h.divisionChoices(ctx, req)
	}
	return Reply{}, nil
}

// Option constructors keep the definitions short.
func opt(t OptionType, name, desc string, required bool) Option {
	return Option{Type: t, Name: name, Description: desc, Required: required}
}

func queueOpt() Option {
	return Option{Type: OptString, Name: "queue", Description: "queue name (default: the server's first queue)", Autocomplete: true, MaxLength: 32}
}

func seasonOpt() Option {
	one, most := 1.0, float64(MaxInteger)
	return Option{Type: OptInteger, Name: "season", Description: "season number (default: the current one)", Autocomplete: true, Min: &one, Max: &most}
}

func matchOpt(required bool) Option {
	one, most := 1.0, float64(MaxInteger)
	return Option{Type: OptInteger, Name: "match", Description: "match ID", Required: required, Min: &one, Max: &most}
}

func sub(name, desc string, opts ...Option) Option {
	return Option{Type: OptSubcommand, Name: name, Description: desc, Options: opts}
}

func group(name, desc string, subs ...Option) Option {
	return Option{Type: OptSubcommandGroup, Name: name, Description: desc, Options: subs}
}

// unknownSub is the answer to a subcommand the handler does not know,
// which only a stale registration can send.
func unknownSub(req Request) error {
	return ladder.Errorf(ladder.CodeInvalid, "unknown command /%s; the bot may be updating, try again in a minute", req.Command)
}
