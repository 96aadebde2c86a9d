package harness

import (
	"math"
	"slices"
)

// Stat is the median and range of one figure over a case's runs.
type Stat struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// statOf summarises xs, ignoring NaNs; the zero Stat when none is left.
func statOf(xs []float64) Stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Stat{}
	}
	slices.Sort(v)
	n := len(v)
	med := v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	return Stat{Median: med, Min: v[0], Max: v[n-1], N: n}
}
