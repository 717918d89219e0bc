package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// actModCorrect applies a previewed correction: "modfix:MATCH:WINNER:SEEN",
// SEEN the match's state and result the preview was computed from
// (ladder.Seen), so that an Apply pressed after another moderator changed
// the match is refused. Buttons without SEEN (posted by an earlier
// release) apply as before.
const actModCorrect = "modfix"

func winnerOpt() Option {
	return Option{Type: OptInteger, Name: "winner", Description: "the result", Required: true, Choices: []Choice{
		{Name: "team 1 won", Value: int64(1)}, {Name: "team 2 won", Value: int64(2)}, {Name: "draw", Value: int64(ladder.Draw)},
	}}
}

func reasonOpt() Option {
	return Option{Type: OptString, Name: "reason", Description: "why (kept in the audit log)", MaxLength: 1000}
}

func (h *handlers) modCommand() Command {
	zero, hundredK, thousand := 0.0, 100000.0, 1000.0
	hour, year := 1.0, 24.0*365
	return Command{
		Name:        "mod",
		Description: "Moderator tools: results, ratings, queue bans, disputes, API tokens",
		Access:      Moderators,
		Ephemeral:   true,
		Options: []Option{
			sub("resolve", "Settle a disputed (or any) match", matchOpt(true), winnerOpt(), reasonOpt()),
			sub("void", "Void a match: it is never rated", matchOpt(true), reasonOpt()),
			sub("correct", "Change a match's result; shows whose rating changes first", matchOpt(true), winnerOpt()),
			seriesModGroup(),
			sub("disputes", "Matches waiting for a moderator"),
			sub("flags", "A player's behaviour score and the flags against them", opt(OptUser, "player", "the player", true)),
			integritySub(),
			group("rating", "Set or reset a player's rating",
				sub("set", "Set a player's rating and deviation",
					opt(OptUser, "player", "the player", true),
					Option{Type: OptNumber, Name: "rating", Description: "new rating", Required: true, Min: &zero, Max: &hundredK},
					Option{Type: OptNumber, Name: "rd", Description: "new deviation", Required: true, Min: &zero, Max: &thousand},
					queueOpt(), reasonOpt()),
				sub("reset", "Put a player back to a new player's rating", opt(OptUser, "player", "the player", true), queueOpt(), reasonOpt())),
			group("queue", "Keep a player out of the queues",
				sub("ban", "Ban a player from the queues",
					opt(OptUser, "player", "the player", true),
					Option{Type: OptInteger, Name: "hours", Description: "for how long (default: until unbanned)", Min: &hour, Max: &year},
					reasonOpt()),
				sub("unban", "Lift a queue ban", opt(OptUser, "player", "the player", true))),
			sub("sub", "Put a substitute in a player's seat of an open match", matchOpt(true),
				opt(OptUser, "out", "the player leaving", true), opt(OptUser, "in", "the player taking the seat", true)),
			group("cooldown", "Queue cooldowns given for missing ready checks",
				sub("clear", "Clear a player's cooldown", opt(OptUser, "player", "the player", true))),
			group("season", "Close the season and open the next",
				sub("end", "End the current season: freeze and post its standings, open the next"),
				sub("start", "Start a new season now (ends the current one first)")),
			group("tune", "Self-tuning of a queue's model constants",
				sub("preview", "Show the constants its log suggests and the adoption rule's verdict", queueOpt()),
				sub("apply", "Adopt them, if the adoption rule agrees", queueOpt())),
			group("token", "API tokens for game servers",
				sub("create", "Create a token (shown once)", Option{Type: OptString, Name: "name", Description: "a name for it", Required: true, MaxLength: 64}),
				sub("list", "List tokens"),
				sub("revoke", "Revoke a token", Option{Type: OptString, Name: "name", Description: "its name", Required: true, MaxLength: 64})),
		},
		Handle:       h.mod,
		Autocomplete: h.autocomplete,
	}
}

func (h *handlers) modComponents() []Component {
	return []Component{{Action: actModCorrect, Access: Moderators, Handle: h.modCorrectConfirm}}
}

