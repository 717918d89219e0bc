package matchmaking

import (
	"cmp"
	"fmt"
	"github.com/ladderbot/ladderbot/ladder/rating"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

var mmT0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestQMin(t *testing.T) {
	s := DefaultSettings()
	immediate := s
	immediate.QFloor = 0
	one := s
	one.Buckets = 1
	tests := []struct {
		name string
		s    Settings
		wait time.Duration
		want float64
	}{
		{"just joined", s, 0, 0.80},
		{"end of bucket 0", s, 29 * time.Second, 0.80},
		{"bucket 1 starts at 30s", s, 30 * time.Second, 0.725},
		{"bucket 1 ends at 120s", s, 119 * time.Second, 0.725},
		{"bucket 2", s, 120 * time.Second, 0.65},
		{"bucket 3", s, 270 * time.Second, 0.575},
		{"last bucket at 480s", s, 480 * time.Second, 0.50},
		{"stays at the floor", s, 10 * time.Hour, 0.50},
		{"q_floor 0 matches immediately", immediate, 0, 0},
		{"one bucket is the floor", one, 0, 0.50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.QMin(tc.wait); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Got(QMin(%s)) = %v, want %v", tc.wait, got, tc.want)
			}
		})
	}
}

func TestMatchmakingValidate(t *testing.T) {
	bad := map[string]func(*Settings){
		"team size 0":        func(s *Settings) { s.TeamSize = 0 },
		"team size 9":        func(s *Settings) { s.TeamSize = 9 },
		"floor above start":  func(s *Settings) { s.QFloor = 0.9 },
		"start above 1":      func(s *Settings) { s.QStart = 1.5 },
		"NaN floor":          func(s *Settings) { s.QFloor = math.NaN() },
		"no buckets":         func(s *Settings) { s.Buckets = 0 },
		"zero bucket length": func(s *Settings) { s.Bucket = 0 },
		"negative boost":     func(s *Settings) { s.Boost = -1 },
		"zero rd_max":        func(s *Settings) { s.RDMax = 0 },
	}
	if err := DefaultSettings().Validate(); err != nil {
		t.Fatalf("Got(DefaultSettings().Validate()) = %v, want nil", err)
	}
	for name, f := range bad {
		t.Run(name, func(t *testing.T) {
			s := DefaultSettings()
			f(&s)
			if err := s.Validate(); !isInvalid(err) {
				t.Errorf("Got(Validate()) = %v, want a invalid-input error (*Error)", err)
			}
			if got := FormMatches(fresh(8, mmT0), s, mmT0); got != nil {
				t.Errorf("Got(FormMatches with invalid settings) = %d proposals, want none", len(got))
			}
		})
	}
}

func fresh(n int, at time.Time) []Entry {
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{ID: int64(i + 1), JoinedAt: at.Add(time.Duration(i) * time.Millisecond),
			Members: []Member{{UserID: "u" + strconv.Itoa(i+1), Rating: 1500, RD: 130}}}
	}
	return es
}

func TestFourFreshPlayersMatchAtOnce(t *testing.T) {
	for k := 1; k <= rating.MaxTeamSize; k++ {
		s := DefaultSettings()
		s.TeamSize = k
		ps := FormMatches(fresh(2*k, mmT0), s, mmT0)
		if k != 2 {
			// fresh teams of any size have the same RD_T and so the same Q
			if len(ps) != 1 {
				t.Errorf("k=%d: Got(len(proposals)) = %d, want 1", k, len(ps))
			}
			continue
		}
		if len(ps) != 1 {
			t.Fatalf("Got(len(proposals)) = %d, want 1", len(ps))
		}
		p := ps[0]
		if math.Abs(p.Quality-0.8256) > 5e-5 || p.DeltaEff != 0 || p.REff != [2]float64{1610, 1610} {
			t.Errorf("Got(Q, Δ_eff, REff) = %.6f, %v, %v, want 0.8256, 0, [1610 1610]", p.Quality, p.DeltaEff, p.REff)
		}
		if p.QMin != 0.80 || p.AnchorWait != 0 || p.EntryIDs[0] != 1 {
			t.Errorf("Got(QMin, AnchorWait, anchor) = %v, %v, %d, want 0.8, 0s, 1", p.QMin, p.AnchorWait, p.EntryIDs[0])
		}
	}
}

