package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

// /setup is a walkthrough for a server with nothing configured, one
// private message edited step by step: the queue channel, the results
// channel, the moderator role, the first queue, whose panel it posts.
// Each step stores its choice at once, so the walkthrough can stop
// anywhere; running it again shows what is set and offers to keep it,
// and its create buttons reuse a channel or role of the same name.
// The queue channel is carried in the steps' custom IDs until the queue
// that keeps it exists.

// Component actions of /setup.
const (
	actSetupQueueNew  = "su_qnew"
	actSetupQueuePick = "su_qpick"
	actSetupQueueKeep = "su_qkeep"
	actSetupResNew    = "su_rnew"
	actSetupResPick   = "su_rpick"
	actSetupResSkip   = "su_rskip"
	actSetupModNew    = "su_mnew"
	actSetupModPick   = "su_mpick"
	actSetupModSkip   = "su_mskip"
	actSetupSize      = "su_size"
	actSetupModel     = "su_model"
	actSetupCreate    = "su_go"
	actSetupUseQueue  = "su_use"
)

// Names of what /setup creates.
const (
	setupQueueChannel   = "ladder-queue"
	setupResultsChannel = "ladder-results"
	setupModRole        = "Ladder Moderator"
)

func (h *handlers) setupCommand() Command {
	return Command{
		Name:        "setup",
		Description: "Set the ladder up step by step: channels, moderator role, first queue and its panel",
		Access:      Admins,
		Ephemeral:   true,
		Handle:      h.setup,
	}
}

func (h *handlers) setupComponents() []Component {
	c := func(action string, f Handler) Component { return Component{Action: action, Access: Admins, Handle: f} }
	return []Component{
		c(actSetupQueueNew, h.setupQueueNew), c(actSetupQueuePick, h.setupQueuePick), c(actSetupQueueKeep, h.setupQueueKeep),
		c(actSetupResNew, h.setupResNew), c(actSetupResPick, h.setupResPick), c(actSetupResSkip, h.setupResSkip),
		c(actSetupModNew, h.setupModNew), c(actSetupModPick, h.setupModPick), c(actSetupModSkip, h.setupModSkip),
		c(actSetupSize, h.setupSize), c(actSetupModel, h.setupModel), c(actSetupCreate, h.setupCreate),
		c(actSetupUseQueue, h.setupUseQueue),
	}
}

func (h *handlers) setupReady() error {
	if h.Panels == nil || h.EnsureChannel == nil || h.EnsureRole == nil {
		return ladder.Errorf(ladder.CodeInvalid, "/setup is not available on this bot; use /config")
	}
	return nil
}

// setup is step 1: the queue channel.
func (h *handlers) setup(ctx context.Context, req Request) (Reply, error) {
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	current := ""
	for _, q := range qs {
		if current == "" {
			if current, err = h.Panels.PanelChannel(ctx, req.GuildID, q.ID); err != nil {
				return Reply{}, err
			}
		}
		if current == "" {
			current = q.ChannelID
		}
	}
	tr := userLang(req)
	text := tr.T("setup.queue_ask", "Join", tr.T("panel.join"))
	row := []Button{{Label: tr.T("setup.create", "Name", "#"+setupQueueChannel), Style: Primary, CustomID: ID(actSetupQueueNew, 0)}}
	if current != "" {
		text += "\n" + tr.T("setup.now", "Current", "<#"+current+">")
		row = append([]Button{{Label: tr.T("setup.keep_channel"), Style: Success, CustomID: ID(actSetupQueueKeep, 0, current)}}, row...)
	}
	return setupStep(tr, 1, tr.T("setup.queue_title"), text, [][]Button{row},
		SelectMenu{Kind: SelectChannels, CustomID: ID(actSetupQueuePick, 0), Placeholder: tr.T("setup.pick_channel")}), nil
}

// setupStep renders one step of the walkthrough over the same message.
func setupStep(tr *i18n.Lang, n int, title, text string, buttons [][]Button, menus ...SelectMenu) Reply {
	return Reply{Ephemeral: true, Update: true,
		Embeds:  []Embed{{Title: tr.T("setup.step", "N", n, "Title", title), Description: text, Color: ColorInfo}},
		Buttons: buttons, Menus: menus}
}

