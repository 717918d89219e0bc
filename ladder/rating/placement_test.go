package rating

import (
	"math"
	"testing"
	"time"
)

func TestPlacementOffByDefault(t *testing.T) {
	for _, name := range ModelNames() {
		m, err := NewModel(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*Placement); ok {
			t.Errorf("Got(NewModel(%s, nil)) = a Placement, want the bare model", name)
		}
		on, err := NewModel(name, map[string]float64{"placement_games": 10})
		if err != nil {
			t.Fatal(err)
		}
		p, ok := on.(*Placement)
		if !ok || p.Games != 10 || p.Name() != name {
			t.Errorf("Got(NewModel(%s, placement_games=10)) = %T %+v, want a Placement of 10 games named %s", name, on, on, name)
		}
	}
}

func TestPlacementParamsRefused(t *testing.T) {
	for name, params := range map[string]map[string]float64{
		"fractional games": {"placement_games": 2.5},
		"negative games":   {"placement_games": -1},
		"too many games":   {"placement_games": 51},
		"zero shrink":      {"placement_shrink": 0},
		"shrink above 1":   {"placement_shrink": 1.5},
		"tiny step":        {"placement_step": 0.5},
	} {
		if _, err := NewModel("team-glicko", params); err == nil {
			t.Errorf("Got(NewModel(team-glicko, %s %v)) = nil error, want one", name, params)
		}
	}
}

// TestPlacementSteps follows one newcomer through the binary search: up by
// the step after a win, down by the shrunk step after a loss, unchanged by
// a draw, and the model's own update once the calibration matches are over.
func TestPlacementSteps(t *testing.T) {
	m, err := NewModel("elo", map[string]float64{"placement_games": 3, "placement_step": 200, "placement_shrink": 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(*Placement).Step; math.Abs(got-200) > 1e-6 {
		t.Fatalf("Got(Step of elo) = %v, want 200 (the same Elo points)", got)
	}
	base := &Elo{R0: 1500, K: 32}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	newcomer, rival := m.New(), m.New()
	steps := []struct {
		score float64
		want  float64
	}{
		{1, 1700},   // win: +200
		{0, 1600},   // loss: −100
		{0.5, 1600}, // draw: no move, the step still shrinks
	}
	for i, s := range steps {
		a, b := []State{newcomer}, []State{rival}
		m.Update(a, b, s.score, at)
		newcomer, rival = a[0], b[0]
		if newcomer.Rating != s.want || newcomer.Games != i+1 {
			t.Errorf("Got(rating, games after match %d) = %v, %d, want %v, %d", i+1, newcomer.Rating, newcomer.Games, s.want, i+1)
		}
	}
	// rival is in calibration too: the mirror of every step
	if rival.Rating != 1400 {
		t.Errorf("Got(rival rating) = %v, want 1400", rival.Rating)
	}
	// after three matches the model's own update applies
	a, b := []State{newcomer}, []State{{Rating: 1500, Games: 40}}
	wa, wb := []State{newcomer}, []State{{Rating: 1500, Games: 40}}
	m.Update(a, b, 1, at)
	base.Update(wa, wb, 1, at)
	if a[0] != wa[0] || b[0] != wb[0] {
		t.Errorf("Got(update after calibration) = %+v %+v, want the model's %+v %+v", a[0], b[0], wa[0], wb[0])
	}
}

// TestPlacementEstablishedPlayersUntouched checks that a settled teammate
// or opponent of a calibrating player moves exactly as under the model.
func TestPlacementEstablishedPlayersUntouched(t *testing.T) {
	m, err := NewModel("team-glicko", map[string]float64{"placement_games": 10})
	if err != nil {
		t.Fatal(err)
	}
	base := Unwrap(m)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	settled := State{Rating: 1620, Dev: 60, Games: 30, Last: at.Add(-time.Hour)}
	a, b := []State{m.New(), settled}, []State{settled, settled}
	wa, wb := []State{base.New(), settled}, []State{settled, settled}
	m.Update(a, b, 0, at)
	base.Update(wa, wb, 0, at)
	if a[1] != wa[1] || b[0] != wb[0] || b[1] != wb[1] {
		t.Errorf("Got(settled players) = %+v %+v %+v, want %+v %+v %+v", a[1], b[0], b[1], wa[1], wb[0], wb[1])
	}
	if a[0].Dev != wa[0].Dev || a[0].Games != 1 {
		t.Errorf("Got(newcomer dev, games) = %v, %d, want the model's %v, 1", a[0].Dev, a[0].Games, wa[0].Dev)
	}
	if want := base.New().Rating - m.(*Placement).Step; math.Abs(a[0].Rating-want) > 1e-9 {
		t.Errorf("Got(newcomer rating after a loss) = %v, want %v", a[0].Rating, want)
	}
}

// TestPlacementFindsLevel plays a newcomer 10 calibration matches against
// opponents at their current estimate, the way the matchmaker pairs them,
// with results drawn from a true level 500 points above the start; the
// binary search must land within 150 points in most trials where the
// model alone (K 32) cannot get past +320 in 10 matches.
func TestPlacementFindsLevel(t *testing.T) {
	m, err := NewModel("elo", map[string]float64{"placement_games": 10})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const truth = 2000.0
	seed := uint64(7)
	rnd := func() float64 { // a small LCG keeps the test deterministic
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	}
	close := 0
	const trials = 200
	for range trials {
		s := m.New()
		for range 10 {
			opp := State{Rating: s.Rating, Games: 100}
			pWin := 1 / (1 + math.Pow(10, -(truth-opp.Rating)/400))
			score := 0.0
			if rnd() < pWin {
				score = 1
			}
			a, b := []State{s}, []State{opp}
			m.Update(a, b, score, at)
			s = a[0]
		}
		if math.Abs(s.Rating-truth) < 150 {
			close++
		}
	}
	if close < trials/2 {
		t.Errorf("Got(placed within 150 of the true level) = %d of %d, want at least half", close, trials)
	}
}

func TestPlacementUpdateDoesNotAllocate(t *testing.T) {
	m, err := NewModel("team-glicko", map[string]float64{"placement_games": 10})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b := []State{m.New(), m.New()}, []State{m.New(), m.New()}
	if n := testing.AllocsPerRun(100, func() { m.Update(a, b, 1, at) }); n != 0 {
		t.Errorf("Got(allocations per Update) = %v, want 0", n)
	}
}
