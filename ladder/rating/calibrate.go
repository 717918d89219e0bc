package rating

import "math"

// calFeatures is the number of inputs of the recalibration: the model's
// logit, an intercept, and the partnership term.
const calFeatures = 3

// Calibrator recalibrates a model's win chances on a queue's own history
// (issue 18): p' = σ(a·logit(p) + b + w·x), where x is an optional extra
// feature (the partnership term, PairExperience) and (a, b, w) is fitted by
// an online Newton step on every confirmed result, so "65%" comes to mean
// 65% in that community. The model's ratings are untouched: only the
// probability shown and used for match quality changes.
//
// The fit is prequential: Predict uses only the results observed before, and
// a replay of the same log gives bit-identical numbers, so the state can be
// rebuilt from the match log like ratings are. The zero value is not ready;
// use NewCalibrator. The exported fields are the whole state and round-trip
// through encoding/json.
type Calibrator struct {
	// W holds the weights (a, b, w), starting at (1, 0, 0): the identity.
	W [calFeatures]float64 `json:"w"`
	// H is the upper triangle of the precision (the accumulated Hessian of
	// the log loss plus the prior), row by row: H00 H01 H02 H11 H12 H22.
	H [6]float64 `json:"h"`
	// N counts observed results.
	N int `json:"n"`
	// Prior is the prior precision around the identity, in matches' worth:
	// it keeps the first few results from swinging the map.
	Prior float64 `json:"prior"`
	// Memory is the forgetting horizon in matches (0: never forget). Old
	// results fade with weight (1 − 1/Memory) per match, so the map follows
	// a community whose game, or whose model constants, change.
	Memory float64 `json:"memory"`
	// Sided marks a history whose team order means something (home and
	// away, attack and defence): only then is the intercept b learnt. When
	// the order is assigned by a matchmaker it means nothing, and b stays 0,
	// so the map is symmetric: P(A beats B) = 1 − P(B beats A).
	Sided bool `json:"sided,omitempty"`
}

// Default calibrator settings, chosen on the warm-up part (first 80%) of
// the ATP doubles history alone, scoring its second half: log loss is flat
// (within 0.0003) for a prior of 10 to 200 and a horizon of 2,000 to 20,000
// matches; a horizon of a few thousand gives the lowest ECE, never
// forgetting the highest.
const (
	DefaultCalPrior  = 50
	DefaultCalMemory = 5000
)

// NewCalibrator returns the identity map with the given prior precision
// (in matches) and forgetting horizon (0: never forget).
func NewCalibrator(prior, memory float64) *Calibrator {
	c := &Calibrator{W: [calFeatures]float64{1, 0, 0}, Prior: prior, Memory: memory}
	c.H[0], c.H[3], c.H[5] = prior, prior, prior
	return c
}

// calLogitClip bounds |logit p| like the clip of the log loss (docs/spec.md 2.3):
// logit(1 − 1e-6) ≈ 13.8.
var calLogitClip = math.Log((1 - probClip) / probClip)

func calLogit(p float64) float64 {
	if !(p > probClip) {
		return -calLogitClip
	}
	if !(p < 1-probClip) {
		return calLogitClip
	}
	return math.Log(p / (1 - p))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// Predict returns the recalibrated chance of the model's prediction p with
// the extra feature x (0 without a partnership term).
func (c *Calibrator) Predict(p, x float64) float64 {
	return sigmoid(c.W[0]*calLogit(p) + c.W[1]*c.intercept() + c.W[2]*x)
}

// intercept is the intercept's feature: 1 on a sided history, else 0,
// which leaves b at 0 (its gradient is 0 and its precision the prior's).
func (c *Calibrator) intercept() float64 {
	if c.Sided {
		return 1
	}
	return 0
}

// Observe folds one result y (1 win, 0.5 draw, 0 loss of the predicted side)
// into the map: one Newton step on its log loss, with the precision
// accumulated over the past (recursive logistic regression).
func (c *Calibrator) Observe(p, x, y float64) {
	f := [calFeatures]float64{calLogit(p), c.intercept(), x}
	q := sigmoid(c.W[0]*f[0] + c.W[1]*f[1] + c.W[2]*f[2])
	if c.Memory > 0 {
		// Fade the past towards the prior, so the map can move again.
		rho := 1 - 1/c.Memory
		for i := range c.H {
			c.H[i] *= rho
		}
		c.H[0] += (1 - rho) * c.Prior
		c.H[3] += (1 - rho) * c.Prior
		c.H[5] += (1 - rho) * c.Prior
	}
	// The Hessian of the log loss is q(1−q)·f fᵀ; a floor keeps a run of
	// confident predictions from making it singular.
	v := math.Max(q*(1-q), 1e-4)
	k := 0
	for i := 0; i < calFeatures; i++ {
		for j := i; j < calFeatures; j++ {
			c.H[k] += v * f[i] * f[j]
			k++
		}
	}
	var g [calFeatures]float64
	for i := range g {
		g[i] = (q - y) * f[i]
	}
	step, ok := solve3(c.H, g)
	if !ok {
		return
	}
	for i := range c.W {
		c.W[i] -= step[i]
	}
	// A negative slope would turn the model's favourite into the underdog;
	// no history of real play should teach that, so it is a floor.
	c.W[0] = math.Max(c.W[0], 0)
	c.N++
}

// solve3 solves H·x = g for the symmetric 3×3 H given by its upper triangle,
// by Cholesky decomposition; ok is false when H is not positive definite.
func solve3(h [6]float64, g [calFeatures]float64) (x [calFeatures]float64, ok bool) {
	a := [3][3]float64{{h[0], h[1], h[2]}, {h[1], h[3], h[4]}, {h[2], h[4], h[5]}}
	var l [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				if !(s > 0) {
					return x, false
				}
				l[i][i] = math.Sqrt(s)
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	var y [3]float64
	for i := 0; i < 3; i++ {
		s := g[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	for i := 2; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < 3; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x, true
}
