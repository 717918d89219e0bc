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
func DraftView(m ladder.Match, d ladder.Draft, queue string) Reply {
	turn := d.Turn()
	captain := d.Captain(turn)
	pool := d.Pool()
	var left strings.Builder
	opts := make([]SelectOption, 0, len(pool))
	for _, s := range pool {
		fmt.Fprintf(&left, "%s · %.0f\n", mention(s.UserID), s.Rating)
		opts = append(opts, SelectOption{Label: fmt.Sprintf("%s · %.0f", nameOr(s.Name, s.UserID), s.Rating), Value: s.UserID})
	}
	e := Embed{
		Title:  fmt.Sprintf("Match #%d · %s · captains draft", m.ID, queue),
		Color:  ColorInfo,
		Fields: draftTeamFields(d),
		Footer: "Pick order 1-2-2-1…: the lower-rated captain (team 2) picks first. A pick not made in time is the best-rated player left.",
	}
	e.Fields = append(e.Fields, Field{Name: fmt.Sprintf("Left to pick (%d)", len(pool)), Value: left.String()})
	return Reply{
		Content: fmt.Sprintf("**Match #%d** · captains draft, pick %d. %s, pick a player for team %d <t:%d:R>, or the best-rated player left is picked for you.",
			m.ID, d.Picks()+1, mention(captain), turn, d.Deadline.Unix()),
		Mentions: []string{captain},
		Embeds:   []Embed{e},
		Menus: []SelectMenu{{
			CustomID:    ID(actPick, m.ID, strconv.Itoa(d.Picks())),
			Placeholder: fmt.Sprintf("Team %d captain: pick a player", turn),
			Options:     opts,
		}},
		Buttons: [][]Button{{{Label: "Vote to cancel", Style: Secondary, CustomID: ID(actCancelVote, m.ID)}}},
	}
}

// draftTeamFields are the two teams of a draft so far, captain first,
// each player with the rating the captains see.
func draftTeamFields(d ladder.Draft) []Field {
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
				mark = " (captain)"
			}
			fmt.Fprintf(&b, "%s · %.0f%s\n", mention(u), rating[u], mark)
		}
		fields = append(fields, Field{Name: fmt.Sprintf("Team %d", t), Value: b.String(), Inline: true})
	}
	return fields
}

// draftWaitingFields replace the teams of a ready check in captains mode:
// the teams are not known until the captains pick.
func draftWaitingFields(d ladder.Draft) []Field {
	return []Field{{Name: "Captains", Value: fmt.Sprintf("Team 1: %s\nTeam 2: %s\nThey pick the teams once everyone is ready.",
		mention(d.Captain(1)), mention(d.Captain(2)))}}
}

// DraftProgress is the view of a match after picks were made: the draft
// while players are left, else the match on with the drafted teams and
// their win chance.
func DraftProgress(res ladder.DraftResult, queue string) Reply {
	var r Reply
	if res.Draft.State == ladder.DraftDone {
		r = matchOnView(i18n.English(), res.Match, queue)
		r.Content = fmt.Sprintf("**Match #%d** is on: the captains picked the teams. %s vs %s", res.Match.ID,
			mentions(res.Match.Teams[0]), mentions(res.Match.Teams[1]))
		r.Mentions = res.Match.Players()
	} else {
		r = DraftView(res.Match, res.Draft, queue)
	}
	if res.TimedOut && len(res.Picked) > 0 {
		r.Content += fmt.Sprintf("\nTime ran out for pick %d: %s was picked for team %d, the best-rated player left.",
			res.Picked[0].Pick, mention(res.Picked[0].UserID), res.Picked[0].Team)
	}
	return r
}

// TurnPing pings the captain whose turn a pick just passed to, since an
// edited announcement notifies nobody: a short message in the match's
// channel. ok is false when the turn stayed with the same captain (the
// middle of a 2-pick turn) or the draft is over.
func TurnPing(res ladder.DraftResult) (r Reply, ok bool) {
	d := res.Draft
	if d.State != ladder.DraftPicking || len(res.Picked) == 0 || res.Picked[len(res.Picked)-1].Team == d.Turn() {
		return Reply{}, false
	}
	captain := d.Captain(d.Turn())
	return Reply{Content: fmt.Sprintf("%s, your pick for team %d in **match #%d**, <t:%d:R>: use the menu on the match's message.",
		mention(captain), d.Turn(), res.Match.ID, d.Deadline.Unix()), Mentions: []string{captain}}, true
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
			return Whisper(fmt.Sprintf("The draft of match #%d is over: the teams are set (already done).", res.Match.ID)), nil
		}
		return Whisper(fmt.Sprintf("Pick %d of match #%d was already made (already done); use the menu of the current pick.", pick+1, res.Match.ID)), nil
	}
	r := DraftProgress(res, h.queueName(ctx, req.GuildID, res.Match.QueueID))
	r.Update = true
	if res.Draft.State == ladder.DraftDone {
		r.Posts = append(r.Posts, h.mapPosts(ctx, res.Match, req)...)
	}
	if ping, ok := TurnPing(res); ok {
		r.Posts = append(r.Posts, Post{ChannelID: matchChannel(res.Match, req), Message: ping})
	}
	return r, nil
}
