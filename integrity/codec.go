package integrity

import (
	"encoding/json"
	"math"
	"strconv"
)

// A counter is stored as the JSON that encoding/json makes of it, and a
// rated write reads and writes every counter its matches move (about a
// dozen a match), inside the queue's lock. EncodeCounter and DecodeCounter
// do the same as json.Marshal and json.Unmarshal for Counter without
// reflection: EncodeCounter's bytes are json.Marshal's, and DecodeCounter
// reads the compact form json.Marshal writes, handing anything else to
// json.Unmarshal, so a stored counter reads the same either way
// (TestCounterCodecEqualsJSON, FuzzDecodeCounter).

// counterField is one field of Counter as encoding/json sees it: its name
// in the JSON object and where it is in a Counter.
type counterField struct {
	name string
	i    func(c *Counter) *int
	f    func(c *Counter) *float64
	b    func(c *Counter) *bool
	l    func(c *Counter) *[]int64
}

// counterFields are Counter's fields in declaration order, the order
// encoding/json writes them in.
var counterFields = []counterField{
	{name: "n", i: func(c *Counter) *int { return &c.N }},
	{name: "wins_a", i: func(c *Counter) *int { return &c.WinsA }},
	{name: "wins_b", i: func(c *Counter) *int { return &c.WinsB }},
	{name: "changes", i: func(c *Counter) *int { return &c.Changes }},
	{name: "decided", i: func(c *Counter) *int { return &c.Decided }},
	{name: "last", i: func(c *Counter) *int { return &c.Last }},
	{name: "net_a", f: func(c *Counter) *float64 { return &c.NetA }},
	{name: "mate", f: func(c *Counter) *float64 { return &c.Mate }},
	{name: "from", f: func(c *Counter) *float64 { return &c.From }},
	{name: "games", i: func(c *Counter) *int { return &c.Games }},
	{name: "wins", i: func(c *Counter) *int { return &c.Wins }},
	{name: "new", b: func(c *Counter) *bool { return &c.New }},
	{name: "early", i: func(c *Counter) *int { return &c.Early }},
	{name: "early_o", f: func(c *Counter) *float64 { return &c.EarlyO }},
	{name: "early_p", f: func(c *Counter) *float64 { return &c.EarlyP }},
	{name: "llr", f: func(c *Counter) *float64 { return &c.LLR }},
	{name: "start", f: func(c *Counter) *float64 { return &c.Start }},
	{name: "sum", f: func(c *Counter) *float64 { return &c.Sum }},
	{name: "now", f: func(c *Counter) *float64 { return &c.Now }},
	{name: "pop_n", i: func(c *Counter) *int { return &c.PopN }},
	{name: "pop_mean", f: func(c *Counter) *float64 { return &c.PopMean }},
	{name: "pop_var", f: func(c *Counter) *float64 { return &c.PopVar }},
	{name: "votes", i: func(c *Counter) *int { return &c.Votes }},
	{name: "wrong", i: func(c *Counter) *int { return &c.Wrong }},
	{name: "disputes", i: func(c *Counter) *int { return &c.Disputs }},
	{name: "lost", i: func(c *Counter) *int { return &c.Lost }},
	{name: "matches", l: func(c *Counter) *[]int64 { return &c.Matches }},
	{name: "bad", l: func(c *Counter) *[]int64 { return &c.Bad }},
}

// counterFieldIndex finds a field by its JSON name.
var counterFieldIndex = func() map[string]int {
	m := make(map[string]int, len(counterFields))
	for i, f := range counterFields {
		m[f.name] = i
	}
	return m
}()

// EncodeCounter is json.Marshal(c), byte for byte.
func EncodeCounter(c *Counter) ([]byte, error) {
	b := make([]byte, 0, 96)
	b = append(b, '{')
	first := true
	key := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	for _, f := range counterFields {
		switch {
		case f.i != nil:
			if v := *f.i(c); v != 0 {
				key(f.name)
				b = strconv.AppendInt(b, int64(v), 10)
			}
		case f.f != nil:
			v := *f.f(c)
			if v == 0 {
				continue // -0 too, as encoding/json leaves it out
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return json.Marshal(c) // encoding/json's error
			}
			key(f.name)
			b = appendJSONFloat(b, v)
		case f.b != nil:
			if *f.b(c) {
				key(f.name)
				b = append(b, "true"...)
			}
		default:
			l := *f.l(c)
			if len(l) == 0 {
				continue
			}
			key(f.name)
			b = append(b, '[')
			for i, v := range l {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, v, 10)
			}
			b = append(b, ']')
		}
	}
	return append(b, '}'), nil
}

// appendJSONFloat appends f as encoding/json writes a float64: the
// shortest form that reads back as f, with an exponent only below 1e-6 or
// from 1e21 on, and a one-digit negative exponent without its zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// DecodeCounter is json.Unmarshal(data, c) for a zero c.
func DecodeCounter(data []byte, c *Counter) error {
	var d Counter
	if decodeCompact(data, &d) {
		*c = d
		return nil
	}
	return json.Unmarshal(data, c)
}

// decodeCompact reads the compact object json.Marshal writes of a
// Counter: known names, each once, numbers in JSON's grammar, true, and
// arrays of integers, with no space. It reports false on anything else,
// which json.Unmarshal then reads (or refuses) as it would.
func decodeCompact(s []byte, c *Counter) bool {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return false
	}
	i := 1
	if s[i] == '}' {
		return i == len(s)-1
	}
	var seen uint64
	for {
		// "name":
		if s[i] != '"' {
			return false
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' || s[j] < 0x20 {
				return false
			}
			j++
		}
		if j+1 >= len(s) || s[j+1] != ':' {
			return false
		}
		k, ok := counterFieldIndex[string(s[i+1:j])]
		if !ok || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		f := counterFields[k]
		i = j + 2
		switch {
		case f.b != nil:
			if len(s)-i < 4 || string(s[i:i+4]) != "true" {
				return false
			}
			*f.b(c) = true
			i += 4
		case f.l != nil:
			if i >= len(s) || s[i] != '[' {
				return false
			}
			i++
			l := []int64{}
			if i < len(s) && s[i] == ']' {
				i++
			} else {
				for {
					n := numberEnd(s, i)
					if n == i {
						return false
					}
					v, err := strconv.ParseInt(string(s[i:n]), 10, 64)
					if err != nil {
						return false
					}
					l = append(l, v)
					i = n
					if i < len(s) && s[i] == ',' {
						i++
						continue
					}
					if i < len(s) && s[i] == ']' {
						i++
						break
					}
					return false
				}
			}
			*f.l(c) = l
		default:
			n := numberEnd(s, i)
			if n == i {
				return false
			}
			if f.i != nil {
				v, err := strconv.ParseInt(string(s[i:n]), 10, strconv.IntSize)
				if err != nil {
					return false
				}
				*f.i(c) = int(v)
			} else {
				v, err := strconv.ParseFloat(string(s[i:n]), 64)
				if err != nil {
					return false
				}
				*f.f(c) = v
			}
			i = n
		}
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case ',':
			i++
		case '}':
			return i == len(s)-1
		default:
			return false
		}
	}
}

// numberEnd returns the end of the JSON number at s[i:] (i when there is
// none): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberEnd(s []byte, i int) int {
	start := i
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return start
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return start
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return start
		}
	}
	return i
}