// picked is the one ID a channel or role menu answered.
func picked(req Request) (string, error) {
	if len(req.Selected) != 1 || !snowflake(req.Selected[0]) {
		return "", ladder.Errorf(ladder.CodeInvalid, "pick one from the menu")
	}
	return req.Selected[0], nil
}

// carried is the queue channel a step's custom ID carries.
func carried(req Request) (string, error) {
	qc := req.CustomID.Arg(0)
	if !snowflake(qc) {
		return "", ladder.Errorf(ladder.CodeInvalid, "this setup button is not valid; run /setup again")
	}
	return qc, nil
}

func (h *handlers) setupQueueNew(ctx context.Context, req Request) (Reply, error) {
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	ch, err := h.EnsureChannel(ctx, req.GuildID, setupQueueChannel)
	if err != nil {
		return Reply{}, ladder.Wrap(ladder.CodeForbidden, err, "could not create #"+setupQueueChannel+" (the bot needs Manage Channels); pick a channel instead")
	}
	return h.setupResults(ctx, req, ch)
}

func (h *handlers) setupQueuePick(ctx context.Context, req Request) (Reply, error) {
	ch, err := picked(req)
	if err != nil {
		return Reply{}, err
	}
	return h.setupResults(ctx, req, ch)
}

func (h *handlers) setupQueueKeep(ctx context.Context, req Request) (Reply, error) {
	ch, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	return h.setupResults(ctx, req, ch)
}

