package sim

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/ladderbot/ladderbot/internal/chart"
)

// Plot writes the season's charts into dir (created if needed):
// trajectories.png (eight players' ratings over the season, their true
// skill dashed), final.png (final rating against true skill), waits.png
// (the wait-time histogram) and calibration.png (predicted against
// observed team-1 wins).
func Plot(dir string, r *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sim: plot: %w", err)
	}
	for name, draw := range map[string]func(*bytes.Buffer) error{
		"trajectories.png": func(b *bytes.Buffer) error { return trajectories(b, r) },
		"final.png":        func(b *bytes.Buffer) error { return finalVsSkill(b, r) },
		"waits.png": func(b *bytes.Buffer) error {
			return chart.Histogram(b, waitsChart, r.Waits, 20)
		},
		"calibration.png": func(b *bytes.Buffer) error { return calibration(b, r) },
	} {
		var b bytes.Buffer
		if err := draw(&b); err != nil {
			return fmt.Errorf("sim: plot %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("sim: plot: %w", err)
		}
	}
	return nil
}

// waitsChart frames the wait histogram; its bars count matched tickets.
var waitsChart = chart.Chart{Title: "Queue waits", XLabel: "wait before the match formed (simulated seconds, bin start)", YLabel: "tickets"}

// trajectoriesChart frames the trajectories; the legend names each player
// once and the title says what the dashed lines are.
var trajectoriesChart = chart.Chart{Title: "Rating trajectories (dashed: hidden true skill)", XLabel: "day of the season", YLabel: "rating"}

// trajectories plots eight players spread over the final ranking.
func trajectories(b *bytes.Buffer, r *Result) error {
	return chart.PairedLines(b, trajectoriesChart, trajectoryPairs(r)...)
}

// trajectoryPairs is up to eight players spread over the final ranking,
// each as a rating line and the dashed level of their true skill.
func trajectoryPairs(r *Result) [][2]chart.Series {
	var pairs [][2]chart.Series
	n := len(r.Players)
	for i := 0; i < 8 && n > 0; i++ {
		p := r.Players[i*(n-1)/7]
		if len(p.Trajectory) == 0 {
			continue
		}
		s := chart.Series{Name: p.Name, Line: true}
		for _, pt := range p.Trajectory {
			s.X = append(s.X, pt.At.Sub(r.Start).Hours()/24)
			s.Y = append(s.Y, pt.Rating)
		}
		truth := chart.Series{Name: p.Name + " true", Line: true, Dashed: true,
			X: []float64{s.X[0], s.X[len(s.X)-1]}, Y: []float64{p.Skill, p.Skill}}
		pairs = append(pairs, [2]chart.Series{s, truth})
		if i*(n-1)/7 == (i+1)*(n-1)/7 {
			break
		}
	}
	return pairs
}

func finalVsSkill(b *bytes.Buffer, r *Result) error {
	s := chart.Series{Name: "players"}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range r.Players {
		s.X = append(s.X, p.Skill)
		s.Y = append(s.Y, p.Rating)
		lo, hi = math.Min(lo, p.Skill), math.Max(hi, p.Skill)
	}
	if len(s.X) == 0 {
		return chart.ErrNoData
	}
	return chart.Lines(b, chart.Chart{Title: fmt.Sprintf("Final rating vs true skill (Spearman %.3f)", r.Spearman), XLabel: "true skill", YLabel: "rating"},
		chart.Series{Name: "players", X: s.X, Y: s.Y, Points: true},
		chart.Series{Name: "rating = skill", X: []float64{lo, hi}, Y: []float64{lo, hi}, Line: true, Dashed: true})
}

// calibration bins matches by the predicted P(team 1 wins) in ten bins.
func calibration(b *bytes.Buffer, r *Result) error {
	var sumP, wins [10]float64
	var counts [10]int
	for _, p := range r.Predictions {
		i := min(9, int(p.P*10))
		sumP[i] += p.P
		counts[i]++
		if p.Team1Won {
			wins[i]++
		}
	}
	var meanP, observed []float64
	var cs []int
	for i := range 10 {
		if counts[i] == 0 {
			continue
		}
		meanP = append(meanP, sumP[i]/float64(counts[i]))
		observed = append(observed, wins[i]/float64(counts[i]))
		cs = append(cs, counts[i])
	}
	if len(cs) == 0 {
		return chart.ErrNoData
	}
	return chart.Reliability(b, fmt.Sprintf("Calibration of formed matches (Brier %.4f)", r.Brier), meanP, observed, cs)
}
