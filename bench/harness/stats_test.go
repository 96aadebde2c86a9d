package harness

import (
	"math"
	"testing"
)

func TestStatOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []float64
		want Stat
	}{
		{"none", nil, Stat{}},
		{"one", []float64{3}, Stat{3, 3, 3, 1}},
		{"odd", []float64{5, 1, 3}, Stat{3, 1, 5, 3}},
		{"even", []float64{4, 1, 2, 8}, Stat{3, 1, 8, 4}},
		{"NaN ignored", []float64{math.NaN(), 2, 6}, Stat{4, 2, 6, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := statOf(tc.in); got != tc.want {
				t.Fatalf("statOf(%v) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}
