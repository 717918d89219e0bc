package matchmaking

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteAutobalance is the rule written out the slow way: the joiner by
// joinTeam's rule, then every set of ⌊Δk/2⌋ players of the larger team
// tried; it returns the best gap after.
func bruteAutobalance(l RunningLobby) float64 {
	t1, t2 := slices.Clone(l.Team1), slices.Clone(l.Team2)
	if l.Joiner != nil {
		if joinTeam(len(t1), len(t2), sum(t1), sum(t2), *l.Joiner) == 1 {
			t1 = append(t1, *l.Joiner)
		} else {
			t2 = append(t2, *l.Joiner)
		}
	}
	big, small := t1, t2
	if len(t2) > len(t1) {
		big, small = t2, t1
	}
	m := (len(big) - len(small)) / 2
	best := math.Inf(1)
	for mask := 0; mask < 1<<len(big); mask++ {
		if popcount(mask) != m {
			continue
		}
		var x float64
		for i, r := range big {
			if mask>>i&1 == 1 {
				x += r
			}
		}
		best = min(best, math.Abs(sum(big)-x-(sum(small)+x)))
	}
	return best
}

func sum(rs []float64) float64 {
	var s float64
	for _, r := range rs {
		s += r
	}
	return s
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// checkRebalance asserts what every answer must satisfy: each player on
// exactly one team, sizes within one whenever anything could be moved, the
// moves being ⌊Δk/2⌋ players from the larger team, and the gap claimed
// being the gap of the teams returned.
func checkRebalance(t *testing.T, l RunningLobby, got Rebalance) {
	t.Helper()
	ratings := append(slices.Clone(l.Team1), l.Team2...)
	if l.Joiner != nil {
		ratings = append(ratings, *l.Joiner)
	}
	seen := make([]int, len(ratings))
	for _, i := range append(slices.Clone(got.Team1), got.Team2...) {
		seen[i]++
	}
	for i, c := range seen {
		if c != 1 {
			t.Fatalf("Got(player %d on %d teams), want 1 (lobby %+v, got %+v)", i, c, l, got)
		}
	}
	if d := len(got.Team1) - len(got.Team2); d > 1 || d < -1 {
		t.Fatalf("Got(sizes %d vs %d), want within one", len(got.Team1), len(got.Team2))
	}
	k1, k2 := len(l.Team1), len(l.Team2)
	if got.JoinTeam == 1 {
		k1++
	} else if got.JoinTeam == 2 {
		k2++
	}
	if want := max(k1-k2, k2-k1) / 2; len(got.Moves) != want {
		t.Fatalf("Got(%d moves), want %d", len(got.Moves), want)
	}
	for _, mv := range got.Moves {
		from := k1
		if mv.From == 2 {
			from = k2
		}
		if from < max(k1, k2) || mv.To == mv.From {
			t.Fatalf("Got(move %+v) with sizes %d vs %d, want moves from the larger team", mv, k1, k2)
		}
	}
	var s1, s2 float64
	for _, i := range got.Team1 {
		s1 += ratings[i]
	}
	for _, i := range got.Team2 {
		s2 += ratings[i]
	}
	if g := math.Abs(s1 - s2); math.Abs(g-got.GapAfter) > 1e-9*(1+g) {
		t.Fatalf("Got(GapAfter) = %v, want %v, the gap of the teams returned", got.GapAfter, g)
	}
	if g := math.Abs(sum(l.Team1) - sum(l.Team2)); math.Abs(g-got.GapBefore) > 1e-9*(1+g) {
		t.Fatalf("Got(GapBefore) = %v, want %v", got.GapBefore, g)
	}
}

func ptr(f float64) *float64 { return &f }

func TestAutobalanceExamples(t *testing.T) {
	tests := []struct {
		name      string
		lobby     RunningLobby
		team1     []int
		join      int
		moves     []Move
		gapBefore float64
		gapAfter  float64
	}{
		{"sizes within one move no one", RunningLobby{Team1: []float64{1000, 1000}, Team2: []float64{1500}}, []int{0, 1}, 0, []Move{}, 500, 500},
		{"joiner to the smaller team", RunningLobby{Team1: []float64{1000, 1000}, Team2: []float64{1500}, Joiner: ptr(2000)}, []int{0, 1}, 2, []Move{}, 500, 1500},
		{"equal sizes: joiner where the gap is smaller", RunningLobby{Team1: []float64{1200}, Team2: []float64{1000}, Joiner: ptr(300)}, []int{0}, 2, []Move{}, 200, 100},
		{"equal sizes, a tie: team 1", RunningLobby{Team1: []float64{1000}, Team2: []float64{1000}, Joiner: ptr(300)}, []int{0, 2}, 1, []Move{}, 0, 300},
		// Larger team stronger: F11's player closest to T = 900/2 = 450.
		{"seed F11: closest to T", RunningLobby{Team1: []float64{400, 300, 1000, 700}, Team2: []float64{1000, 500}}, []int{1, 2, 3}, 0,
			[]Move{{Player: 0, From: 1, To: 2}}, 900, 100},
		// Larger team weaker: D = 1300 − 2200 = −900. F11 would move the
		// player nearest 450 (500, gap 1900); the weakest (100) is best.
		{"larger team weaker: the weakest moves", RunningLobby{Team1: []float64{100, 500, 700}, Team2: []float64{2200}}, []int{1, 2}, 0,
			[]Move{{Player: 0, From: 1, To: 2}}, 900, 1100},
		// 6 vs 2: two move jointly. Greedy (closest to T each time) takes
		// 800, then a 150 (gap 100); jointly 520+480 closes it.
		{"two moves, jointly", RunningLobby{Team1: []float64{800, 520, 480, 150, 150, 150}, Team2: []float64{125, 125}}, []int{0, 3, 4, 5}, 0,
			[]Move{{Player: 1, From: 1, To: 2}, {Player: 2, From: 1, To: 2}}, 2000, 0},
		{"empty team 2", RunningLobby{Team1: []float64{1500, 1400, 1300, 1200, 1000}}, []int{2, 3, 4}, 0,
			[]Move{{Player: 0, From: 1, To: 2}, {Player: 1, From: 1, To: 2}}, 6400, 600},
		{"one player alone", RunningLobby{Team2: []float64{1500}}, []int{}, 0, []Move{}, 1500, 1500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Autobalance(tt.lobby)
			if err != nil {
				t.Fatalf("Got(Autobalance) error %v, want none", err)
			}
			checkRebalance(t, tt.lobby, got)
			if !slices.Equal(got.Team1, tt.team1) || got.JoinTeam != tt.join || !slices.Equal(got.Moves, tt.moves) ||
				got.GapBefore != tt.gapBefore || got.GapAfter != tt.gapAfter || !got.Exact {
				t.Errorf("Got(Autobalance) = %+v, want team1 %v, join %d, moves %v, gaps %v → %v, exact",
					got, tt.team1, tt.join, tt.moves, tt.gapBefore, tt.gapAfter)
			}
		})
	}
}

