package rating

import (
	"math"
	"math/big"
	"testing"
)

// TestTruncTail checks TrueSkill's v(t) = φ(t)/Φ(t) and w(t) = v(v + t)
// against values computed here with math/big at thousands of bits, by a
// method independent of the model's: erfc from Kummer's series of erf and
// exp from its Taylor series for |t| ≤ 60, and the asymptotic series of
// the Mills ratio (whose terms are below 2^-prec long before they would
// grow) for |t| ≥ 200. Before the fix, w was off by 1.4e−7 just
// below t = −30 (asymptotic series) and by 1e−10 at −30 (φ/Φ).
func TestTruncTail(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    float64
	}{
		{"main branch at -2", -2},
		{"main branch at -4.99", -4.99},
		{"tail at -5.01", -5.01},
		{"tail at -8", -8},
		{"main branch at -20", -20},
		{"main branch at -30", -30},
		{"tail just below -30", -30.0001},
		{"tail at -31", -31},
		{"tail at -33.3", -33.3},
		{"tail at -40", -40},
		{"tail at -60", -60},
		{"tail at -200", -200},
		{"tail at -1e4", -1e4},
		{"tail at -1e8", -1e8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantV, wantW := refVW(-tc.t)
			if got := truncV(tc.t); !relNear(got, wantV, 1e-13) {
				t.Errorf("Got(truncV(%g)) = %.17g, want %.17g (relative error %.2g)", tc.t, got, wantV, math.Abs(got-wantV)/wantV)
			}
			if got := truncW(tc.t); !relNear(got, wantW, 1e-12) {
				t.Errorf("Got(truncW(%g)) = %.17g, want %.17g (relative error %.2g)", tc.t, got, wantW, math.Abs(got-wantW)/wantW)
			}
		})
	}
}

