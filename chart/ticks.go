package chart

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// LinearTicks places about six labelled ticks at multiples of 1, 2 or 5
// times a power of ten, with unlabelled minor ticks between them. Labels
// come from FormatTick with the step as precision, so 0..10,000 reads
// "0, 2,000, ... 10,000" and 0..0.01 reads "0, 0.002, ... 0.010".
type LinearTicks struct {
	// Integer keeps every tick on a whole number, for counts such as BFS
	// depths: the step is at least 1 and a step of 1 has no minor ticks.
	Integer bool
}

var _ plot.Ticker = LinearTicks{}

// Ticks implements plot.Ticker.
func (lt LinearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return []plot.Tick{{Value: min, Label: FormatTick(min, 1)}}
	}
	step := niceStep((max - min) / 6)
	lead := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	minor := step / 5
	if math.Abs(lead-2) < 1e-9 {
		minor = step / 4
	}
	if lt.Integer {
		step = math.Max(step, 1)
		if minor < 1 {
			minor = step
		}
	}
	var ticks []plot.Tick
	// Integer multiples of minor avoid the drift of repeated addition.
	per := int(math.Round(step / minor))
	for i := math.Ceil(min/minor - 1e-9); i*minor <= max+minor*1e-9; i++ {
		v := i * minor
		n := int64(i)
		if n%int64(per) == 0 {
			ticks = append(ticks, plot.Tick{Value: v, Label: FormatTick(v, step)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// niceStep returns the smallest 1, 2 or 5 times a power of ten that is at
// least raw.
func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// LogTicks labels the powers of ten of a logarithmic axis and marks 2..9
// times them as minor ticks; when the axis spans less than three decades
// (so at most three powers of ten would be labelled) it labels 2× and 5×
// as well. It needs min > 0.
type LogTicks struct {
	// Integer labels every whole number of an axis that spans less than a
	// decade and a half (BFS depths 1..9), where 1-2-5 would skip some.
	Integer bool
}

var _ plot.Ticker = LogTicks{}

// Ticks implements plot.Ticker.
func (lt LogTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return LinearTicks{Integer: lt.Integer}.Ticks(min, max)
	}
	lo, hi := int(math.Floor(math.Log10(min)+1e-9)), int(math.Ceil(math.Log10(max)-1e-9))
	labelMid := math.Log10(max)-math.Log10(min) < 3
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		p := math.Pow(10, float64(e))
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (labelMid && (m == 2 || m == 5)) || (lt.Integer && e == 0 && max < 15) {
				t.Label = FormatTick(v, p)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// FormatTick formats a tick value v with the precision a tick step calls
// for: as many decimals as step has (none for steps of 1 or more), the
// integer part in groups of three ("12,500"), a true minus sign, and 0
// written as "0" whatever the step.
func FormatTick(v, step float64) string {
	decimals := 0
	if step > 0 && step < 1 {
		// step is 1, 2 or 5 times 10^-d: d decimals show it exactly.
		decimals = int(math.Ceil(-math.Log10(step) - 1e-9))
		if m := step * math.Pow(10, float64(decimals)); math.Abs(m-math.Round(m)) > 1e-6 {
			decimals++ // a step such as 0.25
		}
	}
	if math.Abs(v) < step*1e-9 || v == 0 {
		return "0"
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 {
		b.WriteString("−")
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Count writes n and the noun, singular for 1 ("1 seed", "160 seeds"), for
// titles and subtitles.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return FormatTick(float64(n), 1) + " " + noun + "s"
}