func (h *handlers) mod(ctx context.Context, req Request) (Reply, error) {
	if _, err := h.ensure(ctx, req); err != nil {
		return Reply{}, err
	}
	if player, _ := req.String("player"); req.Has("player") && !snowflake(player) {
		// A user option is always an ID; anything else is a forged request.
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "player must be a Discord user")
	}
	switch req.Command {
	case "mod resolve", "mod void", "mod correct":
		return h.modMatch(ctx, req)
	case "mod disputes":
		return h.modDisputes(ctx, req)
	case "mod series game", "mod series end":
		return h.modSeries(ctx, req)
	case "mod flags":
		return h.modFlags(ctx, req)
	case "mod integrity":
		return h.modIntegrity(ctx, req)
	case "mod rating set", "mod rating reset":
		return h.modRating(ctx, req)
	case "mod queue ban", "mod queue unban":
		return h.modQueue(ctx, req)
	case "mod sub":
		return h.modSub(ctx, req)
	case "mod cooldown clear":
		return h.modCooldown(ctx, req)
	case "mod season end", "mod season start":
		return h.modSeason(ctx, req)
	case "mod tune preview", "mod tune apply":
		return h.modTune(ctx, req)
	case "mod token create", "mod token list", "mod token revoke":
		return h.modToken(ctx, req)
	}
	return Reply{}, unknownSub(req)
}

// modMatch resolves or voids a match, or previews a correction with an
// Apply button (docs/spec.md 5: the moderator sees whose rating changes first).
func (h *handlers) modMatch(ctx context.Context, req Request) (Reply, error) {
	a := actor(req)
	tr := userLang(req)
	id, _ := req.Int("match")
	winner, _ := req.Int("winner")
	reason, _ := req.String("reason")
	switch req.Command {
	case "mod correct":
		c, err := h.Service.PreviewCorrection(ctx, a, req.GuildID, id, int(winner))
		if err != nil {
			return Reply{}, err
		}
		if c.AlreadyDone {
			return Whisper(tr.T("mod.same_result", "ID", id)), nil
		}
		return Reply{
			Ephemeral: true,
			Content:   tr.T("mod.preview", "ID", id, "Result", winnerIn(tr, int(winner))) + "\n" + correctionLines(tr, c),
			Buttons: [][]Button{{{Label: tr.T("mod.apply_correction"), Style: Danger,
				CustomID: ID(actModCorrect, id, strconv.Itoa(int(winner)), c.Seen.String())}}},
		}, nil
	case "mod void":
		c, err := h.Service.Void(ctx, a, req.GuildID, id, reason)
		if err != nil {
			return Reply{}, err
		}
		return correctionReply(tr, h.langOf(ctx, req.GuildID), c, req), nil
	default:
		c, err := h.Service.Resolve(ctx, a, req.GuildID, id, int(winner), reason)
		if err != nil {
			return Reply{}, err
		}
		return correctionReply(tr, h.langOf(ctx, req.GuildID), c, req), nil
	}
}

// modRating sets or resets a player's rating in a queue's current season.
func (h *handlers) modRating(ctx context.Context, req Request) (Reply, error) {
	player, _ := req.String("player")
	queue, _ := req.String("queue")
	reason, _ := req.String("reason")
	var r ladder.Replayed
	var err error
	if req.Command == "mod rating set" {
		rt, okR := req.Float("rating")
		rd, okD := req.Float("rd")
		if !okR || !okD {
			return Reply{}, ladder.Errorf(ladder.CodeInvalid, "give the new rating and rd as numbers")
		}
		r, err = h.Service.SetRating(ctx, actor(req), req.GuildID, queue, player, rt, rd, reason)
	} else {
		r, err = h.Service.ResetRating(ctx, actor(req), req.GuildID, queue, player, reason)
	}
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	return Whisper(fmt.Sprintf("%s: %s → %s.", mention(player), ratingIn(tr, r.Before.Rating, r.Before.RD), ratingIn(tr, r.After.Rating, r.After.RD))), nil
}

