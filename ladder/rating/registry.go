package rating

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// DefaultModel is the model a new queue rates with (docs/spec.md 2.1).
const DefaultModel = "team-glicko"

// Param describes one tunable parameter of a model: its --params key, its
// default and the closed range of accepted values.
type Param struct {
	Key      string
	Default  float64
	Min, Max float64
	Doc      string
}

// modelSpec is one registry entry: the parameters and a constructor that
// receives every parameter, defaults filled in and ranges checked.
type modelSpec struct {
	params []Param
	check  func(v map[string]float64) error
	build  func(v map[string]float64) Model
}

var inf = math.Inf(1)

// checkRDMin refuses an RD floor above the initial RD (the Glicko models).
func checkRDMin(v map[string]float64) error {
	if v["rd_min"] > v["rd0"] {
		return invalidf("rd_min (%g) must not exceed rd0 (%g)", v["rd_min"], v["rd0"])
	}
	return nil
}

// registry lists every model by name. It is read-only after init.
var registry = map[string]modelSpec{
	"team-glicko": {
		params: []Param{
			{"r0", 1500, -inf, inf, "initial rating"},
			{"rd0", 130, 1e-3, inf, "initial RD and the ceiling RD regrows to while idle"},
			{"rd_min", 25, 1e-3, inf, "RD floor"},
			{"rd_max", 350, 1e-3, inf, "RD_max of the rating factor and the boost"},
			{"scale", 2, 1e-3, inf, "rating scale"},
			{"boost", 0.5, 0, inf, "certainty boost weight, b(RD) = boost·(rd_max − RD)"},
			{"c", 6.6775, 0, inf, "RD growth per idle day"},
		},
		check: checkRDMin,
		build: func(v map[string]float64) Model {
			return &TeamGlicko{R0: v["r0"], RD0: v["rd0"], RDMin: v["rd_min"], RDMax: v["rd_max"],
				Scale: v["scale"], Boost: v["boost"], C: v["c"]}
		},
	},
	"elo": {
		params: []Param{
			{"r0", 1500, -inf, inf, "initial rating"},
			{"k", 32, 0, inf, "K factor"},
		},
		build: func(v map[string]float64) Model { return &Elo{R0: v["r0"], K: v["k"]} },
	},
	"synelo": {
		params: []Param{
			{"r0", 1000, -inf, inf, "starting rating and centre of the K compression"},
			{"r_min", 100, -inf, inf, "rating floor"},
			{"k_min", 2, 0, inf, "minimum K factor"},
			{"k_max", 72, 0, 127, "maximum K factor"},
			{"theta", 0, 0, inf, "logistic scale; 0 is 400·⌊median{1..k}⌋ for team size k"},
			{"window", 4, 1, synEloSlots, "rounds in the convergence score window"},
			{"w_vel", 0.25, 0, inf, "velocity weight of the convergence score"},
			{"w_wre", 0.25, 0, inf, "win-rate-excess weight of the convergence score"},
			{"w_vol", 0.5, 0, inf, "volatility weight of the convergence score"},
			{"sigma", 400, 1e-3, inf, "Gaussian K compression width"},
		},
		check: func(v map[string]float64) error {
			if v["window"] != math.Trunc(v["window"]) {
				return invalidf("parameter window=%g of model synelo must be a whole number", v["window"])
			}
			if v["k_min"] > v["k_max"] {
				return invalidf("k_min (%g) must not exceed k_max (%g)", v["k_min"], v["k_max"])
			}
			return nil
		},
		build: func(v map[string]float64) Model {
			return &SynElo{R0: v["r0"], RMin: v["r_min"], KMin: v["k_min"], KMax: v["k_max"], Theta: v["theta"],
				Window: int(v["window"]), WVel: v["w_vel"], WWre: v["w_wre"], WVol: v["w_vol"], Sigma: v["sigma"]}
		},
	},
	"glicko": {
		params: []Param{
			{"r0", 1500, -inf, inf, "initial rating"},
			// Defaults from `ladderbot tune` on the warm-up part (first 80%) of
			// the ATP doubles history: rd0 90..160, c 2..5, rd_min 15..45 (see
			// README, "Rating models and evaluation"); rd_min barely matters.
			{"rd0", 120, 1e-3, inf, "initial RD and the ceiling RD regrows to while idle"},
			{"rd_min", 30, 1e-3, inf, "RD floor"},
			{"c", 3.5, 0, inf, "RD growth per idle day"},
		},
		check: checkRDMin,
		build: func(v map[string]float64) Model {
			return &Glicko{R0: v["r0"], RD0: v["rd0"], RDMin: v["rd_min"], C: v["c"], Scale: 1, name: "glicko"}
		},
	},
	"glicko-boost": {
		params: []Param{
			// Defaults from `ladderbot tune` on the warm-up part (first 80%) of
			// the ATP doubles history, rounded (see README).
			{"r0", 1500, -inf, inf, "initial rating"},
			{"rd0", 150, 1e-3, inf, "initial RD and the ceiling RD regrows to while idle"},
			{"rd_min", 30, 1e-3, inf, "RD floor"},
			{"c", 2.5, 0, inf, "RD growth per idle day"},
			{"boost", 2, 0, inf, "certainty boost per point of RD below rd0"},
			{"scale", 0.75, 1e-3, inf, "multiplier of every rating change"},
		},
		check: checkRDMin,
		build: func(v map[string]float64) Model {
			return &Glicko{R0: v["r0"], RD0: v["rd0"], RDMin: v["rd_min"], C: v["c"], Boost: v["boost"], Scale: v["scale"], name: "glicko-boost"}
		},
	},
	"openskill": {
		params: []Param{
			{"mu", 25, -inf, inf, "initial mu"},
			{"sigma", 25.0 / 3, 1e-6, inf, "initial sigma"},
			{"beta", 25.0 / 6, 1e-6, inf, "performance deviation"},
			{"kappa", 1e-4, 1e-12, 1, "smallest factor a variance may shrink by"},
			{"tau", 25.0 / 300, 0, inf, "dynamics noise added to sigma before each match"},
		},
		build: func(v map[string]float64) Model {
			return &OpenSkill{Mu: v["mu"], Sigma: v["sigma"], Beta: v["beta"], Kappa: v["kappa"], Tau: v["tau"]}
		},
	},
	"trueskill": {
		params: []Param{
			{"mu", 25, -inf, inf, "initial mu"},
			{"sigma", 25.0 / 3, 1e-6, inf, "initial sigma"},
			{"beta", 25.0 / 6, 1e-6, inf, "performance deviation per player"},
			{"tau", 25.0 / 300, 0, inf, "dynamics noise added to sigma before each match"},
		},
		build: func(v map[string]float64) Model {
			return &TrueSkill{Mu: v["mu"], Sigma: v["sigma"], Beta: v["beta"], Tau: v["tau"]}
		},
	},
}

