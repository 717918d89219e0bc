package rating

import (
	"math"
	"slices"
	"testing"
)

func TestModelNames(t *testing.T) {
	names := ModelNames()
	if len(names) == 0 || names[0] != DefaultModel {
		t.Fatalf("Got(ModelNames()[0]) = %v, want %q first", names, DefaultModel)
	}
	for _, n := range names {
		m, err := NewModel(n, nil)
		if err != nil {
			t.Fatalf("Got(NewModel(%q, nil)) error %v, want nil", n, err)
		}
		if m.Name() != n {
			t.Errorf("Got(NewModel(%q).Name()) = %q, want %q", n, m.Name(), n)
		}
		if _, err := ModelParams(n); err != nil {
			t.Errorf("Got(ModelParams(%q)) error %v, want nil", n, err)
		}
	}
	if !slices.IsSorted(names[1:]) {
		t.Errorf("Got(ModelNames()) = %v, want the rest sorted", names)
	}
}

func TestNewModelErrors(t *testing.T) {
	tests := []struct {
		name   string
		model  string
		params map[string]float64
	}{
		{"unknown model", "chess", nil},
		{"unknown param", "team-glicko", map[string]float64{"kk": 1}},
		{"negative rd0", "team-glicko", map[string]float64{"rd0": -1}},
		{"NaN", "elo", map[string]float64{"k": math.NaN()}},
		{"rd_min above rd0", "team-glicko", map[string]float64{"rd_min": 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewModel(tt.model, tt.params)
			if !isInvalid(err) {
				t.Errorf("Got(NewModel) error = %v, want an invalid-input error (*Error)", err)
			}
		})
	}
}

func TestNewModelParams(t *testing.T) {
	m, err := NewModel("team-glicko", map[string]float64{"scale": 3, "c": 0})
	if err != nil {
		t.Fatal(err)
	}
	tg := m.(*TeamGlicko)
	if tg.Scale != 3 || tg.C != 0 || tg.RD0 != 130 {
		t.Errorf("Got(TeamGlicko) = %+v, want scale 3, c 0, rd0 130", *tg)
	}
	def, _ := NewModel(DefaultModel, nil)
	if *def.(*TeamGlicko) != *NewTeamGlicko() {
		t.Errorf("Got(default) = %+v, want %+v", *def.(*TeamGlicko), *NewTeamGlicko())
	}
}

func TestParseParams(t *testing.T) {
	tests := []struct {
		in      string
		want    map[string]float64
		wantErr bool
	}{
		{"", map[string]float64{}, false},
		{"k=24", map[string]float64{"k": 24}, false},
		{" scale = 2.5 , c=0", map[string]float64{"scale": 2.5, "c": 0}, false},
		{"k", nil, true},
		{"k=x", nil, true},
		{"k=1,k=2", nil, true},
		{"=3", nil, true},
		{"k=Inf", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseParams(tt.in)
		if tt.wantErr {
			if !isInvalid(err) {
				t.Errorf("Got(ParseParams(%q)) error %v, want invalid", tt.in, err)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("Got(ParseParams(%q)) = %v, %v, want %v", tt.in, got, err, tt.want)
			continue
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("Got(ParseParams(%q)[%s]) = %g, want %g", tt.in, k, got[k], v)
			}
		}
	}
}

func TestGXE(t *testing.T) {
	tests := []struct {
		r, rd, want float64
	}{
		{1500, 130, 50},
		{1500, 25, 50},
		// 1/(1 + 10^(−g(√(50²+130²))·200/400)), g(139.284) = 0.914619.
		{1700, 50, 100 / (1 + math.Pow(10, -glickoG(math.Sqrt(50*50+130*130))*200/400))},
		{1300, 50, 100 - 100/(1+math.Pow(10, -glickoG(math.Sqrt(50*50+130*130))*200/400))},
	}
	for _, tt := range tests {
		if got := GXE(tt.r, tt.rd); !near(got, tt.want, 1e-9) {
			t.Errorf("Got(GXE(%g, %g)) = %.6f, want %.6f", tt.r, tt.rd, got, tt.want)
		}
	}
	if got := GXE(1700, 50); !near(got, 74.1351, 1e-4) {
		t.Errorf("Got(GXE(1700, 50)) = %.4f, want 74.1351", got)
	}
}
