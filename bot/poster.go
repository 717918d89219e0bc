package bot

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/ladder"
)

// embedRows is how many standings fit an embed (Discord allows 25 fields);
// a longer table goes along as a CSV attachment.
const embedRows = 25

// PostStandings posts one queue's final table of a closed season to
// channelID (SPEC 4, 6): the top 25 in an embed, and the whole table as a
// CSV attachment when it is longer. It implements jobs.Poster.
func (b *Bot) PostStandings(ctx context.Context, channelID string, st ladder.SeasonStandings) error {
	msg := StandingsMessage(st)
	if _, err := b.session.ChannelMessageSendComplex(channelID, messageSend(msg), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("bot: post standings: %w", err)
	}
	return nil
}

// PostTop posts the weekly top of a queue's leaderboard to channelID
// (SPEC 6). It implements jobs.Poster.
func (b *Bot) PostTop(ctx context.Context, channelID string, page ladder.LeaderboardPage) error {
	if _, err := b.session.ChannelMessageSendComplex(channelID, messageSend(TopMessage(page)), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("bot: post weekly top: %w", err)
	}
	return nil
}

// TopMessage renders a leaderboard page as the weekly top: rank, name,
// R ± RD, division and W-L-D. Nobody is pinged.
func TopMessage(page ladder.LeaderboardPage) commands.Reply {
	e := commands.Embed{
		Title: fmt.Sprintf("Weekly top %d · %s · Season %d", len(page.Standings), page.Queue.Name, page.Season.Number),
		Color: commands.ColorInfo,
	}
	var b strings.Builder
	for _, s := range page.Standings {
		name := s.Name
		if name == "" {
			name = "<@" + s.UserID + ">"
		}
		fmt.Fprintf(&b, "**%d.** %s · %.0f ± %.0f · %s · %d-%d-%d\n", s.Rank, name, s.Rating, s.RD, s.Division, s.Wins, s.Losses, s.Draws)
	}
	e.Description = b.String()
	return commands.Reply{Embeds: []commands.Embed{e}, Mentions: []string{}}
}

// Notify posts text to channelID, pinging userIDs only. It implements jobs.Poster.
func (b *Bot) Notify(ctx context.Context, channelID string, userIDs []string, text string) error {
	msg := commands.Reply{Content: text, Mentions: userIDs}
	if _, err := b.session.ChannelMessageSendComplex(channelID, messageSend(msg), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("bot: notify: %w", err)
	}
	return nil
}

// StandingsMessage renders a season's final table: an embed of the top 25
// (rank, badge, name, R ± RD, division, W-L-D) and, past 25 rows, the full
// table as season-N-QUEUE.csv. Nobody is pinged.
func StandingsMessage(st ladder.SeasonStandings) commands.Reply {
	e := commands.Embed{
		Title: fmt.Sprintf("Season %d final standings · %s", st.Season.Number, st.Queue.Name),
		Color: commands.ColorInfo,
	}
	switch n := len(st.Results); n {
	case 0:
		e.Description = "Nobody was ranked this season."
	case 1:
		e.Description = "1 ranked player."
	default:
		e.Description = fmt.Sprintf("%d ranked players.", n)
	}
	for _, r := range st.Results[:min(len(st.Results), embedRows)] {
		e.Fields = append(e.Fields, commands.Field{
			Name:  fmt.Sprintf("#%d %s%s", r.Rank, badgeIcon(r.Badge), displayName(r)),
			Value: fmt.Sprintf("%.0f ± %.0f · %s · %d-%d-%d", r.Rating, r.RD, r.Division, r.Wins, r.Losses, r.Draws),
		})
	}
	msg := commands.Reply{Embeds: []commands.Embed{e}, Mentions: []string{}}
	if len(st.Results) > embedRows {
		msg.Embeds[0].Footer = fmt.Sprintf("Top %d shown; the full table of %d is attached.", embedRows, len(st.Results))
		msg.Files = []commands.File{{
			Name:        fmt.Sprintf("season-%d-%s.csv", st.Season.Number, fileSafe(st.Queue.Name)),
			ContentType: "text/csv",
			Data:        standingsCSV(st.Results),
		}}
	}
	return msg
}

func badgeIcon(badge string) string {
	switch badge {
	case "top3":
		return "🏆 "
	case "top30":
		return "⭐ "
	case "top100":
		return "🎖️ "
	}
	return ""
}

func displayName(r ladder.SeasonResult) string {
	if r.Name != "" {
		return r.Name
	}
	return "<@" + r.UserID + ">"
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// standingsCSV writes the whole table with unrounded ratings.
func standingsCSV(rs []ladder.SeasonResult) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"rank", "user_id", "name", "rating", "rd", "division", "badge", "wins", "losses", "draws"})
	for _, r := range rs {
		w.Write([]string{strconv.Itoa(r.Rank), r.UserID, r.Name,
			strconv.FormatFloat(r.Rating, 'g', -1, 64), strconv.FormatFloat(r.RD, 'g', -1, 64),
			r.Division, r.Badge, strconv.Itoa(r.Wins), strconv.Itoa(r.Losses), strconv.Itoa(r.Draws)})
	}
	w.Flush()
	return buf.Bytes()
}