func TestFormMatchesExamples(t *testing.T) {
	s := DefaultSettings()
	solo := func(id int64, r, rd float64, joined time.Duration) Entry {
		return Entry{ID: id, JoinedAt: mmT0.Add(joined), Members: []Member{{UserID: fmt.Sprint("p", id), Rating: r, RD: rd}}}
	}
	tests := []struct {
		name    string
		entries []Entry
		now     time.Duration
		want    [][2][]string
	}{
		{
			name: "the balanced split of four",
			entries: []Entry{
				solo(1, 1800, 50, 0), solo(2, 1700, 50, 1), solo(3, 1600, 50, 2), solo(4, 1500, 50, 3),
			},
			want: [][2][]string{{{"p1", "p4"}, {"p2", "p3"}}},
		},
		{
			name: "RD band before rating: the veterans play together",
			entries: []Entry{
				solo(1, 1500, 40, 0), solo(2, 1500, 130, 1), solo(3, 1500, 130, 2), solo(4, 1600, 45, 3),
				solo(5, 1400, 30, 4), solo(6, 1900, 35, 5),
			},
			now:  10 * time.Hour,
			want: [][2][]string{{{"p1", "p4"}, {"p5", "p6"}}},
		},
		{
			name: "too unequal to match before the anchor has waited",
			entries: []Entry{
				solo(1, 1000, 40, 0), solo(2, 2000, 40, 1), solo(3, 2000, 40, 2), solo(4, 2000, 40, 3),
			},
			want: nil,
		},
		{
			name: "a party plays together",
			entries: []Entry{
				{ID: 1, JoinedAt: mmT0, Members: []Member{{"a", 1800, 50}, {"b", 1800, 50}}},
				solo(2, 1790, 50, 1), solo(3, 1810, 50, 2), solo(4, 1500, 50, 3),
			},
			now:  10 * time.Hour,
			want: [][2][]string{{{"a", "b"}, {"p2", "p3"}}},
		},
		{
			name: "two parties face each other",
			entries: []Entry{
				{ID: 1, JoinedAt: mmT0, Members: []Member{{"a", 1500, 130}, {"b", 1500, 130}}},
				{ID: 2, JoinedAt: mmT0.Add(1), Members: []Member{{"c", 1500, 130}, {"d", 1500, 130}}},
			},
			want: [][2][]string{{{"a", "b"}, {"c", "d"}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := FormMatches(tc.entries, s, mmT0.Add(tc.now))
			var got [][2][]string
			for _, p := range ps {
				got = append(got, p.Teams)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Got(teams) = %v, want %v", got, tc.want)
			}
		})
	}
}

// randomQueue returns n players in entries of 1..maxParty members, with
// ratings and RDs drawn so that ties (fresh players) and every RD band occur.
func randomQueue(rng *rand.Rand, n, maxParty int) []Entry {
	var es []Entry
	id := 0
	for p := 0; p < n; {
		size := 1 + rng.IntN(maxParty)
		if rng.IntN(3) > 0 {
			size = 1
		}
		e := Entry{ID: int64(len(es) + 1), JoinedAt: mmT0.Add(time.Duration(rng.IntN(600)) * time.Second)}
		for range size {
			id++
			m := Member{UserID: "u" + strconv.Itoa(id), Rating: 1500, RD: 130}
			if rng.IntN(4) > 0 {
				m.Rating = math.Round(1500 + 250*rng.NormFloat64())
				m.RD = 25 + float64(rng.IntN(300))
			}
			e.Members = append(e.Members, m)
		}
		es = append(es, e)
		p += size
	}
	return es
}

type refEntry struct {
	Entry
	r    float64
	band int
}

// referenceForm is docs/spec.md 3 written plainly: sort the whole queue for every
// anchor, try every subset of parties for the split (the smallest mask wins
// among equal ones, as in FormMatches). FormMatches must agree with it exactly.
func referenceForm(entries []Entry, s Settings, now time.Time) [][2][]string {
	k := s.TeamSize
	var q []*refEntry
	for _, e := range entries {
		if len(e.Members) == 0 || len(e.Members) > k {
			continue
		}
		var sr, s2 float64
		for _, m := range e.Members {
			sr += m.Rating
			s2 += m.RD * m.RD
		}
		q = append(q, &refEntry{e, sr / float64(len(e.Members)), rdBand(math.Sqrt(s2 / float64(len(e.Members))))})
	}
	older := func(a, b *refEntry) int {
		return cmp.Or(a.JoinedAt.Compare(b.JoinedAt), cmp.Compare(a.ID, b.ID))
	}
	slices.SortFunc(q, older)
	gone := map[int64]bool{}
	var out [][2][]string
	for _, a := range q {
		if gone[a.ID] {
			continue
		}
		var others []*refEntry
		for _, e := range q {
			if e != a && !gone[e.ID] {
				others = append(others, e)
			}
		}
		slices.SortStableFunc(others, func(x, y *refEntry) int {
			if s.QFloor == 0 {
				return older(x, y) // match immediately: first come, first served
			}
			dx, dy := x.band-a.band, y.band-a.band
			return cmp.Or(cmp.Compare(max(dx, -dx), max(dy, -dy)), cmp.Compare(math.Abs(x.r-a.r), math.Abs(y.r-a.r)), older(x, y))
		})
		chosen := []*refEntry{a}
		used := len(a.Members)
		for i, e := range others {
			if used == 2*k || i >= maxScan {
				break
			}
			if used+len(e.Members) > 2*k || !canComplete(append(slices.Clone(chosen), e), k) {
				continue
			}
			chosen = append(chosen, e)
			used += len(e.Members)
		}
		if used != 2*k {
			continue
		}
		var best [2][]Member
		var bestEv Evaluation
		bestEv.DeltaEff = math.Inf(1)
		for mask := 0; mask < 1<<(len(chosen)-1); mask++ {
			var team [2][]Member
			team[0] = append(team[0], chosen[0].Members...)
			for j, e := range chosen[1:] {
				t := 1 - mask>>j&1
				team[t] = append(team[t], e.Members...)
			}
			if len(team[0]) != k {
				continue
			}
			if ev := s.Evaluate(team[0], team[1]); ev.DeltaEff < bestEv.DeltaEff {
				best, bestEv = team, ev
			}
		}
		if bestEv.Quality < s.QMin(now.Sub(a.JoinedAt)) {
			continue
		}
		var teams [2][]string
		for t := range 2 {
			for _, m := range best[t] {
				teams[t] = append(teams[t], m.UserID)
			}
		}
		out = append(out, teams)
		for _, e := range chosen {
			gone[e.ID] = true
		}
	}
	return out
}

// canComplete reports whether some subset of the parties fills one team to
// between total−k and k players, so solo players can fill both teams to k.
func canComplete(chosen []*refEntry, k int) bool {
	total := 0
	for _, e := range chosen {
		total += len(e.Members)
	}
	for mask := 0; mask < 1<<len(chosen); mask++ {
		a := 0
		for i, e := range chosen {
			if mask>>i&1 == 1 {
				a += len(e.Members)
			}
		}
		if a <= k && total-a <= k {
			return true
		}
	}
	return false
}

func TestFormMatchesAgreesWithReference(t *testing.T) {
	for k := 1; k <= rating.MaxTeamSize; k++ {
		for seed := range uint64(12) {
			t.Run(fmt.Sprintf("k=%d/seed=%d", k, seed), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, uint64(k)))
				s := DefaultSettings()
				s.TeamSize = k
				s.QFloor = []float64{0, 0.3, 0.5}[seed%3]
				es := randomQueue(rng, 20+rng.IntN(60), k)
				now := mmT0.Add(time.Duration(rng.IntN(900)) * time.Second)
				got := FormMatches(es, s, now)
				want := referenceForm(es, s, now)
				var gotTeams [][2][]string
				for _, p := range got {
					gotTeams = append(gotTeams, p.Teams)
				}
				if fmt.Sprint(gotTeams) != fmt.Sprint(want) {
					t.Errorf("Got(teams) =\n%v\nwant\n%v", gotTeams, want)
				}
				checkProposals(t, es, s, now, got)
			})
		}
	}
}

