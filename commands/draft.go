package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// actPick is the captains' select menu. Its custom ID carries the match
// and the number of picks made when it was shown, so it works after a
// restart and a stale menu (that pick already made) changes nothing.
const actPick = "pick"

func (h *handlers) draftComponents() []Component {
	return []Component{{Action: actPick, Handle: h.pickMenu}}
}

// DraftView is a formed match's message while its captains pick: both
// teams so far, the players left with their ratings, whose pick it is and
// until when, and the menu the captain picks from. Only the captain whose
// turn it is is pinged. The draft job posts it after a pick it made.
func DraftView(l *i18n.Lang, m ladder.Match, d ladder.Draft, queue string) Reply {
	turn := d.Turn()
	captain := d.Captain(turn)
	pool := d.Pool()
	var left strings.Builder
	opts := make([]SelectOption, 0, len(pool))
	for _, s := range pool {
		fmt.Fprintf(&left, "%s · %s\n", mention(s.UserID), l.Rating(s.Rating))
		opts = append(opts, SelectOption{Label: plainName(s.Name, s.UserID, nil) + " · " + l.Rating(s.Rating), Value: s.UserID})
	}
	e := Embed{
		Title:  l.T("draft.title", "ID", m.ID, "Queue", queue),
		Color:  ColorInfo,
		Fields: draftTeamFields(l, d),
		Footer: l.T("draft.footer"),
	}
	e.Fields = append(e.Fields, Field{Name: l.T("draft.left", "N", len(pool)), Value: left.String()})
	return Reply{
		Content:  l.T("draft.turn", "ID", m.ID, "Pick", d.Picks()+1, "Captain", mention(captain), "Team", turn, "Deadline", d.Deadline.Unix()),
		Mentions: []string{captain},
		Embeds:   []Embed{e},
		Menus: []SelectMenu{{
			CustomID:    ID(actPick, m.ID, strconv.Itoa(d.Picks())),
			Placeholder: l.T("draft.placeholder", "Team", turn),
			Options:     opts,
		}},
		Buttons: [][]Button{{{Label: l.T("button.cancel_vote"), Style: Secondary, CustomID: ID(actCancelVote, m.ID)}}},
	}
}

// draftTeamFields are the two teams of a draft so far, captain first,
// each player with the rating the captains see.
func draftTeamFields(l *i18n.Lang, d ladder.Draft) []Field {
	rating := map[string]float64{}
	for _, s := range d.Seats {
		rating[s.UserID] = s.Rating
	}
	fields := make([]Field, 0, 3)
	for t := 1; t <= 2; t++ {
		var b strings.Builder
		for i, u := range d.Team(t) {
			mark := ""
			if i == 0 {
				mark = " " + l.T("draft.captain")
			}
			fmt.Fprintf(&b, "%s · %s%s\n", mention(u), l.Rating(rating[u]), mark)
		}
		fields = append(fields, Field{Name: l.T("match.team", "N", t), Value: b.String(), Inline: true})
	}
	return fields
}

// draftWaitingFields replace the teams of a ready check in captains mode:
// the teams are not known until the captains pick.
func draftWaitingFields(l *i18n.Lang, d ladder.Draft) []Field {
	return []Field{{Name: l.T("draft.captains"), Value: l.T("draft.captains_value", "Captain1", mention(d.Captain(1)), "Captain2", mention(d.Captain(2)))}}
}

// DraftProgress is the view of a match after picks were made: the draft
// while players are left, else the match on with the drafted teams and
// their win chance.
func DraftProgress(l *i18n.Lang, res ladder.DraftResult, queue string) Reply {
	var r Reply
	if res.Draft.State == ladder.DraftDone {
		r = matchOnView(l, res.Match, queue)
		r.Content = l.T("draft.done", "ID", res.Match.ID, "Team1", mentions(res.Match.Teams[0]), "Team2", mentions(res.Match.Teams[1]))
		r.Mentions = res.Match.Players()
	} else {
		r = DraftView(l, res.Match, res.Draft, queue)
	}
	if res.TimedOut && len(res.Picked) > 0 {
		r.Content += "\n" + l.T("draft.timed_out", "Pick", res.Picked[0].Pick, "User", mention(res.Picked[0].UserID), "Team", res.Picked[0].Team)
	}
	return r
}

// TurnPing pings the captain whose turn a pick just passed to, since an
// edited announcement notifies nobody: a short message in the match's
// channel. ok is false when the turn stayed with the same captain (the
// middle of a 2-pick turn) or the draft is over.
func TurnPing(l *i18n.Lang, res ladder.DraftResult) (r Reply, ok bool) {
	d := res.Draft
	if d.State != ladder.DraftPicking || len(res.Picked) == 0 || res.Picked[len(res.Picked)-1].Team == d.Turn() {
		return Reply{}, false
	}
	captain := d.Captain(d.Turn())
	return Reply{Content: l.T("draft.ping", "Captain", mention(captain), "Team", d.Turn(), "ID", res.Match.ID, "Deadline", d.Deadline.Unix()),
		Mentions: []string{captain}}, true
}

// pickMenu answers a captain's choice: the announcement is updated in
// place with the pick, and becomes the match on when the last is made.
func (h *handlers) pickMenu(ctx context.Context, req Request) (Reply, error) {
	pick, err := strconv.Atoi(req.CustomID.Arg(0))
	if req.CustomID.ID == 0 || err != nil || pick < 0 || len(req.Selected) != 1 {
		return Reply{}, ladder.Errorf(ladder.CodeInvalid, "this menu is not valid; pick one player from the draft's menu")
	}
	res, err := h.Service.Pick(ctx, actor(req), req.GuildID, req.CustomID.ID, pick, req.Selected[0])
	if err != nil {
		return Reply{}, err
	}
	if res.AlreadyDone {
		if res.Draft.State == ladder.DraftDone {
			return Whisper(userLang(req).T("draft.over", "ID", res.Match.ID)), nil
		}
		return Whisper(userLang(req).T("draft.pick_made", "Pick", pick+1, "ID", res.Match.ID)), nil
	}
	l := h.langOf(ctx, req.GuildID)
	r := DraftProgress(l, res, h.queueName(ctx, req.GuildID, res.Match.QueueID))
	r.Update = true
	if res.Draft.State == ladder.DraftDone {
		r.Posts = append(r.Posts, h.mapPosts(ctx, res.Match, req)...)
		if ch, p, ok := DraftedPredictionPost(ctx, h.Community, h.Service, l, res.Match, h.Service.Now()); ok {
			r.Posts = append(r.Posts, Post{ChannelID: ch, Message: p})
		}
	}
	if ping, ok := TurnPing(l, res); ok {
		r.Posts = append(r.Posts, Post{ChannelID: matchChannel(res.Match, req), Message: ping})
	}
	return r, nil
}
