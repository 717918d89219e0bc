package rating

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCalibratorStartsAsIdentity: before any result the map changes nothing,
// so a queue that turns calibration on shows the model's own chances.
func TestCalibratorStartsAsIdentity(t *testing.T) {
	c := NewCalibrator(DefaultCalPrior, DefaultCalMemory)
	for _, p := range []float64{0.01, 0.3, 0.5, 0.77, 0.999} {
		if got := c.Predict(p, 0); !near(got, p, 1e-12) {
			t.Errorf("Got(Predict(%g)) = %g, want %g", p, got, p)
		}
	}
}

// TestCalibratorLearnsOverconfidence feeds predictions whose logit is twice
// the true one (an overconfident model) and a home bias; the map must find
// slope ½ and the bias, and its calibrated log loss must beat the raw one.
func TestCalibratorLearnsOverconfidence(t *testing.T) {
	tests := []struct {
		name        string
		memory      float64
		slope, bias float64
	}{
		{"never forgets", 0, 0.5, 0.3},
		{"forgets", 5000, 0.5, 0.3},
		{"underconfident", 0, 2, -0.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			c := NewCalibrator(DefaultCalPrior, tt.memory)
			c.Sided = true
			var rawLL, calLL float64
			const n = 40000
			for i := range n {
				z := rng.NormFloat64()
				truth := sigmoid(z)
				p := sigmoid((z - tt.bias) / tt.slope) // the model's distorted view
				y := 0.0
				if rng.Float64() < truth {
					y = 1
				}
				if i >= n/2 {
					q := c.Predict(p, 0)
					rawLL -= y*math.Log(p) + (1-y)*math.Log(1-p)
					calLL -= y*math.Log(q) + (1-y)*math.Log(1-q)
				}
				c.Observe(p, 0, y)
			}
			if !near(c.W[0], tt.slope, 0.1*tt.slope) || !near(c.W[1], tt.bias, 0.05) {
				t.Errorf("Got(a, b) = (%.3f, %.3f), want (%g, %g) ± (10%%, 0.05)", c.W[0], c.W[1], tt.slope, tt.bias)
			}
			if calLL >= rawLL {
				t.Errorf("Got(calibrated log loss) = %.1f, want below the raw %.1f", calLL, rawLL)
			}
			if c.N != n {
				t.Errorf("Got(N) = %d, want %d", c.N, n)
			}
		})
	}
}

// TestCalibratorSymmetric: on a history whose team order means nothing
// (not Sided) the same home bias teaches no intercept, and the map stays
// symmetric, P(A beats B) = 1 − P(B beats A), while the slope is learnt.
func TestCalibratorSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := NewCalibrator(DefaultCalPrior, 0)
	for range 40000 {
		z := rng.NormFloat64()
		p := sigmoid((z - 0.3) / 0.5)
		y := 0.0
		if rng.Float64() < sigmoid(z) {
			y = 1
		}
		c.Observe(p, 0, y)
	}
	if c.W[1] != 0 {
		t.Errorf("Got(b) = %v, want 0 on a history without sides", c.W[1])
	}
	if c.W[0] > 0.8 {
		t.Errorf("Got(a) = %.3f, want the overconfidence learnt (below 0.8)", c.W[0])
	}
	for _, p := range []float64{0.1, 0.35, 0.5, 0.8} {
		if got := c.Predict(p, 0) + c.Predict(1-p, 0); !near(got, 1, 1e-12) {
			t.Errorf("Got(Predict(%g) + Predict(%g)) = %v, want 1", p, 1-p, got)
		}
	}
}

// TestCalibratorLearnsExtraFeature: the partnership slot gets the weight
// the data holds and stays 0 when the feature is always 0.
func TestCalibratorLearnsExtraFeature(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	c := NewCalibrator(DefaultCalPrior, 0)
	for range 40000 {
		z, x := rng.NormFloat64(), rng.NormFloat64()
		y := 0.0
		if rng.Float64() < sigmoid(z+0.4*x) {
			y = 1
		}
		c.Observe(sigmoid(z), x, y)
	}
	if !near(c.W[2], 0.4, 0.05) || !near(c.W[0], 1, 0.1) {
		t.Errorf("Got(W) = %v, want a ≈ 1, w ≈ 0.4", c.W)
	}
	zero := NewCalibrator(DefaultCalPrior, 0)
	for range 1000 {
		zero.Observe(0.7, 0, 1)
	}
	if zero.W[2] != 0 {
		t.Errorf("Got(W[2]) = %g without the feature, want 0", zero.W[2])
	}
}

// TestCalibratorStateRoundTrips: the state a queue stores is the whole
// state, so a calibrator restored from JSON goes on exactly as the original.
func TestCalibratorStateRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c := NewCalibrator(DefaultCalPrior, DefaultCalMemory)
	for range 500 {
		c.Observe(rng.Float64(), rng.NormFloat64(), float64(rng.IntN(3))/2)
	}
	blob, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var r Calibrator
	if err := json.Unmarshal(blob, &r); err != nil {
		t.Fatal(err)
	}
	for range 500 {
		p, x, y := rng.Float64(), rng.NormFloat64(), float64(rng.IntN(2))
		if a, b := c.Predict(p, x), r.Predict(p, x); a != b {
			t.Fatalf("Got(restored Predict) = %v, want %v exactly", b, a)
		}
		c.Observe(p, x, y)
		r.Observe(p, x, y)
	}
	if c.W != r.W || c.H != r.H || c.N != r.N {
		t.Errorf("Got(restored state) = %+v, want %+v", r, *c)
	}
}

// TestCalibratorExtremes: certain predictions and long one-sided runs keep
// the map finite and the slope non-negative.
func TestCalibratorExtremes(t *testing.T) {
	c := NewCalibrator(1, 100)
	for i := range 5000 {
		p := []float64{0, 1, 1e-300, 0.5, math.NaN()}[i%5]
		c.Observe(p, 0, 1)
		q := c.Predict(p, 0)
		if math.IsNaN(q) || q < 0 || q > 1 {
			t.Fatalf("Got(Predict(%g)) = %g after %d results, want a probability", p, q, i)
		}
	}
	if c.W[0] < 0 {
		t.Errorf("Got(slope) = %g, want ≥ 0", c.W[0])
	}
}