// ModelNames returns the names NewModel accepts, the default first and the
// rest in alphabetical order.
func ModelNames() []string {
	names := []string{DefaultModel}
	for n := range registry {
		if n != DefaultModel {
			names = append(names, n)
		}
	}
	sort.Strings(names[1:])
	return names
}

// ModelParams returns the parameters of the named model with their defaults.
func ModelParams(name string) ([]Param, error) {
	spec, ok := registry[name]
	if !ok {
		return nil, unknownModel(name)
	}
	return append([]Param(nil), spec.params...), nil
}

func unknownModel(name string) error {
	return invalidf("unknown rating model %q (models: %s)", name, strings.Join(ModelNames(), ", "))
}

// ResolveParams returns every parameter of the named model: the given values
// over the defaults. An unknown model or key, or a value out of range, is a
// invalid-input error (*Error).
func ResolveParams(name string, params map[string]float64) (map[string]float64, error) {
	spec, ok := registry[name]
	if !ok {
		return nil, unknownModel(name)
	}
	v := make(map[string]float64, len(spec.params))
	for _, p := range spec.params {
		v[p.Key] = p.Default
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := params[k]
		p, ok := findParam(spec.params, k)
		if !ok {
			return nil, invalidf("model %s has no parameter %q (parameters: %s)", name, k, paramKeys(spec.params))
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x < p.Min || x > p.Max {
			return nil, invalidf("parameter %s=%g of model %s is out of range [%g, %g]", k, x, name, p.Min, p.Max)
		}
		v[k] = x
	}
	if spec.check != nil {
		if err := spec.check(v); err != nil {
			return nil, err
		}
	}
	if g := v["placement_games"]; g != math.Trunc(g) {
		return nil, invalidf("parameter placement_games=%g of model %s must be a whole number", g, name)
	}
	return v, nil
}

// NewModel returns the named model with params over its defaults (docs/spec.md 2).
// An unknown name or parameter, or a value out of range, is a invalid-input error (*Error).
func NewModel(name string, params map[string]float64) (Model, error) {
	v, err := ResolveParams(name, params)
	if err != nil {
		return nil, err
	}
	return withPlacement(registry[name].build(v), v), nil
}

func findParam(ps []Param, key string) (Param, bool) {
	for _, p := range ps {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

func paramKeys(ps []Param) string {
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.Key
	}
	return strings.Join(keys, ", ")
}

// ParseParams parses "k=v,k=v" (the --params syntax of docs/spec.md 2.3) into a map.
// An empty string gives an empty map; a malformed pair or a repeated key is a
// invalid-input error (*Error).
func ParseParams(s string) (map[string]float64, error) {
	out := map[string]float64{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, pair := range strings.Split(s, ",") {
		k, val, ok := strings.Cut(pair, "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if !ok || k == "" {
			return nil, invalidf("parameter %q is not key=value", pair)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, invalidf("parameter %s: %q is not a finite number", k, val)
		}
		if _, dup := out[k]; dup {
			return nil, invalidf("parameter %s is given twice", k)
		}
		out[k] = x
	}
	return out, nil
}