// checkProposals asserts the matcher's properties: no player in two
// proposals, teams of k, parties never split, and Q ≥ q_min of the anchor.
func checkProposals(t *testing.T, es []Entry, s Settings, now time.Time, ps []Proposal) {
	t.Helper()
	byID := map[int64]Entry{}
	for _, e := range es {
		byID[e.ID] = e
	}
	seen := map[string]bool{}
	for i, p := range ps {
		team := map[string]int{}
		for ti, tm := range p.Teams {
			if len(tm) != s.TeamSize {
				t.Errorf("proposal %d: Got(len(team %d)) = %d, want %d", i, ti, len(tm), s.TeamSize)
			}
			for _, u := range tm {
				if seen[u] {
					t.Errorf("proposal %d: Got(player %s) in two proposals, want one", i, u)
				}
				seen[u] = true
				team[u] = ti
			}
		}
		players := 0
		for _, id := range p.EntryIDs {
			e := byID[id]
			players += len(e.Members)
			for _, m := range e.Members {
				if tm, ok := team[m.UserID]; !ok || tm != team[e.Members[0].UserID] {
					t.Errorf("proposal %d: Got(party %d split or missing), want it on one team", i, id)
				}
			}
		}
		if players != 2*s.TeamSize {
			t.Errorf("proposal %d: Got(players of its entries) = %d, want %d", i, players, 2*s.TeamSize)
		}
		anchor := byID[p.EntryIDs[0]]
		if q := s.QMin(now.Sub(anchor.JoinedAt)); p.Quality < q || p.QMin != q {
			t.Errorf("proposal %d: Got(Q, QMin) = %v, %v, want Q ≥ %v", i, p.Quality, p.QMin, q)
		}
	}
}

