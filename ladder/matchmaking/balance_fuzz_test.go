package matchmaking

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"
)

// ratingsFrom decodes up to max float64s (little-endian) from b.
func ratingsFrom(b []byte, max int) []float64 {
	var out []float64
	for len(b) >= 8 && len(out) < max {
		out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return out
}

// FuzzBalanceLobby: any ratings and team size give a invalid-input error (*Error)
// (non-finite or absurd ratings, bad sizes) or a split that uses every
// player exactly once, two teams of the asked size, and the gap it claims;
// for lobbies of up to 10 it is optimal, as brute force confirms.
func FuzzBalanceLobby(f *testing.F) {
	seed := func(rs ...float64) []byte {
		var b []byte
		for _, r := range rs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r))
		}
		return b
	}
	f.Add(seed(1500, 1600, 1700, 1800), 0)
	f.Add(seed(1500, 1600, 1700, 1800, 1900), 2)
	f.Add(seed(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 3)
	f.Add(seed(math.NaN(), 1500), 1)
	f.Add(seed(1e300, -1e300, 1e300, -1e300), 2)
	f.Add(seed(1500, 1500), -1)
	f.Fuzz(func(t *testing.T, raw []byte, teamSize int) {
		rs := ratingsFrom(raw, 12)
		sp, err := BalanceLobby(rs, teamSize)
		if err != nil {
			if !isInvalid(err) {
				t.Fatalf("BalanceLobby(%v, %d) error %v, want an invalid-input error", rs, teamSize, err)
			}
			return
		}
		k := teamSize
		if k == 0 {
			k = len(rs) / 2
		}
		if len(sp.A) != k || len(sp.B) != k || len(sp.A)+len(sp.B)+len(sp.SitOut) != len(rs) {
			t.Fatalf("BalanceLobby(%v, %d) = %+v: want two teams of %d and the rest sitting out", rs, teamSize, sp, k)
		}
		all := slices.Concat(sp.A, sp.B, sp.SitOut)
		slices.Sort(all)
		for i, p := range all {
			if p != i {
				t.Fatalf("BalanceLobby(%v, %d) = %+v: players not used exactly once", rs, teamSize, sp)
			}
		}
		sum := func(ix []int) float64 {
			s := 0.0
			for _, i := range ix {
				s += rs[i]
			}
			return s
		}
		gap := math.Abs(sum(sp.A) - sum(sp.B))
		if math.IsNaN(sp.Gap) || math.Abs(gap-sp.Gap) > 1e-9*math.Max(1, gap) {
			t.Fatalf("BalanceLobby(%v, %d): Got(gap) = %v, the teams' sums differ by %v", rs, teamSize, sp.Gap, gap)
		}
		if len(rs) <= 10 {
			if best := bruteGap(rs, k); gap > best+1e-9*math.Max(1, best) {
				t.Fatalf("BalanceLobby(%v, %d): Got(gap) = %v, brute force finds %v", rs, teamSize, gap, best)
			}
		}
	})
}

// FuzzFormMatches: whatever the queue holds (parties, ratings, RDs,
// waits), the matches formed use each queue entry at most once, put each
// player in one team only, have k players a side with parties kept
// together, and a finite quality within (0, 1].
func FuzzFormMatches(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 2, 1, 1}, uint8(2), int64(0))
	f.Add([]byte{2, 1, 2, 1, 1, 1, 3, 3, 3}, uint8(3), int64(600))
	f.Add([]byte{0, 255, 17, 4, 4, 4, 4, 4, 4, 4, 4}, uint8(1), int64(-5))
	f.Fuzz(func(t *testing.T, raw []byte, k uint8, waitS int64) {
		s := DefaultSettings()
		s.TeamSize = int(k%4) + 1
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var entries []Entry
		owner := map[string]int64{}
		for i := 0; i+1 < len(raw) && len(entries) < 24; i += 2 {
			size := int(raw[i])%s.TeamSize + 1
			e := Entry{ID: int64(len(entries) + 1), JoinedAt: now.Add(-time.Duration(waitS%100000+int64(raw[i+1])) * time.Second)}
			for j := range size {
				u := string(rune('a'+len(entries))) + string(rune('0'+j))
				e.Members = append(e.Members, Member{UserID: u, Rating: 1000 + 10*float64(raw[i+1]) + float64(j), RD: 25 + float64(raw[i+1]%200)})
				owner[u] = e.ID
			}
			entries = append(entries, e)
		}
		ps := FormMatches(entries, s, now)
		used := map[int64]bool{}
		seen := map[string]bool{}
		for _, p := range ps {
			for _, id := range p.EntryIDs {
				if used[id] {
					t.Fatalf("entry %d used in two matches: %+v", id, ps)
				}
				used[id] = true
			}
			for side, team := range p.Teams {
				if len(team) != s.TeamSize {
					t.Fatalf("team %d has %d players, want %d: %+v", side, len(team), s.TeamSize, p)
				}
				for _, u := range team {
					if seen[u] {
						t.Fatalf("player %s placed twice: %+v", u, ps)
					}
					seen[u] = true
					if !slices.Contains(p.EntryIDs, owner[u]) {
						t.Fatalf("player %s of entry %d is in a match of entries %v", u, owner[u], p.EntryIDs)
					}
				}
			}
			for _, id := range p.EntryIDs {
				for u, e := range owner {
					if e == id && !seen[u] {
						t.Fatalf("party of entry %d split: %s left out of %+v", id, u, p)
					}
				}
			}
			if !(p.Quality > 0 && p.Quality <= 1) {
				t.Fatalf("Got(quality) = %v, want within (0, 1]", p.Quality)
			}
		}
	})
}
