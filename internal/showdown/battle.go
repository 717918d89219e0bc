package showdown

import (
	"strings"
	"unicode"

	"github.com/ladderbot/ladderbot/ladder"
)

// ToID is Showdown's toID: lowercase, keeping only a–z and 0–9, so "Zarel",
// "zarel" and "Z a r e l!" are one user. Names from Discord links and from
// logs are compared only this way.
func ToID(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Battle is what a replay log says about who played and who won.
type Battle struct {
	// GameType is the |gametype| line: singles, doubles, multi, ….
	GameType string
	// Players holds the names of p1 to p4 as the log gives them (index 0
	// is p1); "" where a slot never appeared.
	Players [4]string
	// Win is the |win| line's text: in a multi battle the winning side's
	// two names joined by " & ". Empty with no result.
	Win string
	// Tie reports a |tie| line.
	Tie bool
}

// ParseLog reads a battle from a Showdown protocol log (SIM-PROTOCOL.md):
// |player|pN|NAME|…, |gametype|TYPE, |win|NAME and |tie|. Other lines are
// ignored. A |player| line with an empty name (a player leaving) keeps the
// name seen before.
func ParseLog(log string) Battle {
	var b Battle
	for line := range strings.SplitSeq(log, "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "|") {
			continue
		}
		f := strings.Split(line[1:], "|")
		switch f[0] {
		case "player":
			if len(f) >= 3 && len(f[1]) == 2 && f[1][0] == 'p' && f[1][1] >= '1' && f[1][1] <= '4' && f[2] != "" {
				b.Players[f[1][1]-'1'] = f[2]
			}
		case "gametype":
			if len(f) >= 2 {
				b.GameType = f[1]
			}
		case "win":
			if len(f) >= 2 {
				b.Win = strings.Join(f[1:], "|")
			}
		case "tie":
			b.Tie = true
		}
	}
	return b
}

// Mismatch is why a replay does not prove a match. Its message is meant
// for the players (the report falls back to the normal confirmation and
// shows it): Reason in English, and the coded error it unwraps to, whose
// format and arguments the bot renders in the reporter's language.
type Mismatch struct {
	Reason string
	err    *ladder.Error
}

func (m *Mismatch) Error() string { return "replay does not match: " + m.Reason }

// Unwrap returns the coded error (ladder.ErrorFormat finds it).
func (m *Mismatch) Unwrap() error {
	if m.err == nil {
		return nil // a Mismatch made by hand has no coded reason
	}
	return m.err
}

func mismatch(e *ladder.Error) *Mismatch { return &Mismatch{Reason: e.Message, err: e} }

// Outcome checks the battle against a match's teams, given as the
// Showdown names linked to each team's players, and returns the winning
// team (1 or 2) or 0 for a tie. The battle must be a finished multi battle
// whose sides, p1 and p3 against p2 and p4, are exactly the two teams (in
// either order: team 1 may have played on either side). Anything else is a
// *Mismatch saying what differs.
func (b Battle) Outcome(team1, team2 []string) (int, error) {
	if b.GameType != "multi" {
		if b.GameType == "" {
			return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "the replay is not a 2v2 multi battle (it gives no game type)"))
		}
		return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "the replay is not a 2v2 multi battle (game type %s)", b.GameType))
	}
	var ids [4]string
	for i, p := range b.Players {
		if ids[i] = ToID(p); ids[i] == "" {
			return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "the replay has no player p%d", i+1))
		}
	}
	if len(team1) != 2 || len(team2) != 2 {
		return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "a multi battle needs two linked players per team, not %d and %d", len(team1), len(team2)))
	}
	t1, t2 := pairOf(team1), pairOf(team2)
	sideA, sideB := [2]string{ids[0], ids[2]}, [2]string{ids[1], ids[3]}
	var team1Side int // 1: team 1 played p1+p3; 2: p2+p4
	switch {
	case samePair(t1, sideA) && samePair(t2, sideB):
		team1Side = 1
	case samePair(t1, sideB) && samePair(t2, sideA):
		team1Side = 2
	default:
		return 0, b.sideMismatch(t1, t2, ids)
	}
	if b.Tie {
		return 0, nil
	}
	if b.Win == "" {
		return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "the replay has no result: the battle did not finish"))
	}
	w := ToID(b.Win)
	a := w == ids[0]+ids[2] || w == ids[2]+ids[0] || w == ids[0] || w == ids[2]
	c := w == ids[1]+ids[3] || w == ids[3]+ids[1] || w == ids[1] || w == ids[3]
	var winSide int
	switch {
	case a && !c:
		winSide = 1
	case c && !a:
		winSide = 2
	default:
		return 0, mismatch(ladder.Errorf(ladder.CodeInvalid, "the winner %q is not one side of the battle", b.Win))
	}
	if winSide == team1Side {
		return 1, nil
	}
	return 2, nil
}

// sideMismatch says what keeps the teams from being the battle's sides:
// names not in the battle at all, or partners split across the sides.
func (b Battle) sideMismatch(t1, t2 [2]string, ids [4]string) *Mismatch {
	var missing []string
	for _, n := range append(t1[:], t2[:]...) {
		found := false
		for _, id := range ids {
			found = found || n == id
		}
		if !found {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return mismatch(ladder.Errorf(ladder.CodeInvalid, "%s did not play in this battle (its players are %s)", strings.Join(missing, ", "), strings.Join(b.Players[:], ", ")))
	}
	return mismatch(ladder.Errorf(ladder.CodeInvalid, "the teams played on other sides: %s & %s against %s & %s", b.Players[0], b.Players[2], b.Players[1], b.Players[3]))
}

func pairOf(names []string) [2]string { return [2]string{ToID(names[0]), ToID(names[1])} }

func samePair(x, y [2]string) bool {
	return x[0] != "" && x[1] != "" && (x == y || x[0] == y[1] && x[1] == y[0])
}
