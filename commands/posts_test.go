package commands_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// TestFinalStandings renders short and empty tables without an attachment.
func TestFinalStandings(t *testing.T) {
	cases := []struct {
		name   string
		rows   int
		fields int
		files  int
	}{
		{"empty", 0, 0, 0},
		{"one", 1, 1, 0},
		{"exactly 25", 25, 25, 0},
		{"26", 26, 25, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := ladder.SeasonStandings{GuildID: "100000000000000001", Season: ladder.Season{Number: 3}, Queue: ladder.Queue{Name: "3v3 ranked"}}
			for i := range tc.rows {
				st.Results = append(st.Results, ladder.SeasonResult{Rank: i + 1, UserID: fmt.Sprintf("4000000000000%05d", i), Rating: 1600 - float64(i), RD: 60, Division: "Gold", Badge: ladder.Badge(i + 1)})
			}
			msg := commands.FinalStandings(i18n.English(), st)
			if got := len(msg.Embeds[0].Fields); got != tc.fields {
				t.Errorf("Got(fields) = %d, want %d", got, tc.fields)
			}
			if got := len(msg.Files); got != tc.files {
				t.Errorf("Got(files) = %d, want %d", got, tc.files)
			}
			if tc.files == 1 && msg.Files[0].Name != "season-3-3v3_ranked.csv" {
				t.Errorf("Got(file name) = %q, want season-3-3v3_ranked.csv", msg.Files[0].Name)
			}
		})
	}
}

// TestStandingsFileDefused: the whole table goes out as a CSV file that
// players and moderators open in a spreadsheet, and a name is whatever a
// player calls themselves on Discord: a name starting with =, +, - or @
// was a formula the spreadsheet would run (=HYPERLINK… to a phishing
// site, say). Such cells now start with an apostrophe; the numbers and
// the other names are as they were.
func TestStandingsFileDefused(t *testing.T) {
	st := ladder.SeasonStandings{Season: ladder.Season{Number: 3}, Queue: ladder.Queue{Name: "2v2"}}
	names := []string{`=HYPERLINK("https://phish.example","claim your prize")`, "+1", "-x", "@SUM(A1:A9)", "ordinary", "a=b"}
	for i := range 30 {
		st.Results = append(st.Results, ladder.SeasonResult{Rank: i + 1, UserID: fmt.Sprintf("4000000000000%05d", i), Name: names[i%len(names)],
			Rating: -5 - float64(i), RD: 60, Division: "Gold"})
	}
	msg := commands.FinalStandings(i18n.English(), st)
	if len(msg.Files) != 1 {
		t.Fatalf("Got(files) = %d, want the table attached", len(msg.Files))
	}
	rows, err := csv.NewReader(bytes.NewReader(msg.Files[0].Data)).ReadAll()
	if err != nil || len(rows) != 31 {
		t.Fatalf("Got(CSV) = %d rows, %v, want the header and 30", len(rows), err)
	}
	for i, row := range rows[1:] {
		name := names[i%len(names)]
		want := name
		if strings.ContainsAny(name[:1], "=+-@") {
			want = "'" + name
		}
		if row[2] != want || row[3] != fmt.Sprint(-5-float64(i)) {
			t.Errorf("Got(row %d) = %q, want the name %q and the rating as a number", i+1, row, want)
		}
	}
}

// TestWeeklyTop renders one line per player, nobody pinged.
func TestWeeklyTop(t *testing.T) {
	page := ladder.LeaderboardPage{Queue: ladder.Queue{Name: "2v2"}, Season: ladder.Season{Number: 2}}
	for i := range 10 {
		page.Standings = append(page.Standings, ladder.Standing{Rank: i + 1, UserID: fmt.Sprintf("4000000000000%05d", i), Name: fmt.Sprintf("n%d", i), Rating: 1700 - float64(i), RD: 50, Division: "Platinum"})
	}
	msg := commands.WeeklyTop(i18n.English(), page)
	d := msg.Embeds[0].Description
	if got := strings.Count(d, "\n"); got != 10 || !strings.HasPrefix(d, "**1.** n0 · 1700 ± 50 · Platinum") {
		t.Errorf("Got(top description) = %q, want 10 lines starting with rank 1", d)
	}
	if msg.Embeds[0].Title != "Weekly top 10 · 2v2 · Season 2" || len(msg.Mentions) != 0 {
		t.Errorf("Got(top title, mentions) = %q, %v", msg.Embeds[0].Title, msg.Mentions)
	}
}

// TestAutoConfirmed pings the match's players only and says who won.
func TestAutoConfirmed(t *testing.T) {
	teams := [2][]string{{"401", "402"}, {"403", "404"}}
	cases := []struct {
		name   string
		winner int
		want   string
	}{
		{"team 1", 1, "Match #7 was confirmed automatically: nobody answered the report in time. Team 1 won."},
		{"team 2", 2, "Match #7 was confirmed automatically: nobody answered the report in time. Team 2 won."},
		{"draw", ladder.Draw, "Match #7 was confirmed automatically: nobody answered the report in time. It was a draw."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := commands.AutoConfirmed(i18n.English(), ladder.Match{ID: 7, Teams: teams, Winner: tc.winner})
			if msg.Content != tc.want {
				t.Errorf("Got(content) = %q, want %q", msg.Content, tc.want)
			}
			if want := []string{"401", "402", "403", "404"}; !slices.Equal(msg.Mentions, want) {
				t.Errorf("Got(mentions) = %v, want %v", msg.Mentions, want)
			}
		})
	}
}

// TestQueueExpired mentions and pings the ticket's players and says how
// long they waited.
func TestQueueExpired(t *testing.T) {
	joined := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		lang   string
		users  []string
		waited time.Duration
		want   string
	}{
		{"alone, whole hours", "en", []string{"401"}, 2 * time.Hour, "<@401>: you left the queue after waiting 2 hours without a match. Use /queue join to queue again."},
		{"party, minutes", "en", []string{"401", "402"}, 90*time.Minute + 20*time.Second, "<@401>, <@402>: you left the queue after waiting 1 hour 30 minutes without a match. Use /queue join to queue again."},
		{"in German", "de", []string{"401"}, time.Minute, "<@401>: ihr habt die Warteschlange nach 1 Minute ohne Match verlassen. Mit /queue join wartet ihr erneut."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := commands.QueueExpired(i18n.For(tc.lang), ladder.Ticket{UserIDs: tc.users, JoinedAt: joined, ExpiresAt: joined.Add(tc.waited)})
			if msg.Content != tc.want || !slices.Equal(msg.Mentions, tc.users) {
				t.Errorf("Got(message) = %q pinging %v, want %q pinging %v", msg.Content, msg.Mentions, tc.want, tc.users)
			}
		})
	}
}
