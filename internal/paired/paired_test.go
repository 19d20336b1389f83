package paired

import "testing"

// Median takes the middle value of an odd count and the mean of the two
// middle values of an even one, whatever the order it is given.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2.07, 2.08, 2.08, 2.07}, 2.075},
	} {
		if got := Median(append([]float64(nil), c.in...)); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