// TestAutobalanceF11OnlyWhenLargerTeamStronger pins down when the seed's
// single-move rule is optimal: it matches the solver whenever the larger
// team has the larger sum, and the solver beats it on some lobby where the
// larger team is weaker.
func TestAutobalanceF11OnlyWhenLargerTeamStronger(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	beaten := 0
	for range 2000 {
		l := RunningLobby{Team1: randRatings(rng, 3+rng.IntN(4)), Team2: nil}
		l.Team2 = randRatings(rng, len(l.Team1)-2-rng.IntN(2)) // Δk of 2 or 3: one move
		if rng.IntN(2) == 0 {
			for i := range l.Team2 {
				l.Team2[i] += 1500 // often the smaller team is the stronger
			}
		}
		got, err := Autobalance(l)
		if err != nil {
			t.Fatal(err)
		}
		d := sum(l.Team1) - sum(l.Team2)
		tgt := math.Abs(d) / 2
		f11 := 0
		for i, r := range l.Team1 {
			if math.Abs(r-tgt) < math.Abs(l.Team1[f11]-tgt) {
				f11 = i
			}
		}
		f11Gap := math.Abs(d - 2*l.Team1[f11])
		switch {
		case d >= 0 && math.Abs(f11Gap-got.GapAfter) > 1e-6:
			t.Fatalf("Got(GapAfter) = %v, want F11's %v when the larger team is stronger (%+v)", got.GapAfter, f11Gap, l)
		case got.GapAfter > f11Gap+1e-6:
			t.Fatalf("Got(GapAfter) = %v, worse than F11's %v (%+v)", got.GapAfter, f11Gap, l)
		case d < 0 && got.GapAfter < f11Gap-1e-6:
			beaten++
		}
	}
	if beaten == 0 {
		t.Errorf("Got(no lobby where the larger team is weaker and F11 is beaten), want some")
	}
}