// modQueue bans a player from the queues (for some hours or until
// unbanned) or lifts the ban.
func (h *handlers) modQueue(ctx context.Context, req Request) (Reply, error) {
	player, _ := req.String("player")
	tr := userLang(req)
	if req.Command == "mod queue unban" {
		if err := h.Service.UnbanFromQueue(ctx, actor(req), req.GuildID, player); err != nil {
			return Reply{}, err
		}
		return Whisper(tr.T("mod.unbanned", "Player", mention(player))), nil
	}
	reason, _ := req.String("reason")
	hours, ok := req.Int("hours")
	if req.Has("hours") && (!ok || hours < 1 || hours > 24*365) {
		// Also keeps hours·time.Hour from overflowing into a past date.
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "hours must be from 1 to %d", 24*365)
	}
	var until time.Time
	if hours > 0 {
		until = time.Now().Add(time.Duration(hours) * time.Hour)
	}
	if err := h.Service.BanFromQueue(ctx, actor(req), req.GuildID, player, until, reason); err != nil {
		return Reply{}, err
	}
	if until.IsZero() {
		return Whisper(tr.T("mod.banned", "Player", mention(player))), nil
	}
	return Whisper(tr.T("mod.banned_until", "Player", mention(player), "Until", until.Unix())), nil
}

