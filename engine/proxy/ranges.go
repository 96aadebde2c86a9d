package proxy

import (
	"strconv"
	"strings"
	"time"
)

var weekdays = map[string]int{"SUN": 0, "MON": 1, "TUE": 2, "WED": 3, "THU": 4, "FRI": 5, "SAT": 6}

var months = map[string]int{"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12}

// gmt takes a trailing "GMT" off a, and gives the time it asks for.
func gmt(now time.Time, a []string) (time.Time, []string) {
	if n := len(a); n > 0 && a[n-1] == "GMT" {
		return now.UTC(), a[:n-1]
	}
	return now, a
}

// within reports whether v lies in [from, to], wrapping round when from > to
// (FRI to MON, 22 to 6 o'clock, DEC to JAN), as browsers do.
func within(v, from, to int) bool {
	if from <= to {
		return from <= v && v <= to
	}
	return v >= from || v <= to
}

// weekdayRange(wd1 [, wd2] [, "GMT"]).
func weekdayRange(now time.Time, a []string) bool {
	now, a = gmt(now, a)
	if len(a) < 1 || len(a) > 2 {
		return false
	}
	from, ok := weekdays[a[0]]
	to := from
	if len(a) == 2 {
		var ok2 bool
		to, ok2 = weekdays[a[1]]
		ok = ok && ok2
	}
	return ok && within(int(now.Weekday()), from, to)
}

// dateRange(day | month | year, … [, "GMT"]): one value, or a range of
// values of the same fields (day, month, day and month, month and year, or
// all three).
func dateRange(now time.Time, a []string) bool {
	now, a = gmt(now, a)
	type date struct{ day, month, year int } // 0: not given
	read := func(parts []string) (date, bool) {
		var d date
		for _, p := range parts {
			if m, ok := months[p]; ok && d.month == 0 {
				d.month = m
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(p))
			switch {
			case err != nil || n < 1:
				return d, false
			case n <= 31 && d.day == 0:
				d.day = n
			case n > 31 && d.year == 0:
				d.year = n
			default:
				return d, false
			}
		}
		return d, true
	}
	key := func(d, shape date) int { // now's fields, as many as shape has
		k := 0
		if shape.year != 0 {
			k = d.year
		}
		if shape.month != 0 {
			k = k*100 + d.month
		}
		if shape.day != 0 {
			k = k*100 + d.day
		}
		return k
	}
	today := date{now.Day(), int(now.Month()), now.Year()}
	switch len(a) {
	case 1, 2, 4, 6:
	default:
		return false
	}
	if len(a) == 1 {
		d, ok := read(a)
		return ok && key(today, d) == key(d, d)
	}
	from, ok1 := read(a[:len(a)/2])
	to, ok2 := read(a[len(a)/2:])
	if !ok1 || !ok2 || (from.day == 0) != (to.day == 0) || (from.month == 0) != (to.month == 0) || (from.year == 0) != (to.year == 0) {
		return false
	}
	if from.year != 0 { // a range of years does not wrap round
		k := key(today, from)
		return key(from, from) <= k && k <= key(to, to)
	}
	return within(key(today, from), key(from, from), key(to, to))
}

// timeRange(hour | hour1, hour2 | h1, m1, h2, m2 | h1, m1, s1, h2, m2, s2 [, "GMT"]).
func timeRange(now time.Time, a []string) bool {
	now, a = gmt(now, a)
	n := make([]int, len(a))
	for i, s := range a {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 0 || v > 59 {
			return false
		}
		n[i] = v
	}
	h, m, s := now.Hour(), now.Minute(), now.Second()
	secs := func(h, m, s int) int { return h*3600 + m*60 + s }
	switch len(n) {
	case 1:
		return h == n[0]
	case 2: // whole hours: 9 to 17 is 9:00 to 17:59
		return within(h, n[0], n[1])
	case 4:
		return within(secs(h, m, s), secs(n[0], n[1], 0), secs(n[2], n[3], 59))
	case 6:
		return within(secs(h, m, s), secs(n[0], n[1], n[2]), secs(n[3], n[4], n[5]))
	}
	return false
}