func randRatings(rng *rand.Rand, n int) []float64 {
	out := make([]float64, max(n, 0))
	for i := range out {
		out[i] = math.Round(800 + rng.Float64()*1400)
	}
	return out
}

// TestAutobalanceMatchesBruteForce: on random lobbies of up to 14 players
// per team, with and without a joiner, the solver's gap is brute force's.
func TestAutobalanceMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		l := RunningLobby{Team1: randRatings(rng, rng.IntN(15)), Team2: randRatings(rng, rng.IntN(8))}
		if trial%2 == 1 {
			l.Team1, l.Team2 = l.Team2, l.Team1
		}
		if rng.IntN(2) == 0 {
			l.Joiner = ptr(math.Round(800 + rng.Float64()*1400))
		}
		if len(l.Team1)+len(l.Team2) == 0 {
			continue
		}
		got, err := Autobalance(l)
		if err != nil {
			t.Fatalf("Got(Autobalance(%+v)) error %v, want none", l, err)
		}
		checkRebalance(t, l, got)
		if want := bruteAutobalance(l); math.Abs(got.GapAfter-want) > 1e-6 || !got.Exact {
			t.Fatalf("Got(GapAfter) = %v (exact %v), want brute force's %v for %+v", got.GapAfter, got.Exact, want, l)
		}
	}
}

func TestAutobalanceLargeLobbyFallsBackToSwaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := RunningLobby{Team1: randRatings(rng, 100), Team2: randRatings(rng, 10)}
	got, err := Autobalance(l)
	if err != nil {
		t.Fatal(err)
	}
	checkRebalance(t, l, got)
	if got.Exact {
		t.Errorf("Got(Exact) = true for 100 vs 10, want the swap fallback")
	}
	// 45 moves from 100 players rated 800..2200 can meet the target to
	// within a few points; a descent that stopped early would not.
	if got.GapAfter > 10 {
		t.Errorf("Got(GapAfter) = %v, want a near-even split", got.GapAfter)
	}
}

func TestAutobalanceRejectsBadInput(t *testing.T) {
	tests := []struct {
		name  string
		lobby RunningLobby
	}{
		{"nobody", RunningLobby{}},
		{"NaN", RunningLobby{Team1: []float64{math.NaN()}}},
		{"infinite joiner", RunningLobby{Team1: []float64{1500}, Joiner: ptr(math.Inf(1))}},
		{"absurd", RunningLobby{Team2: []float64{1e300}}},
		{"team too large", RunningLobby{Team1: make([]float64, MaxAutobalanceTeam)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Autobalance(tt.lobby)
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Got(Autobalance) error %v, want an *Error", err)
			}
		})
	}
}

// FuzzAutobalance: any lobby gives an *Error or a valid rebalance, and for
// small lobbies the brute-force optimum.
func FuzzAutobalance(f *testing.F) {
	f.Add([]byte{}, uint8(2), true)
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(1500)), uint8(0), false)
	f.Fuzz(func(t *testing.T, b []byte, n1 uint8, join bool) {
		var rs []float64
		for len(b) >= 8 && len(rs) < 20 {
			rs = append(rs, math.Float64frombits(binary.LittleEndian.Uint64(b)))
			b = b[8:]
		}
		var l RunningLobby
		if join && len(rs) > 0 {
			l.Joiner, rs = &rs[len(rs)-1], rs[:len(rs)-1]
		}
		k := min(int(n1), len(rs))
		l.Team1, l.Team2 = rs[:k], rs[k:]
		got, err := Autobalance(l)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Got(error %v), want an *Error", err)
			}
			return
		}
		checkRebalance(t, l, got)
		if want := bruteAutobalance(l); math.Abs(got.GapAfter-want) > 1e-9*(1+want)+1e-9*(1+got.GapBefore) {
			t.Fatalf("Got(GapAfter) = %v, want %v for %+v", got.GapAfter, want, l)
		}
	})
}

// BenchmarkAutobalance16v8: a full 16-player team against 8, so four move.
func BenchmarkAutobalance16v8(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	l := RunningLobby{Team1: randRatings(rng, 16), Team2: randRatings(rng, 8)}
	for b.Loop() {
		if _, err := Autobalance(l); err != nil {
			b.Fatal(err)
		}
	}
}