func TestFormMatchesEqualPlayersAlwaysMatch(t *testing.T) {
	// any queue of equal fresh players forms ⌊n/2k⌋ matches at once
	for k := 1; k <= rating.MaxTeamSize; k++ {
		for n := 2 * k; n < 6*k; n++ {
			s := DefaultSettings()
			s.TeamSize = k
			ps := FormMatches(fresh(n, mmT0), s, mmT0)
			if len(ps) != n/(2*k) {
				t.Errorf("k=%d n=%d: Got(len(proposals)) = %d, want %d", k, n, len(ps), n/(2*k))
			}
			checkProposals(t, fresh(n, mmT0), s, mmT0, ps)
		}
	}
}

func TestFormMatchesIgnoresUnplayableEntries(t *testing.T) {
	s := DefaultSettings()
	es := fresh(4, mmT0)
	es = append(es, Entry{ID: 99, JoinedAt: mmT0.Add(-time.Hour)},
		Entry{ID: 98, JoinedAt: mmT0.Add(-time.Hour), Members: []Member{{"x", 1500, 130}, {"y", 1500, 130}, {"z", 1500, 130}}})
	ps := FormMatches(es, s, mmT0)
	if len(ps) != 1 || slices.Contains(ps[0].EntryIDs, 98) || slices.Contains(ps[0].EntryIDs, 99) {
		t.Errorf("Got(proposals) = %+v, want one match of entries 1..4", ps)
	}
}

func benchQueue(n, k int) []Entry {
	rng := rand.New(rand.NewPCG(1, 2))
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{ID: int64(i + 1), JoinedAt: mmT0.Add(time.Duration(rng.IntN(600_000)) * time.Millisecond),
			Members: []Member{{UserID: "u" + strconv.Itoa(i), Rating: 1500 + 250*rng.NormFloat64(), RD: 25 + 300*rng.Float64()}}}
	}
	return es
}