// modToken creates (showing the secret once), lists or revokes API tokens.
func (h *handlers) modToken(ctx context.Context, req Request) (Reply, error) {
	name, _ := req.String("name")
	tr := userLang(req)
	switch req.Command {
	case "mod token create":
		secret, _, err := h.Service.CreateToken(ctx, actor(req), req.GuildID, name)
		if err != nil {
			return Reply{}, err
		}
		return Whisper(tr.T("mod.token_created", "Name", name) + "\n```\n" + secret + "\n```"), nil
	case "mod token revoke":
		already, err := h.Service.RevokeToken(ctx, actor(req), req.GuildID, name)
		if err != nil {
			return Reply{}, err
		}
		if already {
			return Whisper(tr.T("mod.token_already_revoked", "Name", name)), nil
		}
		return Whisper(tr.T("mod.token_revoked", "Name", name)), nil
	}
	ts, err := h.Service.ListTokens(ctx, req.GuildID)
	if err != nil {
		return Reply{}, err
	}
	// Live tokens first, then the revoked ones newest first: revoked
	// tokens stay listed for the record, and a server that has rotated
	// its tokens for long would otherwise see its live ones pushed past
	// Discord's 2,000 characters a message. The list stops within them
	// and counts the rest.
	slices.SortStableFunc(ts, func(a, b ladder.Token) int {
		switch {
		case a.RevokedAt.IsZero() != b.RevokedAt.IsZero():
			if a.RevokedAt.IsZero() {
				return -1
			}
			return 1
		case a.RevokedAt.IsZero():
			return 0
		}
		if c := b.RevokedAt.Compare(a.RevokedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	var b strings.Builder
	for i, t := range ts {
		state := tr.T("mod.token_live")
		if !t.RevokedAt.IsZero() {
			state = tr.T("mod.token_revoked_on", "Date", tr.Date(t.RevokedAt))
		}
		line := tr.T("mod.token_line", "Name", t.Name, "Date", tr.Date(t.CreatedAt), "By", mention(t.CreatedBy), "State", state) + "\n"
		if b.Len()+len(line) > listedContent {
			b.WriteString(tr.T("mod.more", "Count", tr.Int(len(ts)-i)))
			break
		}
		b.WriteString(line)
	}
	if len(ts) == 0 {
		b.WriteString(tr.T("mod.no_tokens"))
	}
	return Whisper(b.String()), nil
}

func (h *handlers) modCorrectConfirm(ctx context.Context, req Request) (Reply, error) {
	winner, err := strconv.Atoi(req.CustomID.Arg(0))
	if err != nil || req.CustomID.ID == 0 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this button is not valid; run /mod correct again")
	}
	var c ladder.Correction
	if seen := req.CustomID.Arg(1); seen != "" {
		var s ladder.Seen
		if s, err = ladder.ParseSeen(seen); err == nil {
			c, err = h.Service.CorrectSeen(ctx, actor(req), req.GuildID, req.CustomID.ID, winner, reasonCorrectPreview, s)
		}
	} else {
		c, err = h.Service.Correct(ctx, actor(req), req.GuildID, req.CustomID.ID, winner, reasonCorrectPreview)
	}
	if err != nil {
		return Reply{}, err
	}
	r := correctionReply(userLang(req), h.langOf(ctx, req.GuildID), c, req)
	if !c.AlreadyDone {
		r.Update = true
	}
	return r, nil
}

// correctionReply tells the moderator what a resolve, void or correction
// did and posts the outcome in the match's channel for the players.
// The moderator reads it in tr, the channel in l.
func correctionReply(tr, l *i18n.Lang, c ladder.Correction, req Request) Reply {
	m := c.Match
	if c.AlreadyDone {
		return Whisper(tr.T("mod.already_state", "ID", m.ID, "State", stateIn(tr, m.State)))
	}
	what := func(l *i18n.Lang) string {
		if m.State.Rated() {
			return l.T("mod.now_state_result", "ID", m.ID, "State", stateIn(l, m.State), "Result", winnerIn(l, m.Winner))
		}
		return l.T("mod.now_state", "ID", m.ID, "State", stateIn(l, m.State))
	}
	text := what(tr) + ".\n" + correctionLines(tr, c)
	post := Reply{Content: l.T("mod.by", "What", what(l), "By", mention(req.UserID)) + "\n" + correctionLines(l, c), Mentions: m.Players()}
	return Reply{Ephemeral: true, Content: text, Posts: []Post{{ChannelID: matchChannel(m, req), Message: post}}}
}

// correctionLines lists the rating changes of a correction and, for a
// match of a closed season, the standings frozen again and the changes
// carried into the seasons after it.
func correctionLines(tr *i18n.Lang, c ladder.Correction) string {
	text := replayedLines(tr, c.Changed)
	if len(c.Refrozen) == 0 {
		return text
	}
	nums := make([]string, len(c.Refrozen))
	for i, n := range c.Refrozen {
		nums[i] = strconv.Itoa(n)
	}
	text += tr.T("mod.refrozen", "Seasons", strings.Join(nums, ", ")) + "\n"
	if len(c.Carried) > 0 {
		text += tr.T("mod.carried") + "\n" + replayedLines(tr, c.Carried)
	}
	return text
}

// replayedLines lists whose displayed rating a change moves and by how
// much: the lines that fit replayedChars, the rest counted, so that a
// correction's changes and the changes it carries into later seasons fit
// one message's 2,000 characters with the lines around them.
func replayedLines(tr *i18n.Lang, rs []ladder.Replayed) string {
	if len(rs) == 0 {
		return tr.T("mod.no_changes")
	}
	lines := make([]string, len(rs))
	for i, r := range rs {
		lines[i] = fmt.Sprintf("%s: %s → %s (%s)", mention(r.UserID), tr.Rating(r.Before.Rating), tr.Rating(r.After.Rating), tr.Signed(r.After.Rating-r.Before.Rating))
	}
	return fitLines(tr, lines, replayedChars) + "\n"
}

func (h *handlers) modDisputes(ctx context.Context, req Request) (Reply, error) {
	ms, err := h.Service.Matches(ctx, ladder.MatchFilter{GuildID: req.GuildID, States: []ladder.MatchState{ladder.StateDisputed}, Limit: 100})
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	r := Reply{Ephemeral: true}
	// The series games' list takes the room the matches' list leaves
	// within Discord's 6,000 characters over a message's embeds.
	room := embedTotal
	if len(ms) > 0 {
		// One line a dispute: its reason on one line and cut at
		// listedReason characters (/match show shows it whole), its
		// evidence link whole; the list stops within Discord's 4,096
		// characters a description and counts the disputes left out.
		var b strings.Builder
		for i, m := range ms {
			reason := clipText(strings.Join(strings.Fields(ReasonText(tr, m.DisputeReason, m.DisputeReasonCode, mention)), " "), listedReason)
			line := tr.T("mod.dispute_line", "ID", m.ID, "Team1", mentions(m.Teams[0]), "Team2", mentions(m.Teams[1]), "By", mention(m.DisputedBy), "Reason", reason)
			if m.Evidence != "" {
				line += " · " + m.Evidence
			}
			line += "\n"
			if b.Len()+len(line) > listedChars {
				b.WriteString(tr.T("mod.disputes_more", "Count", tr.Int(len(ms)-i)))
				break
			}
			b.WriteString(line)
		}
		e := Embed{Title: tr.T("mod.disputes_title"), Description: b.String(), Color: ColorWarn, Footer: tr.T("mod.disputes_footer")}
		r.Embeds = append(r.Embeds, e)
		room -= len(e.Title) + len(e.Description) + len(e.Footer)
	}
	games, err := h.seriesDisputes(ctx, req, room)
	if err != nil {
		return Reply{}, err
	}
	if games != nil {
		r.Embeds = append(r.Embeds, *games)
	}
	if len(r.Embeds) == 0 {
		return Whisper(tr.T("mod.no_disputes")), nil
	}
	return r, nil
}

// seriesDisputes is the embed of a guild's disputed series games, nil
// when none, within room characters (counted in bytes, at least the
// characters Discord counts) and Discord's 4,096 a description.
func (h *handlers) seriesDisputes(ctx context.Context, req Request, room int) (*Embed, error) {
	if h.Formats == nil {
		return nil, nil
	}
	gs, err := h.Formats.Disputes(ctx, req.GuildID, 100)
	if err != nil || len(gs) == 0 {
		return nil, err
	}
	l := userLang(req)
	e := Embed{Title: l.T("series_maps.disputes_title"), Color: ColorWarn, Footer: l.T("series_maps.disputes_footer")}
	// Keep room for the title, the footer and the line counting the rest.
	budget := min(listedChars, room-len(e.Title)-len(e.Footer)-len(l.T("mod.disputes_more", "Count", l.Int(len(gs)))))
	var b strings.Builder
	for i, g := range gs {
		m, err := h.Service.Match(ctx, req.GuildID, g.MatchID)
		if err != nil {
			return nil, err
		}
		line := l.T("series_maps.disputes_line", "ID", g.MatchID, "Game", g.Game, "Team1", mentions(m.Teams[0]), "Team2", mentions(m.Teams[1]),
			"By", mention(g.DisputedBy), "Reason", clipText(strings.Join(strings.Fields(g.DisputeReason), " "), listedReason)) + "\n"
		if b.Len()+len(line) > budget {
			b.WriteString(l.T("mod.disputes_more", "Count", l.Int(len(gs)-i)))
			break
		}
		b.WriteString(line)
	}
	e.Description = b.String()
	return &e, nil
}

func (h *handlers) modSeason(ctx context.Context, req Request) (Reply, error) {
	g, err := h.ensure(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	ro, err := h.Service.EndSeason(ctx, actor(req), req.GuildID, 0)
	if err != nil {
		return Reply{}, err
	}
	tr := userLang(req)
	if ro.AlreadyDone {
		return Whisper(tr.T("mod.season_already", "Season", ro.Ended.Number)), nil
	}
	ch := g.AnnounceChannelID
	if ch == "" {
		ch = req.ChannelID
	}
	// The tables as the close froze them, from its own result: a read
	// after the close could fail, and the season job leaves a moderator's
	// close to post its tables.
	sts := make([]ladder.SeasonStandings, 0, len(ro.Queues))
	for _, q := range ro.Queues {
		sts = append(sts, ladder.SeasonStandings{GuildID: req.GuildID, Season: ro.Ended, Queue: q, Results: ro.Standings[q.ID]})
	}
	return Reply{Ephemeral: true, Content: tr.T("mod.season_ended", "Ended", ro.Ended.Number, "Started", ro.Started.Number, "Channel", "<#"+ch+">"),
		Posts: seasonPosts(guildLang(g, req), ch, ro, sts)}, nil
}

// seasonPosts are the posts of a season a moderator closed: the final
// table of each queue as the season job posts it (FinalStandings: the top
// 25 and, past them, the whole table as a CSV file), one message a queue
// so that no server's queues pass Discord's 10 embeds or 6,000 characters
// a message, the first saying that the season is over.
func seasonPosts(l *i18n.Lang, channelID string, ro ladder.SeasonRollover, sts []ladder.SeasonStandings) []Post {
	over := l.T("post.season_over", "Ended", ro.Ended.Number, "Started", ro.Started.Number)
	if len(sts) == 0 {
		return []Post{{ChannelID: channelID, Message: Reply{Content: over, Mentions: []string{}}}}
	}
	posts := make([]Post, 0, len(sts))
	for i, st := range sts {
		m := FinalStandings(l, st)
		if i == 0 {
			m.Content = over
		}
		posts = append(posts, Post{ChannelID: channelID, Message: m})
	}
	return posts
}

// snowflake reports whether s is a Discord ID (ladder.IsSnowflake).
func snowflake(s string) bool { return ladder.IsSnowflake(s) }
