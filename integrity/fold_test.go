package integrity

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
)

func u(i int) string { return fmt.Sprintf("70000000000000%04d", i) }

// entry is a 2v2 match between u(a)+u(b) and u(c)+u(d) at even odds.
func entry(id int64, winner int, t1, t2 [2]int, before map[string]float64) Entry {
	e := Entry{MatchID: id, Seq: id, Teams: [2][]string{{u(t1[0]), u(t1[1])}, {u(t2[0]), u(t2[1])}}, Winner: winner, PTeam1: 0.5,
		Before: map[string]float64{}, Delta: map[string]float64{}, Games: map[string]int{}, ReportedWinner: -1}
	for t := range 2 {
		for _, p := range e.Teams[t] {
			e.Before[p] = 1500 + before[p]
			e.Games[p] = int(id) + 10
			d := 10.0
			if winner != t+1 {
				d = -10
			}
			e.Delta[p] = d
		}
	}
	return e
}

// established is a ladder's log of n matches among 40 established players
// rated 1,200 to 1,800 (mean 1,500, spread 176), at even odds.
func established(n int) []Entry {
	var es []Entry
	for i := range n {
		id := int64(i + 1)
		e := Entry{MatchID: id, Seq: id, Winner: 1 + i%2, PTeam1: 0.5, ReportedWinner: -1,
			Before: map[string]float64{}, Delta: map[string]float64{}, Games: map[string]int{}}
		for j := range 4 {
			p := 1000 + (4*i+j)%40
			e.Teams[j/2] = append(e.Teams[j/2], u(p))
			e.Before[u(p)] = 1200 + 600*float64((4*i+j)%40)/39
			e.Games[u(p)] = 50 + i
		}
		es = append(es, e)
	}
	return es
}

// newGame is the game-th match of u, rated r, with an established partner
// and established opponents, at the shown chance p of u's team (team 1).
func newGame(id int64, winner int, user string, game int, r, p float64) Entry {
	e := Entry{MatchID: id, Seq: id, Winner: winner, PTeam1: p, ReportedWinner: -1,
		Teams:  [2][]string{{user, u(1000 + game%10)}, {u(1010 + game%10), u(1020 + game%10)}},
		Before: map[string]float64{user: r}, Delta: map[string]float64{user: 10}, Games: map[string]int{user: game}}
	for _, v := range append(e.Teams[0][1:], e.Teams[1]...) {
		e.Before[v], e.Games[v] = 1500, 100
	}
	return e
}

func kinds(fs []Flag) map[string][]string {
	out := map[string][]string{}
	for _, f := range fs {
		out[f.Kind] = append(out[f.Kind], Subject(f.Subjects))
	}
	return out
}

