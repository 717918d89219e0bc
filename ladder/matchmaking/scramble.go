package matchmaking

import "slices"

// DefaultScrambleStreak is seed 001's Arena trigger: "a scramble triggers
// when one team wins 3 rounds in a row".
const DefaultScrambleStreak = 3

// maxScrambleStreak bounds the threshold a caller may ask for; a lobby that
// needs more than this many straight wins before a scramble never gets one.
const maxScrambleStreak = 100

// ScrambleDue reports whether a lobby should be scrambled (seed 001, Session
// Flow: from round 3 on, "a scramble triggers when one team wins 3 rounds in
// a row"). winners lists the recent rounds' winners, oldest first: 1 or 2,
// or 0 for a stalemate, which breaks any streak. It is due when the last
// threshold rounds were all won by the same team; threshold 0 means
// DefaultScrambleStreak. The caller clears its streak after scrambling;
// ScrambleDue keeps no state.
//
// A winner other than 0, 1 or 2, or a threshold outside 0..100, is an *Error.
func ScrambleDue(winners []int, threshold int) (bool, error) {
	if threshold == 0 {
		threshold = DefaultScrambleStreak
	}
	if threshold < 1 || threshold > maxScrambleStreak {
		return false, invalidf("the scramble threshold must be from 1 to %d rounds, not %d", maxScrambleStreak, threshold)
	}
	for i, w := range winners {
		if w < 0 || w > 2 {
			return false, invalidf("round %d: the winner must be 1, 2 or 0 for a stalemate, not %d", i+1, w)
		}
	}
	if len(winners) < threshold {
		return false, nil
	}
	last := winners[len(winners)-threshold:]
	if last[0] == 0 {
		return false, nil
	}
	for _, w := range last {
		if w != last[0] {
			return false, nil
		}
	}
	return true, nil
}

// ScrambleSplit is the new teams of a scramble: the optimal split of the
// whole lobby (seed 001 F7) with nobody sitting out, as a running lobby
// cannot bench anyone. An odd lobby gets a phantom player rated 0: the best
// equal split of N+1 players with one seat worth nothing is exactly the
// best ⌈N/2⌉ against ⌊N/2⌋ split, so BalanceLobby finds it unchanged. The
// Split's indexes refer to ratings; SitOut is empty.
func ScrambleSplit(ratings []float64) (Split, error) {
	n := len(ratings)
	if n < 1 {
		return Split{}, invalidf("a scramble needs at least one player")
	}
	rs := ratings
	if n%2 == 1 {
		rs = append(slices.Clone(ratings), 0)
	}
	sp, err := BalanceLobby(rs, len(rs)/2)
	if err != nil {
		return Split{}, err
	}
	drop := func(idx []int) []int { return slices.DeleteFunc(idx, func(i int) bool { return i == n }) }
	sp.A, sp.B, sp.SitOut = drop(sp.A), drop(sp.B), []int{}
	return sp, nil
}
