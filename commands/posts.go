package commands

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// This file renders the messages posted to a channel outside any
// interaction, by the scheduled jobs. They live here, beside the replies
// the handlers return, so every Discord text of the bot is written in one
// package and the poster only has to deliver a rendered Reply.

// standingsEmbedRows is how many standings fit an embed (Discord allows 25
// fields); a longer table goes along as a CSV attachment.
const standingsEmbedRows = 25

// Announcement is the message announcing a formed match — players
// mentioned, teams, quality, win probability and the report buttons — the
// same one /queue join posts, for the matches the scheduled matchmaking
// pass forms, in the guild's language l.
func Announcement(l *i18n.Lang, f ladder.FormedMatch) Reply { return announce(l, f) }

// FinalStandings renders one queue's final table of a closed season (docs/spec.md
// 4, 6): an embed of the top 25 (rank, badge, name, R ± RD, division,
// W-L-D) and, past 25 rows, the full table as season-N-QUEUE.csv. Nobody
// is pinged: a table of every ranked player must not ping them all. It is
// in the guild's language l; the CSV keeps its English column names.
func FinalStandings(l *i18n.Lang, st ladder.SeasonStandings) Reply {
	e := Embed{
		Title: l.T("post.standings_title", "Season", st.Season.Number, "Queue", st.Queue.Name),
		Color: ColorInfo,
	}
	if n := len(st.Results); n == 0 {
		e.Description = l.T("post.nobody_ranked")
	} else {
		e.Description = l.N("post.ranked_players", n)
	}
	for _, r := range st.Results[:min(len(st.Results), standingsEmbedRows)] {
		// A field's name shows a mention as raw text: a player without a
		// name is mentioned in the value.
		f := Field{
			Name:  strings.TrimSpace(fmt.Sprintf("#%d %s%s", r.Rank, badgeIcon(r.Badge), r.Name)),
			Value: fmt.Sprintf("%s · %s · %d-%d-%d", ratingIn(l, r.Rating, r.RD), r.Division, r.Wins, r.Losses, r.Draws),
		}
		if r.Name == "" {
			f.Value = mention(r.UserID) + " · " + f.Value
		}
		e.Fields = append(e.Fields, f)
	}
	msg := Reply{Embeds: []Embed{e}, Mentions: []string{}}
	if len(st.Results) > standingsEmbedRows {
		msg.Embeds[0].Footer = l.T("post.standings_attached", "Shown", standingsEmbedRows, "Total", l.Int(len(st.Results)))
		msg.Files = []File{{
			Name:        fmt.Sprintf("season-%d-%s.csv", st.Season.Number, fileSafe(st.Queue.Name)),
			ContentType: "text/csv",
			Data:        standingsCSV(st.Results),
		}}
	}
	return msg
}

// WeeklyTop renders a leaderboard page as the weekly top (docs/spec.md 6): rank,
// name, R ± RD, division and W-L-D, in the guild's language l. Nobody is
// pinged.
func WeeklyTop(l *i18n.Lang, page ladder.LeaderboardPage) Reply {
	e := Embed{
		Title: l.T("post.weekly_title", "N", len(page.Standings), "Queue", page.Queue.Name, "Season", page.Season.Number),
		Color: ColorInfo,
	}
	var b strings.Builder
	for _, s := range page.Standings {
		fmt.Fprintf(&b, "**%d.** %s · %s · %s · %d-%d-%d\n", s.Rank, nameOr(s.Name, s.UserID), ratingIn(l, s.Rating, s.RD), s.Division, s.Wins, s.Losses, s.Draws)
	}
	e.Description = b.String()
	return Reply{Embeds: []Embed{e}, Mentions: []string{}}
}

// AutoConfirmed tells a match's players that its report confirmed itself
// at the deadline because nobody answered it (docs/spec.md 5), pinging them only.
func AutoConfirmed(l *i18n.Lang, m ladder.Match) Reply {
	players := append(append([]string{}, m.Teams[0]...), m.Teams[1]...)
	text := strings.TrimSpace(l.T("auto.confirmed", "ID", m.ID, "Outcome", autoOutcome(l, m.Winner)))
	return Reply{Content: text, Mentions: players}
}