func TestFoldFlags(t *testing.T) {
	th := DefaultThresholds()
	th.SmurfAfter = 0 // every first game is a new account's (see TestSmurfAfter)
	tests := []struct {
		name string
		log  func() []Entry
		want map[string][]string
	}{
		{"alternating meetings are win-trading", func() []Entry {
			var es []Entry
			for i := range 20 {
				es = append(es, entry(int64(i+1), 1+i%2, [2]int{1, 2}, [2]int{3, 4}, nil))
			}
			return es
		}, map[string][]string{KindWinTrade: {u(1) + "," + u(3), u(1) + "," + u(4), u(2) + "," + u(3), u(2) + "," + u(4)}}},
		{"one-sided meetings are win-trading", func() []Entry {
			var es []Entry
			for i := range 20 {
				es = append(es, entry(int64(i+1), 1, [2]int{1, 2}, [2]int{3, 4}, nil))
			}
			return es
		}, map[string][]string{KindWinTrade: {u(1) + "," + u(3), u(1) + "," + u(4), u(2) + "," + u(3), u(2) + "," + u(4)}}},
		{"even meetings are not", func() []Entry {
			var es []Entry
			for i, w := range []int{1, 1, 2, 2, 1, 2, 2, 1, 1, 1, 2, 2, 2, 1, 2, 1, 1, 2, 2, 1} {
				es = append(es, entry(int64(i+1), w, [2]int{1, 2}, [2]int{3, 4}, nil))
			}
			return es
		}, map[string][]string{}},
		{"wins with a far stronger partner are boosting", func() []Entry {
			var es []Entry
			for i := range 12 {
				// u(1) is carried by u(2), 400 above, against ever new opponents.
				es = append(es, entry(int64(i+1), 1, [2]int{1, 2}, [2]int{10 + 2*i, 11 + 2*i}, map[string]float64{u(2): 400}))
			}
			return es
		}, map[string][]string{KindBoost: {u(1) + "," + u(2)}}},
		{"a boosted account lifted close to its partner is still boosting", func() []Entry {
			var es []Entry
			for i := range 12 {
				// u(1) starts 400 below u(2); the wins lift it by 60 a
				// game, so it ends above and averages 70 below, but the
				// gap to where it stood when the partnership began stays.
				e := entry(int64(i+1), 1, [2]int{1, 2}, [2]int{10 + 2*i, 11 + 2*i}, map[string]float64{u(2): 400, u(1): float64(60 * i)})
				e.Delta[u(1)] = 60
				es = append(es, e)
			}
			return es
		}, map[string][]string{KindBoost: {u(1) + "," + u(2)}}},
		{"a partner rated close from the start is not boosting", func() []Entry {
			var es []Entry
			for i := range 12 {
				es = append(es, entry(int64(i+1), 1, [2]int{1, 2}, [2]int{10 + 2*i, 11 + 2*i}, map[string]float64{u(2): 50}))
			}
			return es
		}, map[string][]string{}},
		{"a fixed team of equals who climb together is not boosting", func() []Entry {
			var es []Entry
			for i := range 12 {
				// u(1) and u(2) start rated alike and win 11 of 12 against
				// ever new opponents: both climb 30 a game, so each one's
				// partner averages 165 above where the other began. Neither
				// was carried: the team is simply good (a doubles
				// partnership of a real history, a club's best pair).
				w := 1
				if i == 5 {
					w = 2
				}
				e := entry(int64(i+1), w, [2]int{1, 2}, [2]int{10 + 2*i, 11 + 2*i}, map[string]float64{u(1): float64(30 * i), u(2): float64(30 * i)})
				e.Delta[u(1)], e.Delta[u(2)] = 30, 30
				es = append(es, e)
			}
			return es
		}, map[string][]string{}},
		{"a booster whose rating had not caught up yet is still boosting", func() []Entry {
			var es []Entry
			for i := range 12 {
				// u(2) starts only 60 above u(1) and climbs 10 a game
				// with it; u(1) climbs 40 a game, carried.
				e := entry(int64(i+1), 1, [2]int{1, 2}, [2]int{10 + 2*i, 11 + 2*i}, map[string]float64{u(1): float64(40 * i), u(2): float64(60 + 10*i)})
				e.Delta[u(1)], e.Delta[u(2)] = 40, 10
				es = append(es, e)
			}
			return es
		}, map[string][]string{KindBoost: {u(1) + "," + u(2)}}},
		{"a new account that wins far above the ladder's best is a smurf", func() []Entry {
			es := established(40)
			for i := range 30 {
				// u(1), rated 1500 and climbing 40 a game, wins every
				// game at even odds: only a player far above the
				// ladder's 1,800 best wins that often.
				e := newGame(int64(len(es)+1), 1, u(1), i, 1500+40*float64(i), 0.5)
				es = append(es, e)
			}
			return es
		}, map[string][]string{KindSmurf: {u(1)}}},
		{"a strong newcomer who wins as the ladder's best do is not", func() []Entry {
			es := established(40)
			for i := range 60 {
				// u(1) is rated among the best (1,750) and wins three
				// games in five at even odds: it plays as well as the
				// ladder's best, a little above its rating.
				w := 1
				if i%5 == 2 || i%5 == 4 {
					w = 2
				}
				e := newGame(int64(len(es)+1), w, u(1), i, 1750, 0.5)
				es = append(es, e)
			}
			return es
		}, map[string][]string{}},
		{"an established account winning is not", func() []Entry {
			es := established(40)
			for i := range 30 {
				e := newGame(int64(len(es)+1), 1, u(1), i+th.SmurfEstablished, 1500, 0.5)
				es = append(es, e)
			}
			return es
		}, map[string][]string{}},
		{"reports of an own loss overturned are wrong votes", func() []Entry {
			var es []Entry
			for i := range 2 {
				e := entry(int64(i+1), 1, [2]int{1, 10 + 2*i}, [2]int{20 + 2*i, 21 + 2*i}, nil)
				e.ReportedBy, e.ReportedWinner, e.ResolvedBy = u(1), 2, u(99)
				es = append(es, e)
			}
			return es
		}, map[string][]string{KindWrongVote: {u(1)}}},
		{"disputes resolved as reported are report abuse", func() []Entry {
			var es []Entry
			for i := range 3 {
				e := entry(int64(i+1), 1, [2]int{10 + 4*i, 11 + 4*i}, [2]int{1, 13 + 4*i}, nil)
				e.ReportedBy, e.ReportedWinner, e.DisputedBy, e.ResolvedBy = u(10+4*i), 1, u(1), u(99)
				es = append(es, e)
			}
			return es
		}, map[string][]string{KindReportAbuse: {u(1)}}},
		{"disputes that won are not", func() []Entry {
			var es []Entry
			for i := range 3 {
				e := entry(int64(i+1), 2, [2]int{10 + 4*i, 11 + 4*i}, [2]int{1, 13 + 4*i}, nil)
				e.ReportedBy, e.ReportedWinner, e.DisputedBy, e.ResolvedBy = u(10+4*i), 1, u(1), u(99)
				es = append(es, e)
			}
			return es
		}, map[string][]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := Replay(tc.log(), th)
			got := kinds(fs)
			for k, v := range got {
				if len(tc.want[k]) == 0 {
					t.Errorf("Got(%s flags) = %v, want none", k, v)
				}
			}
			for k, v := range tc.want {
				if !sameSet(got[k], v) {
					t.Errorf("Got(%s flags) = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestFoldInBatches: folding a log in batches through stored (JSON) rows
// gives the counters of one pass, as the job relies on.
func TestFoldInBatches(t *testing.T) {
	th := DefaultThresholds()
	th.SmurfAfter = 0 // u(0)–u(4) are new accounts, whose tests run
	var es []Entry
	for i := range 60 {
		e := entry(int64(i+1), 1+(i*7)%3%2, [2]int{i % 5, 5 + i%3}, [2]int{8 + i%4, 12 + i%2}, map[string]float64{u(5): 123.25})
		e.Games[u(i%5)] = i / 5
		es = append(es, e)
	}
	want, _ := Replay(es, th)
	if l, p := want[ladderKey], want[playerKey(u(0))]; l.PopN < popMin || p.LLR == 0 {
		t.Fatalf("Got(ladder %+v, new account %+v), want the ladder's spread and a new account's test folded", l, p)
	}
	stored := map[string][]byte{}
	for start := 0; start < len(es); start += 7 {
		batch := es[start:min(start+7, len(es))]
		st := State{}
		for _, e := range batch {
			for _, k := range Keys(e) {
				if b, ok := stored[k]; ok {
					var c Counter
					if err := json.Unmarshal(b, &c); err != nil {
						t.Fatal(err)
					}
					st[k] = &c
				}
			}
		}
		for _, e := range batch {
			st.Fold(e, th)
		}
		for k, c := range st {
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			stored[k] = b
		}
	}
	got := State{}
	for k, b := range stored {
		var c Counter
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		got[k] = &c
	}
	if d := compare(Ladder{}, got, want); len(d) > 0 {
		t.Errorf("Got(batched counters) differ from one pass: %v", d)
	}
	if !reflect.DeepEqual(len(got), len(want)) {
		t.Errorf("Got(%d counters), want %d", len(got), len(want))
	}
}

// TestSmurfAfter: the accounts that found a ladder are not new accounts;
// one whose first game comes after SmurfAfter matches is.
func TestSmurfAfter(t *testing.T) {
	th := DefaultThresholds()
	// u(1) plays the ladder's first match, then the established players
	// fill its first SmurfAfter matches; then u(1) and u(2), who arrives,
	// both win every game at even odds.
	es := append([]Entry{newGame(0, 1, u(1), 0, 1500, 0.5)}, established(th.SmurfAfter)...)
	for i := range 30 {
		es = append(es, newGame(0, 1, u(1), 1+i, 1500+40*float64(i), 0.5), newGame(0, 1, u(2), i, 1500+40*float64(i), 0.5))
	}
	for i := range es {
		es[i].MatchID, es[i].Seq = int64(i+1), int64(i+1)
	}
	_, fs := Replay(es, th)
	if got := kinds(fs)[KindSmurf]; len(got) != 1 || got[0] != u(2) {
		t.Errorf("Got(smurf flags) = %v, want only %s, who arrived after %d matches", got, u(2), th.SmurfAfter)
	}
}

// TestSmurfWeighsSettledGames: a game tells about a new account only as
// far as its other players are established, since the shown chance is only
// as right as their ratings. Two new accounts win the same four games in
// five at even odds, their ratings climbing alike: a strong newcomer of a
// young ladder, among other new accounts, is not flagged; a smurf, beside
// and against the ladder's established players, is.
func TestSmurfWeighsSettledGames(t *testing.T) {
	th := DefaultThresholds()
	// 20 times as likely: the smurf's 40 games reach it, the newcomer's
	// do not (the default now waits for 100 times, or the season's end).
	th.SmurfAfter, th.SmurfLLR = 0, math.Log(20)
	es := established(40)
	for i := range 40 {
		w := 1
		if i%5 == 4 {
			w = 2
		}
		r := 1500 + 10*float64(i)
		young := newGame(0, w, u(1), i, r, 0.5)
		young.Teams = [2][]string{{u(1), u(2000 + i%10)}, {u(2010 + i%10), u(2020 + i%10)}}
		for _, v := range []string{u(2000 + i%10), u(2010 + i%10), u(2020 + i%10)} {
			young.Before[v], young.Games[v] = 1500, i/10
		}
		es = append(es, young, newGame(0, w, u(2), i, r, 0.5))
	}
	for i := range es {
		es[i].MatchID, es[i].Seq = int64(i+1), int64(i+1)
	}
	st, fs := Replay(es, th)
	if got := kinds(fs)[KindSmurf]; len(got) != 1 || got[0] != u(2) {
		t.Errorf("Got(smurf flags) = %v, want only %s (the newcomer among new accounts: test at %.2f; the smurf: %.2f)",
			got, u(2), st[playerKey(u(1))].LLR, st[playerKey(u(2))].LLR)
	}
}

// TestReview: the season's-end review flags a new account with the
// minimum of early games whose sum without the floor reached the
// threshold, with the evidence of all its early games, and no other: not
// below the threshold, not with fewer games, not an account that founded
// the ladder; none while the ladder has too few established games to
// place the hypotheses, and none when the review is off.
func TestReview(t *testing.T) {
	th := DefaultThresholds()
	th.SmurfReview = math.Log(5)
	l := &Counter{Games: 500, PopN: 400, PopMean: 1500, PopVar: 100 * 100}
	st := State{
		ladderKey:     l,
		"u:smurf":     {Games: 30, New: true, Early: 30, EarlyO: 24, EarlyP: 15.5, LLR: 2.5, Sum: 1.7, Start: 1500, Now: 1810, Matches: []int64{7, 9}},
		"u:newcomer":  {Games: 30, New: true, Early: 30, EarlyO: 17, EarlyP: 15.2, LLR: 2.5, Sum: 1.5, Start: 1500, Now: 1580},
		"u:few":       {Games: 9, New: true, Early: 9, LLR: 3, Sum: 3},
		"u:founder":   {Games: 300, Early: 0, Sum: 0},
		"p:smurf:few": {N: 3},
	}
	fs := st.Review(th)
	if len(fs) != 1 || fs[0].Subjects[0] != "smurf" || fs[0].Kind != KindSmurf || fs[0].Evidence.Key != EvidenceSmurfReview {
		t.Fatalf("Review() = %+v, want one smurf-review flag on smurf", fs)
	}
	f := fs[0]
	if f.Evidence.Counts["Games"] != 30 || f.Evidence.Counts["Times"] != 5 || f.Evidence.Measures["Wins"] != 24 ||
		f.Evidence.Ratings["Now"] != 1810 || f.Evidence.Ratings["High"] != 1500+th.SmurfHigh*100 || f.Score != 1.7 || !slices.Equal(f.Matches, []int64{7, 9}) {
		t.Errorf("Got(review flag) = %+v, want 30 games, 5 times, 24 wins, rating now 1810, hypotheses from the ladder, its matches", f)
	}
	l.PopN = popMin - 1
	if fs := st.Review(th); len(fs) != 0 {
		t.Errorf("Review(%d established games) = %+v, want none", l.PopN, fs)
	}
	l.PopN = 400
	th.SmurfReview = 0
	if fs := st.Review(th); len(fs) != 0 {
		t.Errorf("Review(review off) = %+v, want none", fs)
	}
}

// TestSumWithoutFloor: the review's sum is the test's ratio without its
// floor: equal while the ratio stays above the floor, below it after
// losses the floor absorbed.
func TestSumWithoutFloor(t *testing.T) {
	th := DefaultThresholds()
	th.SmurfAfter, th.SmurfEstablished = 0, 0
	st := State{ladderKey: {PopN: 400, PopMean: 1500, PopVar: 100 * 100}}
	e := Entry{Teams: [2][]string{{"a", "x"}, {"y", "z"}}, PTeam1: 0.5, Before: map[string]float64{"a": 1500, "x": 1500, "y": 1500, "z": 1500},
		Delta: map[string]float64{}, Games: map[string]int{"x": 50, "y": 50, "z": 50}}
	for i := range 12 {
		e.MatchID, e.Seq, e.Winner = int64(i+1), int64(i+1), 1
		if i < 6 {
			e.Winner = 2
		}
		st.Fold(e, th)
	}
	c := st["u:a"]
	if !c.New || c.Early != 12 || c.Sum >= c.LLR || c.LLR < th.SmurfFloor {
		t.Fatalf("Got(counter after 6 losses and 6 wins) = %+v, want a sum below the floored ratio", c)
	}
}