// BenchmarkFormMatches is one pass over 10,000 queued solo players, 10 minutes
// of arrivals, at the end of which most have waited past a bucket or two.
func BenchmarkFormMatches(b *testing.B) {
	for _, k := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("n=10000/k=%d", k), func(b *testing.B) {
			es := benchQueue(10000, k)
			s := DefaultSettings()
			s.TeamSize = k
			now := mmT0.Add(10 * time.Minute)
			var m Matcher
			b.ReportAllocs()
			matches := 0
			for b.Loop() {
				matches = len(m.Form(es, s, now))
			}
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

// plainSoloSplit is bestSoloSplit without pruning: every mask with k−1 of
// the other 2k−1 players in increasing order (Gosper's hack), team 0's sums
// folded from the anchor up, the first smallest Δ_eff kept.
func plainSoloSplit(m *Matcher, s Settings, totR, totRD2 float64) uint32 {
	k := s.TeamSize
	if k == 1 {
		return 0
	}
	ch := m.chosen
	a := &m.ent[ch[0]]
	bestMask, bestDelta := uint32(0), math.Inf(1)
	for x := uint32(1)<<(k-1) - 1; x < 1<<(2*k-1); {
		sumR, sumRD2 := a.sumR, a.sumRD2
		for i := range 2*k - 1 {
			if x&(1<<i) != 0 {
				sumR += m.ent[ch[i+1]].sumR
				sumRD2 += m.ent[ch[i+1]].sumRD2
			}
		}
		if d := deltaEff(s, float64(k), sumR, sumRD2, totR, totRD2); d < bestDelta {
			bestDelta, bestMask = d, x
		}
		c := x & -x
		r := x + c
		x = (r^x)/c>>2 | r
	}
	return bestMask
}

// TestBestSoloSplitAgreesWithPlainLoop: the pruned search, for every k, and
// bestSoloSplit return the very mask of the plain loop, ties included, on
// random players, near-equal players (every split within rounding of the
// best), equal players, few distinct values, and extreme RDs and boosts.
func TestBestSoloSplitAgreesWithPlainLoop(t *testing.T) {
	kinds := []string{"random", "close", "equal", "few values", "extreme"}
	for k := 2; k <= rating.MaxTeamSize; k++ {
		for ki, kind := range kinds {
			rng := rand.New(rand.NewPCG(uint64(k), uint64(ki)))
			for trial := range 300 {
				s := DefaultSettings()
				s.TeamSize = k
				if trial%3 == 1 {
					s.Boost = rng.Float64() * 3
				}
				var m Matcher
				var totR, totRD2 float64
				for i := range 2 * k {
					var e mmEntry
					switch kind {
					case "random":
						e.sumR, e.sumRD2 = 1500+300*rng.NormFloat64(), math.Pow(25+300*rng.Float64(), 2)
					case "close":
						e.sumR, e.sumRD2 = 1500+1e-9*rng.NormFloat64(), math.Pow(200+1e-9*rng.Float64(), 2)
					case "equal":
						e.sumR, e.sumRD2 = 1500, 130*130
					case "few values":
						e.sumR, e.sumRD2 = float64(1490+10*rng.IntN(3)), math.Pow(float64(100+25*rng.IntN(2)), 2)
					case "extreme":
						e.sumR, e.sumRD2 = 1500+3000*rng.NormFloat64(), math.Pow([]float64{0, 1e-6, 350, 1e4}[rng.IntN(4)], 2)
					}
					m.ent = append(m.ent, e)
					m.chosen = append(m.chosen, int32(i))
					totR += e.sumR
					totRD2 += e.sumRD2
				}
				want := plainSoloSplit(&m, s, totR, totRD2)
				if got := m.prunedSoloSplit(s, totR, totRD2); got != want {
					t.Fatalf("k=%d %s trial %d: Got(prunedSoloSplit) = %b, want %b", k, kind, trial, got, want)
				}
				if got := m.bestSoloSplit(s, totR, totRD2); got != want {
					t.Fatalf("k=%d %s trial %d: Got(bestSoloSplit) = %b, want %b", k, kind, trial, got, want)
				}
			}
		}
	}
}