// autoOutcome is the last sentence of AutoConfirmed.
func autoOutcome(l *i18n.Lang, winner int) string {
	switch winner {
	case 1, 2:
		return l.T("auto.team_won", "N", winner)
	case ladder.Draw:
		return l.T("auto.draw")
	}
	return ""
}

// QueueExpired tells a ticket's players, pinging them only, that they left
// the queue after its idle timeout (docs/spec.md 3) and how to queue again.
func QueueExpired(l *i18n.Lang, t ladder.Ticket) Reply {
	waited := t.ExpiresAt.Sub(t.JoinedAt).Round(time.Minute)
	text := l.T("queue.expired", "Players", mentions(t.UserIDs), "Wait", l.Duration(waited))
	return Reply{Content: text, Mentions: t.UserIDs}
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

// nameOr is a player's stored name, or a mention (which Discord shows as
// the name without pinging, since the posts allow no mentions) when the
// name is not known.
// nameOr is how text Discord renders (a description, a field's value,
// content) names a player: the ladder's name for them with its markdown
// escaped, so that it shows as they typed it, else a mention.
func nameOr(name, userID string) string {
	if name != "" {
		return markdownEscaper.Replace(name)
	}
	return mention(userID)
}

// plainName is how text Discord shows as it is (a title, a footer, a
// field's name, a select option's label), where a mention would show as
// raw "<@…>", names a player: the ladder's name for them, else the
// display name Discord resolved for the command (resolved may be nil),
// else the ID.
func plainName(name, userID string, resolved map[string]string) string {
	if name != "" {
		return name
	}
	if n := resolved[userID]; n != "" {
		return n
	}
	return strings.TrimPrefix(userID, "web:")
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// standingsCSV writes the whole table with unrounded ratings. It is a
// file for people to open in a spreadsheet, so its text cells (a name is
// whatever a player calls themselves) are defused by CSVSafe.
func standingsCSV(rs []ladder.SeasonResult) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"rank", "user_id", "name", "rating", "rd", "division", "badge", "wins", "losses", "draws"})
	for _, r := range rs {
		w.Write([]string{strconv.Itoa(r.Rank), CSVSafe(r.UserID), CSVSafe(r.Name),
			strconv.FormatFloat(r.Rating, 'g', -1, 64), strconv.FormatFloat(r.RD, 'g', -1, 64),
			CSVSafe(r.Division), r.Badge, strconv.Itoa(r.Wins), strconv.Itoa(r.Losses), strconv.Itoa(r.Draws)})
	}
	w.Flush()
	return buf.Bytes()
}

// RoleProblem tells the moderators' channel, once per problem, that
// division roles need an admin; the ladder keeps working.
func RoleProblem(l *i18n.Lang, p ladder.RoleProblem) Reply {
	return Reply{Content: l.T("post.role_problem", "Problem", roleProblemText(l, p))}
}

// roleProblemText says in l what an admin should do about p: map another
// role for a deleted one, or give the bot Manage Roles above the role.
func roleProblemText(l *i18n.Lang, p ladder.RoleProblem) string {
	switch p.Code {
	case ladder.DiscordUnknownRole:
		return l.T("role_problem.unknown_role", "Role", p.RoleID)
	case ladder.DiscordMissingPermissions:
		return l.T("role_problem.missing_permissions", "Role", p.RoleID)
	}
	return l.T("role_problem.discord_error", "Role", p.RoleID, "Code", strconv.Itoa(p.Code))
}

// CSVSafe defuses a text cell of a CSV file that people open in a
// spreadsheet: a cell starting with =, +, -, @, a tab or a carriage
// return is one a spreadsheet would run as a formula, so it gets a
// leading apostrophe (OWASP's advice for CSV injection). The match
// history's CSV, which import reads back, is data and is written as it
// is.
func CSVSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
