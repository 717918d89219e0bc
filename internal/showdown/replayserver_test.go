package showdown

import "testing"

// TestParseLogReplayServerLines: the replay server stores the room's log,
// not only the simulator's: joins and leaves (|j|, |l|), chat (|c|, also
// chat that looks like protocol), |raw| and |html| blocks with rating
// changes, |inactive| timer notices, |t:| timestamps, and ratings after
// the avatar on |player| lines. None of it may change who played or won.
func TestParseLogReplayServerLines(t *testing.T) {
	log := "|j|☆Ash K.\r\n|j| Misty W\n|j|+Brock_42\n|j|☆Gary Oak!\n|c|~|/raw <b>welcome</b>\n|t:|1700000000\n" +
		"|gametype|multi\n" +
		"|player|p1|Ash K.|1|1532\n|player|p2|Misty W|2|1498\n|player|p3|Brock_42|3|1610\n|player|p4|Gary Oak!|4|1405\n" +
		"|raw|<div class=\"broadcast-blue\">Rated battle</div>\n|html|<table><tr><td>|player|p1|Mallory</td></tr></table>\n" +
		"|gen|9\n|tier|[Gen 9] Multi Random Battle\n|rated|\n|start\n|turn|1\n" +
		"|c|☆Gary Oak!|gg |win|Gary Oak! & Misty W\n|c| spectator|/me |tie\n|inactive|Battle timer is ON\n|inactive|Misty W has 120 seconds left.\n|inactiveoff|Battle timer is now OFF.\n" +
		"|t:|1700000050\n|player|p2|\n|l|☆Misty W\n|-message|Misty W forfeited.\n|\n|win|Ash K. & Brock_42\n" +
		"|raw|Ash K.'s rating: 1532 &rarr; <strong>1549</strong><br />(+17 for winning)\n|raw|Misty W's rating: 1498 &rarr; <strong>1481</strong>\n" +
		"|c|☆Ash K.|gg\n|l|☆Ash K.\n"
	got := ParseLog(log)
	want := Battle{GameType: "multi", Players: [4]string{"Ash K.", "Misty W", "Brock_42", "Gary Oak!"}, Win: "Ash K. & Brock_42"}
	if got != want {
		t.Fatalf("Got(ParseLog) = %+v, want %+v", got, want)
	}
	w, err := got.Outcome([]string{"brock 42", "ash k"}, []string{"garyoak", "MISTY-W"})
	if err != nil || w != 1 {
		t.Errorf("Got(Outcome) = %d, %v, want team 1", w, err)
	}
}
