package rating

import "math"

// gxeOpponentRD is the deviation of the reference opponent of GXE (docs/spec.md 4).
const gxeOpponentRD = 130

// GXE returns the Glicko X-Act Estimate in percent (0..100): the Glicko-1
// chance of beating a 1500-rated opponent with RD 130 (docs/spec.md 4), where the
// two deviations combine as √(rd² + 130²). Showdown's published formula has
// the same shape; docs/spec.md 4 fixes the reference opponent at 1500/130.
func GXE(rating, rd float64) float64 {
	return 100 * glickoE(rating, 1500, math.Sqrt(rd*rd+gxeOpponentRD*gxeOpponentRD))
}

// ModelGXE returns a player's GXE in percent under model m: the model's own
// chance that s beats a reference opponent one-on-one (docs/spec.md 4, generalised
// to every model of docs/spec.md 2).
//
// The Glicko-scale models (team-glicko, glicko, glicko-boost) keep docs/spec.md 4
// exactly: GXE(R, RD) of the displayed rating against 1500/130. They do not
// go through Predict, whose certainty boost and inactivity growth are not
// part of Showdown's formula.
//
// Every other model rates on its own scale (OpenSkill and TrueSkill near
// mu 25, SynElo from 1000, Elo without a deviation), where a 1500/130
// opponent means nothing; there the reference opponent is the model's New()
// state, a fresh player, and the chance is the model's Predict of a 1v1
// played at the player's last match time, so neither side's deviation grows
// for inactivity. A player equal to a fresh one gets 50.
func ModelGXE(m Model, s State) float64 {
	if glickoScale(m) {
		return GXE(m.Display(s))
	}
	return predictGXE(m, s)
}

// glickoScale reports whether m displays ratings on the Glicko scale that
// docs/spec.md 4's 1500/130 reference opponent belongs to.
func glickoScale(m Model) bool {
	switch m.(type) {
	case *TeamGlicko, *Glicko:
		return true
	}
	return false
}

// predictGXE is ModelGXE for the models off the Glicko scale.
func predictGXE(m Model, s State) float64 {
	a, b := [1]State{s}, [1]State{m.New()}
	return 100 * m.Predict(a[:], b[:], s.Last)
}

// DisplayedGXE is ModelGXE for a stored row whose display columns hold
// (rating, dev). On the Glicko scale it reads those columns, so a leaderboard
// shows exactly GXE(R, RD) of the R ± RD beside it; elsewhere it uses s.
func DisplayedGXE(m Model, rating, dev float64, s State) float64 {
	if glickoScale(m) {
		return GXE(rating, dev)
	}
	return predictGXE(m, s)
}