// setupResults is step 2: the results channel.
func (h *handlers) setupResults(ctx context.Context, req Request, qc string) (Reply, error) {
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	current, err := h.Panels.ResultsChannel(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	text := tr.T("setup.queue_channel", "Channel", "<#"+qc+">") + "\n\n" + tr.T("setup.results_ask")
	skip := tr.T("setup.skip")
	if current != "" {
		text += "\n" + tr.T("setup.now", "Current", "<#"+current+">")
		skip = tr.T("setup.keep_channel")
	}
	return setupStep(tr, 2, tr.T("setup.results_title"), text, [][]Button{{
		{Label: skip, Style: Secondary, CustomID: ID(actSetupResSkip, 0, qc)},
		{Label: tr.T("setup.create", "Name", "#"+setupResultsChannel), Style: Primary, CustomID: ID(actSetupResNew, 0, qc)},
	}}, SelectMenu{Kind: SelectChannels, CustomID: ID(actSetupResPick, 0, qc), Placeholder: tr.T("setup.pick_channel")}), nil
}

func (h *handlers) setupResNew(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	ch, err := h.EnsureChannel(ctx, req.GuildID, setupResultsChannel)
	if err != nil {
		return Reply{}, ladder.Wrap(ladder.CodeForbidden, err, "could not create #"+setupResultsChannel+" (the bot needs Manage Channels); pick a channel instead")
	}
	if err := h.Panels.SetResultsChannel(ctx, req.GuildID, ch); err != nil {
		return Reply{}, err
	}
	return h.setupModerator(ctx, req, qc)
}

func (h *handlers) setupResPick(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	ch, err := picked(req)
	if err != nil {
		return Reply{}, err
	}
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	if err := h.Panels.SetResultsChannel(ctx, req.GuildID, ch); err != nil {
		return Reply{}, err
	}
	return h.setupModerator(ctx, req, qc)
}

func (h *handlers) setupResSkip(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	return h.setupModerator(ctx, req, qc)
}

// setupModerator is step 3: the moderator role.
func (h *handlers) setupModerator(ctx context.Context, req Request, qc string) (Reply, error) {
	g, err := h.ensure(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	text := tr.T("setup.mod_ask")
	skip := tr.T("setup.skip")
	if g.ModeratorRoleID != "" {
		text += "\n" + tr.T("setup.now", "Current", "<@&"+g.ModeratorRoleID+">")
		skip = tr.T("setup.keep_role")
	}
	return setupStep(tr, 3, tr.T("cfg.moderator_role"), text, [][]Button{{
		{Label: skip, Style: Secondary, CustomID: ID(actSetupModSkip, 0, qc)},
		{Label: tr.T("setup.create", "Name", "@"+setupModRole), Style: Primary, CustomID: ID(actSetupModNew, 0, qc)},
	}}, SelectMenu{Kind: SelectRoles, CustomID: ID(actSetupModPick, 0, qc), Placeholder: tr.T("setup.pick_role")}), nil
}

func (h *handlers) setModerator(ctx context.Context, req Request, role string) error {
	g, err := h.ensure(ctx, req)
	if err != nil {
		return err
	}
	g.ModeratorRoleID = role
	_, err = h.Service.UpdateGuild(ctx, actor(req), g)
	return err
}

func (h *handlers) setupModNew(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	role, err := h.EnsureRole(ctx, req.GuildID, setupModRole)
	if err != nil {
		return Reply{}, ladder.Wrap(ladder.CodeForbidden, err, "could not create @"+setupModRole+" (the bot needs Manage Roles); pick a role instead")
	}
	if err := h.setModerator(ctx, req, role); err != nil {
		return Reply{}, err
	}
	return h.setupQueue(ctx, req, qc, 2, rating.DefaultModel)
}

func (h *handlers) setupModPick(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	role, err := picked(req)
	if err != nil {
		return Reply{}, err
	}
	if err := h.setModerator(ctx, req, role); err != nil {
		return Reply{}, err
	}
	return h.setupQueue(ctx, req, qc, 2, rating.DefaultModel)
}

func (h *handlers) setupModSkip(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	return h.setupQueue(ctx, req, qc, 2, rating.DefaultModel)
}

// setupQueue is step 4: the first queue, its team size and rating model
// (the default preselected), or the queue the server already has.
func (h *handlers) setupQueue(ctx context.Context, req Request, qc string, size int, model string) (Reply, error) {
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	text := tr.T("setup.queue_channel", "Channel", "<#"+qc+">") + "\n\n" + tr.T("setup.first_ask")
	var row []Button
	if len(qs) > 0 {
		text += "\n" + tr.T("setup.has_queue", "Queue", qs[0].Name, "Size", qs[0].TeamSize)
		row = append(row, Button{Label: tr.T("setup.use_queue", "Queue", qs[0].Name), Style: Success, CustomID: ID(actSetupUseQueue, qs[0].ID, qc)})
	}
	row = append(row, Button{Label: tr.T("setup.create_queue", "Size", size), Style: Primary,
		CustomID: ID(actSetupCreate, 0, qc, strconv.Itoa(size), model)})
	sizes := SelectMenu{CustomID: ID(actSetupSize, 0, qc, model), Placeholder: tr.T("setup.players_per_team")}
	for k := 1; k <= rating.MaxTeamSize; k++ {
		sizes.Options = append(sizes.Options, SelectOption{Label: fmt.Sprintf("%dv%d", k, k), Value: strconv.Itoa(k), Default: k == size})
	}
	models := SelectMenu{CustomID: ID(actSetupModel, 0, qc, strconv.Itoa(size)), Placeholder: tr.T("setup.rating_model")}
	for _, m := range rating.ModelNames() {
		d := ""
		if m == rating.DefaultModel {
			d = tr.T("setup.default")
		}
		models.Options = append(models.Options, SelectOption{Label: m, Value: m, Description: d, Default: m == model})
	}
	return setupStep(tr, 4, tr.T("setup.first_title"), text, [][]Button{row}, sizes, models), nil
}

// setupArgs reads the team size and model a step carries.
func setupArgs(size, model string) (int, string, error) {
	k, err := strconv.Atoi(size)
	if err != nil || k < 1 || k > rating.MaxTeamSize {
		return 0, "", ladder.Errorf(ladder.CodeInvalid, "team size must be 1 to %d", rating.MaxTeamSize)
	}
	for _, m := range rating.ModelNames() {
		if m == model {
			return k, m, nil
		}
	}
	return 0, "", ladder.Errorf(ladder.CodeInvalid, "unknown rating model %q", model)
}

func (h *handlers) setupSize(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	if len(req.Selected) != 1 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "pick one team size")
	}
	k, m, err := setupArgs(req.Selected[0], req.CustomID.Arg(1))
	if err != nil {
		return Reply{}, err
	}
	return h.setupQueue(ctx, req, qc, k, m)
}

