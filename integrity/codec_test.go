package integrity

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestCounterCodecEqualsJSON: EncodeCounter writes json.Marshal's bytes
// and DecodeCounter reads back what json.Unmarshal reads, for counters
// with every field set or left zero, floats at encoding/json's format
// edges (exponents, -0, the smallest and largest), and lists of every
// length kept; and the codec knows every field of Counter, in order, by
// its JSON name.
func TestCounterCodecEqualsJSON(t *testing.T) {
	ct := reflect.TypeFor[Counter]()
	if ct.NumField() != len(counterFields) {
		t.Fatalf("Counter has %d fields, the codec knows %d", ct.NumField(), len(counterFields))
	}
	for i := range ct.NumField() {
		name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		if name != counterFields[i].name {
			t.Fatalf("field %d (%s) is %q in JSON, the codec has %q", i, ct.Field(i).Name, name, counterFields[i].name)
		}
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 1500, 0.5963771419331098, 40.160614350662854, 1e-6, 9.99e-7,
		-1e-7, 1e20, 1e21, -1e21, 123456789012345680000, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, 1e-10, 2.5e-9}
	ints := []int{0, 1, -1, 7, 1 << 40, math.MaxInt64, math.MinInt64}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 5000 {
		var c Counter
		v := reflect.ValueOf(&c).Elem()
		for i := range v.NumField() {
			if rng.IntN(3) == 0 && n > 0 {
				continue
			}
			switch f := v.Field(i); f.Kind() {
			case reflect.Int:
				f.SetInt(int64(ints[rng.IntN(len(ints))]))
			case reflect.Float64:
				x := floats[rng.IntN(len(floats))]
				if rng.IntN(2) == 0 {
					x = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(50)-25))
				}
				f.SetFloat(x)
			case reflect.Bool:
				f.SetBool(rng.IntN(2) == 0)
			case reflect.Slice:
				k := rng.IntN(keepMatches + 2)
				if k == keepMatches+1 {
					f.Set(reflect.ValueOf([]int64{}))
					continue
				}
				l := make([]int64, k)
				for j := range l {
					l[j] = rng.Int64N(1<<40) - 10
				}
				if k > 0 {
					f.Set(reflect.ValueOf(l))
				}
			}
		}
		want, werr := json.Marshal(&c)
		got, gerr := EncodeCounter(&c)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("EncodeCounter(%+v) = %s, %v; json.Marshal = %s, %v", c, got, gerr, want, werr)
		}
		var a, b Counter
		aerr, berr := DecodeCounter(want, &a), json.Unmarshal(want, &b)
		if aerr != nil || berr != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("DecodeCounter(%s) = %+v, %v; json.Unmarshal = %+v, %v", want, a, aerr, b, berr)
		}
		if !decodeCompact(want, &Counter{}) {
			t.Fatalf("the compact decoder handed json.Marshal's %s to encoding/json", want)
		}
	}
	// What json.Marshal never writes goes to encoding/json, which decides.
	for _, s := range []string{`{}`, ` {"n":1}`, `{"n":1,"n":2}`, `{"N":3}`, `{"n":1.5}`, `{"n":01}`, `{"llr":-0}`,
		`{"new":false}`, `{"matches":null}`, `{"matches":[1.0]}`, `{"matches":[]}`, `{"x":1}`, `{"n":"1"}`, `{"n":1}x`,
		`{"llr":1e400}`, `{"n":99999999999999999999}`, `{"bad":[1,]}`, `{"n":1,}`, `{"n"  :1}`, `{"n\u0041":1}`, ``, `{`} {
		var a, b Counter
		aerr, berr := DecodeCounter([]byte(s), &a), json.Unmarshal([]byte(s), &b)
		if (aerr != nil) != (berr != nil) || !reflect.DeepEqual(a, b) {
			t.Errorf("DecodeCounter(%s) = %+v, %v; json.Unmarshal = %+v, %v", s, a, aerr, b, berr)
		}
	}
	if _, err := EncodeCounter(&Counter{LLR: math.NaN()}); err == nil {
		t.Error("EncodeCounter(NaN) = nil error, want encoding/json's")
	}
}

// FuzzDecodeCounter: on any input DecodeCounter answers what
// json.Unmarshal answers.
func FuzzDecodeCounter(f *testing.F) {
	for _, s := range []string{`{"n":1,"wins_a":1,"decided":1,"last":1,"net_a":40.160614350662854,"matches":[1]}`,
		`{"n":1,"mate":1500,"from":1500,"wins":1,"matches":[1]}`, `{"games":3,"new":true,"llr":-1.5e-7,"bad":[]}`, `{}`, `{"n":-0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a, b Counter
		aerr, berr := DecodeCounter(data, &a), json.Unmarshal(data, &b)
		if (aerr != nil) != (berr != nil) || aerr == nil && !reflect.DeepEqual(a, b) {
			t.Fatalf("DecodeCounter(%q) = %+v, %v; json.Unmarshal = %+v, %v", data, a, aerr, b, berr)
		}
	})
}

// benchCounter is a pair's counter after eight meetings, as stored.
var benchCounter = []byte(`{"n":8,"wins_a":8,"decided":8,"last":1,"net_a":176.77355897604662,"matches":[4,10019,12012,14021,16015,18015,20013,22027]}`)

// BenchmarkCounterCodec reads and writes one stored counter, as a rated
// write does for each counter its matches move, with the codec and with
// encoding/json.
func BenchmarkCounterCodec(b *testing.B) {
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			var c Counter
			if err := DecodeCounter(benchCounter, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode-json", func(b *testing.B) {
		for b.Loop() {
			var c Counter
			if err := json.Unmarshal(benchCounter, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	var c Counter
	if err := DecodeCounter(benchCounter, &c); err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeCounter(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