func relNear(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// refVW returns v(−x) and w(−x) for x > 0, rounded from big.Float.
func refVW(x float64) (v, w float64) {
	var vb *big.Float
	if x <= 100 {
		vb = refVKummer(x)
	} else {
		vb = refVAsymptotic(x)
	}
	prec := vb.Prec()
	xb := new(big.Float).SetPrec(prec).SetFloat64(x)
	wb := new(big.Float).SetPrec(prec).Sub(vb, xb)
	wb.Mul(wb, vb)
	v, _ = vb.Float64()
	w, _ = wb.Float64()
	return v, w
}

// refVKummer computes v(−x) = φ(x)/Φ(−x) = 2/(√(2π)·Q) with
// Q = e^{z²}·erfc(z), z = x/√2, and erfc(z) = 1 − (2z/√π)e^{−z²}S from
// Kummer's all-positive series S = Σ (2z²)ⁿ/(2n+1)!!. Q is e^{z²} minus
// a number that agrees with it to about z²/ln 2 bits, so the precision
// covers that and 200 bits more.
func refVKummer(x float64) *big.Float {
	z2f := x * x / 2
	prec := uint(z2f*1.45) + 256
	f := func() *big.Float { return new(big.Float).SetPrec(prec) }
	// x*x/2 is exact in binary for the test's x (few significant bits).
	z2 := f().SetFloat64(x)
	z2.Mul(z2, z2)
	z2.Quo(z2, f().SetInt64(2))
	z := f().Sqrt(z2)
	pi := bigPi(prec)

	s, term := f().SetInt64(1), f().SetInt64(1)
	twoZ2 := f().Mul(z2, f().SetInt64(2))
	eps := f().SetMantExp(f().SetInt64(1), -int(prec))
	for n := int64(0); ; n++ {
		term.Mul(term, twoZ2)
		term.Quo(term, f().SetInt64(2*n+3))
		s.Add(s, term)
		if n > int64(z2f) && f().Quo(term, s).Cmp(eps) < 0 {
			break
		}
	}
	// Q = e^{z²} − 2z·S/√π
	q := f().Mul(z, s)
	q.Mul(q, f().SetInt64(2))
	q.Quo(q, f().Sqrt(pi))
	q.Sub(bigExp(z2, prec), q)
	// v = 2/(√(2π)·Q)
	den := f().Sqrt(f().Mul(pi, f().SetInt64(2)))
	den.Mul(den, q)
	return f().Quo(f().SetInt64(2), den)
}

// refVAsymptotic computes v(−x) = 1/R(x) from the Mills ratio's series
// R(x) = (1/x)·Σ (−1)ⁿ(2n−1)!!/x²ⁿ, stopped at a term below 2^−prec: for
// x ≥ 100 that term comes long before the terms start to grow (n ≈ x²/2),
// so the truncation error is below the precision.
func refVAsymptotic(x float64) *big.Float {
	const prec = 512
	f := func() *big.Float { return new(big.Float).SetPrec(prec) }
	xb := f().SetFloat64(x)
	x2 := f().Mul(xb, xb)
	sum, term := f().SetInt64(1), f().SetInt64(1)
	eps := f().SetMantExp(f().SetInt64(1), -prec)
	for n := int64(1); term.Cmp(eps) > 0 || term.Cmp(f().Neg(eps)) < 0; n++ {
		term.Mul(term, f().SetInt64(-(2*n - 1)))
		term.Quo(term, x2)
		sum.Add(sum, term)
	}
	// v = x / sum
	return f().Quo(xb, sum)
}

// bigExp returns e^y for y ≥ 0 by its Taylor series.
func bigExp(y *big.Float, prec uint) *big.Float {
	f := func() *big.Float { return new(big.Float).SetPrec(prec) }
	sum, term := f().SetInt64(1), f().SetInt64(1)
	yf, _ := y.Float64()
	eps := f().SetMantExp(f().SetInt64(1), -int(prec))
	for n := int64(1); ; n++ {
		term.Mul(term, y)
		term.Quo(term, f().SetInt64(n))
		sum.Add(sum, term)
		if float64(n) > yf && f().Quo(term, sum).Cmp(eps) < 0 {
			return sum
		}
	}
}

// bigPi returns π by Machin's formula, 16·atan(1/5) − 4·atan(1/239).
func bigPi(prec uint) *big.Float {
	p := prec + 32
	atanInv := func(n int64) *big.Float {
		f := func() *big.Float { return new(big.Float).SetPrec(p) }
		sum := f()
		pow := f().Quo(f().SetInt64(1), f().SetInt64(n)) // 1/n^(2k+1)
		n2 := f().SetInt64(n * n)
		eps := f().SetMantExp(f().SetInt64(1), -int(p))
		for k := int64(0); pow.Cmp(eps) > 0; k++ {
			t := f().Quo(pow, f().SetInt64(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			pow.Quo(pow, n2)
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, new(big.Float).SetPrec(p).SetInt64(16))
	b := atanInv(239)
	b.Mul(b, new(big.Float).SetPrec(p).SetInt64(4))
	return a.Sub(a, b).SetPrec(prec)
}

// TestOpenSkillLargeMu: with a large mu, e^(μ/c) overflows to +Inf and the
// Plackett-Luce shares were Inf/Inf = NaN. Shifted by the
// larger exponent they are finite, and the update equals the one of the
// same match with every mu lowered by the same amount, since the shares
// depend only on the difference of the team means.
func TestOpenSkillLargeMu(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mu    float64
		score float64
	}{
		{"win at mu 1e5", 1e5, 1},
		{"loss at mu 1e5", 1e5, 0},
		{"draw at mu 1e5", 1e5, 0.5},
		{"win at mu -1e5", -1e5, 1},
		{"win at mu 1e9", 1e9, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &OpenSkill{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 1e-4, Tau: 25.0 / 300}
			offsets := []float64{2, -1, 3, 0}
			big, small := make([]State, 4), make([]State, 4)
			for i, o := range offsets {
				big[i] = State{Rating: tc.mu + o, Dev: 8}
				small[i] = State{Rating: o, Dev: 8}
			}
			m.Update(big[:2], big[2:], tc.score, t0)
			m.Update(small[:2], small[2:], tc.score, t0)
			for i := range big {
				got, want := big[i].Rating-tc.mu, small[i].Rating
				if math.IsNaN(big[i].Rating) || math.IsNaN(big[i].Dev) || math.IsInf(big[i].Rating, 0) {
					t.Fatalf("Got(player %d) = %g/%g, want finite", i, big[i].Rating, big[i].Dev)
				}
				// mu − offset loses the low bits of mu's magnitude.
				if tol := 1e-9 + math.Abs(tc.mu)*1e-15; math.Abs(got-want) > tol {
					t.Errorf("Got(player %d change) = %.12g, want %.12g", i, got, want)
				}
				if big[i].Dev != small[i].Dev {
					t.Errorf("Got(player %d sigma) = %.17g, want %.17g", i, big[i].Dev, small[i].Dev)
				}
			}
		})
	}
}