func (h *handlers) setupModel(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	if len(req.Selected) != 1 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "pick one rating model")
	}
	k, m, err := setupArgs(req.CustomID.Arg(1), req.Selected[0])
	if err != nil {
		return Reply{}, err
	}
	return h.setupQueue(ctx, req, qc, k, m)
}

// setupCreate creates the queue, named after its team size ("2v2"); a
// queue of that name already there is used instead.
func (h *handlers) setupCreate(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	k, m, err := setupArgs(req.CustomID.Arg(1), req.CustomID.Arg(2))
	if err != nil {
		return Reply{}, err
	}
	name := fmt.Sprintf("%dv%d", k, k)
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	for _, q := range qs {
		if strings.EqualFold(q.Name, name) {
			return h.setupFinish(ctx, req, q, qc)
		}
	}
	if len(qs) == 1 {
		// A new server has the default queue nobody configured yet: it
		// becomes the queue asked for rather than stay beside it unused.
		fresh, err := h.freshDefault(ctx, req.GuildID, qs[0])
		if err != nil {
			return Reply{}, err
		}
		if fresh {
			q := qs[0]
			q.Name, q.TeamSize, q.Model, q.Params, q.ChannelID = name, k, m, nil, qc
			if q, err = h.Service.UpdateQueue(ctx, actor(req), q); err != nil {
				return Reply{}, err
			}
			return h.setupFinish(ctx, req, q, qc)
		}
	}
	q := ladder.NewQueue(req.GuildID, name, k)
	q.Model, q.ChannelID = m, qc
	q, err = h.Service.CreateQueue(ctx, actor(req), q)
	if err != nil {
		return Reply{}, err
	}
	return h.setupFinish(ctx, req, q, qc)
}

// freshDefault reports whether q is a new server's default queue as it
// was made: its default name, no channel, no panel, no rated match.
func (h *handlers) freshDefault(ctx context.Context, guildID string, q ladder.Queue) (bool, error) {
	if q.Name != ladder.DefaultQueueName || q.ChannelID != "" {
		return false, nil
	}
	if ch, err := h.Panels.PanelChannel(ctx, guildID, q.ID); err != nil || ch != "" {
		return false, err
	}
	recs, err := h.Service.ExportMatches(ctx, guildID, q.Name, 0)
	return len(recs) == 0, err
}

func (h *handlers) setupUseQueue(ctx context.Context, req Request) (Reply, error) {
	qc, err := carried(req)
	if err != nil {
		return Reply{}, err
	}
	qs, err := h.Service.Queues(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	for _, q := range qs {
		if q.ID == req.CustomID.ID {
			return h.setupFinish(ctx, req, q, qc)
		}
	}
	return Reply{}, ladder.Errorf(ladder.CodeNotFound, "that queue no longer exists; run /setup again")
}

// setupFinish posts the queue's panel (or moves it to the queue channel;
// one already there is kept and edited) and says what to try next.
func (h *handlers) setupFinish(ctx context.Context, req Request, q ladder.Queue, qc string) (Reply, error) {
	if err := h.setupReady(); err != nil {
		return Reply{}, err
	}
	if err := h.Panels.Place(ctx, req.GuildID, q.ID, qc); err != nil {
		return Reply{}, err
	}
	results, err := h.Panels.ResultsChannel(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	var b strings.Builder
	b.WriteString(tr.T("setup.ready", "Queue", q.Name, "Size", q.TeamSize, "Model", q.Model, "Channel", "<#"+qc+">") + "\n")
	if results != "" {
		b.WriteString(tr.T("setup.results_in", "Channel", "<#"+results+">") + "\n")
	}
	b.WriteString("\n" + tr.T("setup.try_next", "Join", tr.T("panel.join"), "Players", 2*q.TeamSize))
	return Reply{Ephemeral: true, Update: true,
		Embeds: []Embed{{Title: tr.T("setup.done"), Description: b.String(), Color: ColorSuccess}}}, nil
}
