package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// browsers is the PAC environment of these tests: names resolve from a
// table, the computer's address and the clock are fixed.
func browsers(now time.Time) Environment {
	names := map[string]string{"www.example.com": "93.184.216.34", "intranet.corp": "10.1.2.3", "v6only.example": "2001:db8::1"}
	return Environment{
		Lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
			if a, ok := names[host]; ok {
				return []netip.Addr{netip.MustParseAddr(a)}, nil
			}
			return nil, errors.New("no such host")
		},
		MyAddress: func() string { return "192.168.1.20" },
		Now:       func() time.Time { return now },
	}
}

// eval runs one expression in a PAC script of its own.
func eval(t *testing.T, env Environment, expr string) string {
	t.Helper()
	p, err := Compile("function FindProxyForURL(url, host) { return String("+expr+"); }", env)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	got, err := p.FindProxyForURL(context.Background(), "http://x/", "x")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return got
}

// TestHelpersAsBrowsersDefineThem checks each helper against the examples
// of Mozilla's PAC documentation and the definitions Chromium and Firefox
// ship (pac_js_library, nsProxyAutoConfig).
func TestHelpersAsBrowsersDefineThem(t *testing.T) {
	// Wednesday 2026-03-18 14:30:15 local (the test's zone is UTC+3 Riyadh: GMT is 11:30:15).
	riyadh := time.FixedZone("Riyadh", 3*3600)
	now := time.Date(2026, 3, 18, 14, 30, 15, 0, riyadh)
	env := browsers(now)
	cases := []struct{ expr, want string }{
		// isPlainHostName: no dot at all.
		{`isPlainHostName("www")`, "true"},
		{`isPlainHostName("www.mozilla.org")`, "false"},
		{`isPlainHostName("")`, "true"},
		// dnsDomainIs: a plain suffix of the string, case and dot as written.
		{`dnsDomainIs("www.mozilla.org", ".mozilla.org")`, "true"},
		{`dnsDomainIs("www", ".mozilla.org")`, "false"},
		{`dnsDomainIs("mozilla.org", ".mozilla.org")`, "false"},
		{`dnsDomainIs("www.MOZILLA.org", ".mozilla.org")`, "false"},
		// localHostOrDomainIs: the exact name, or a plain name that starts it.
		{`localHostOrDomainIs("www.mozilla.org", "www.mozilla.org")`, "true"},
		{`localHostOrDomainIs("www", "www.mozilla.org")`, "true"},
		{`localHostOrDomainIs("www.google.com", "www.mozilla.org")`, "false"},
		{`localHostOrDomainIs("home.mozilla.org", "www.mozilla.org")`, "false"},
		// dnsDomainLevels: how many dots.
		{`dnsDomainLevels("www")`, "0"},
		{`dnsDomainLevels("mozilla.org")`, "1"},
		{`dnsDomainLevels("www.mozilla.org")`, "2"},
		// shExpMatch: * any run, ? any one, the rest itself (a dot is a dot).
		{`shExpMatch("http://home.netscape.com/people/ari/index.html", "*/ari/*")`, "true"},
		{`shExpMatch("http://home.netscape.com/people/montulli/index.html", "*/ari/*")`, "false"},
		{`shExpMatch("www.mozilla.org", "*.mozilla.org")`, "true"},
		{`shExpMatch("wwwxmozilla.org", "www.mozilla.org")`, "false"},
		{`shExpMatch("abc", "a?c")`, "true"},
		{`shExpMatch("ac", "a?c")`, "false"},
		{`shExpMatch("", "*")`, "true"},
		// dnsResolve and isResolvable: the first IPv4 address, null without one.
		{`dnsResolve("www.example.com")`, "93.184.216.34"},
		{`dnsResolve("nowhere.invalid")`, "null"},
		{`dnsResolve("v6only.example")`, "null"},
		{`dnsResolve("10.0.0.1")`, "10.0.0.1"},
		{`isResolvable("www.example.com")`, "true"},
		{`isResolvable("nowhere.invalid")`, "false"},
		// isInNet: an address or a name (resolved) against a pattern and mask.
		{`isInNet("10.1.2.3", "10.0.0.0", "255.0.0.0")`, "true"},
		{`isInNet("intranet.corp", "10.0.0.0", "255.0.0.0")`, "true"},
		{`isInNet("www.example.com", "10.0.0.0", "255.0.0.0")`, "false"},
		{`isInNet("198.95.249.79", "198.95.249.79", "255.255.255.255")`, "true"},
		{`isInNet("198.95.6.8", "198.95.0.0", "255.255.0.0")`, "true"},
		{`isInNet("nowhere.invalid", "0.0.0.0", "0.0.0.0")`, "false"},
		{`isInNet("10.1.2.3", "10.0.0.0", "not a mask")`, "false"},
		{`isInNet("300.1.2.3", "0.0.0.0", "0.0.0.0")`, "false"},
		// convert_addr: the four parts as one 32-bit number.
		{`convert_addr("104.16.41.2")`, "1745889538"},
		{`convert_addr("255.255.255.255")`, "4294967295"},
		{`myIpAddress()`, "192.168.1.20"},
		// weekdayRange: inclusive, wrapping round the week; GMT asks for UTC.
		{`weekdayRange("WED")`, "true"},
		{`weekdayRange("MON", "FRI")`, "true"},
		{`weekdayRange("SAT", "SUN")`, "false"},
		{`weekdayRange("FRI", "MON")`, "false"},
		{`weekdayRange("TUE", "MON")`, "true"},
		{`weekdayRange("WED", "GMT")`, "true"},
		{`weekdayRange("wed")`, "false"},
		{`weekdayRange()`, "false"},
		// dateRange: a day, a month, a year, or ranges of the same fields.
		{`dateRange(18)`, "true"},
		{`dateRange(1)`, "false"},
		{`dateRange("MAR")`, "true"},
		{`dateRange(2026)`, "true"},
		{`dateRange(1, 15)`, "false"},
		{`dateRange(15, 20)`, "true"},
		{`dateRange("JAN", "MAR")`, "true"},
		{`dateRange("APR", "FEB")`, "false"},
		{`dateRange("OCT", "MAR")`, "true"},
		{`dateRange(1, "MAR", 18, "MAR")`, "true"},
		{`dateRange(19, "MAR", 1, "APR")`, "false"},
		{`dateRange("MAR", 2026, "JUN", 2026)`, "true"},
		{`dateRange(1, "JAN", 2025, 31, "DEC", 2025)`, "false"},
		{`dateRange(2025, 2027)`, "true"},
		{`dateRange(18, "GMT")`, "true"},
		{`dateRange()`, "false"},
		// timeRange: the hour; whole hours inclusive; to the minute and second.
		{`timeRange(14)`, "true"},
		{`timeRange(11, "GMT")`, "true"},
		{`timeRange(9, 17)`, "true"},
		{`timeRange(0, 11)`, "false"},
		{`timeRange(22, 15)`, "true"},
		{`timeRange(14, 30, 14, 31)`, "true"},
		{`timeRange(14, 31, 15, 0)`, "false"},
		{`timeRange(14, 30, 16, 14, 30, 20)`, "false"},
		{`timeRange(14, 30, 10, 14, 30, 20)`, "true"},
		{`timeRange()`, "false"},
	}
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			if got := eval(t, env, c.expr); got != c.want {
				t.Errorf("%s = %s, want %s", c.expr, got, c.want)
			}
		})
	}
}

// TestScriptThatNeverEndsIsStopped: a PAC script that loops forever, or that
// eats memory, is interrupted with ErrScript; a script that cannot be used
// says why.
func TestScriptThatNeverEndsIsStopped(t *testing.T) {
	env := browsers(time.Now())
	cases := map[string]string{
		"loops when asked":     `function FindProxyForURL(u, h) { for (;;) {} }`,
		"loops at the top":     `while (true) {} function FindProxyForURL(u, h) { return "DIRECT"; }`,
		"eats memory":          `function FindProxyForURL(u, h) { var a = []; for (;;) { a.push(new Array(100000).join("x") + a.length); } }`,
		"no function":          `var x = 1;`,
		"does not compile":     `function FindProxyForURL(u, h) { return "DIRECT"; `,
		"throws":               `function FindProxyForURL(u, h) { throw "no"; }`,
		"answers nothing":      `function FindProxyForURL(u, h) { }`,
		"calls a helper oddly": `function FindProxyForURL(u, h) { return isInNet(); }`,
	}
	for name, script := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			p, err := Compile(script, env)
			if err == nil {
				var answer string
				answer, err = p.FindProxyForURL(context.Background(), "https://www.example.com/", "www.example.com")
				if err == nil && name == "calls a helper oddly" {
					if _, err = ParseAnswer(answer); err == nil {
						t.Fatalf("answer %q was taken", answer)
					}
				}
			}
			if err == nil || (!errors.Is(err, ErrScript) && !errors.Is(err, ErrAnswer)) {
				t.Fatalf("err = %v, want ErrScript", err)
			}
			if d := time.Since(start); d > MaxRunTime+30*time.Second {
				t.Errorf("stopped after %v", d)
			}
		})
	}
}

func TestAnswerListInOrder(t *testing.T) {
	cases := []struct{ answer, want string }{
		{"DIRECT", "[direct]"},
		{"PROXY proxy.corp:8080", "[http://proxy.corp:8080]"},
		{"PROXY a:1; SOCKS5 b:1080; DIRECT", "[http://a:1 socks5://b:1080 direct]"},
		{"  proxy a:1 ;;  direct ", "[http://a:1 direct]"},
		{"HTTPS secure.corp:443; SOCKS s:1080", "[https://secure.corp:443 socks5://s:1080]"},
		{"PROXY [2001:db8::1]:3128", "[http://[2001:db8::1]:3128]"},
		{"PROXY nohost; DIRECT", "[direct]"},
		{"PROXY a:b; FTP x:1; DIRECT", "[direct]"},
		{"PROXY user@evil:1; DIRECT", "[direct]"},
		{"", "error"},
		{"PROXY", "error"},
		{"NOPE x:1", "error"},
	}
	for _, c := range cases {
		ways, err := ParseAnswer(c.answer)
		got := "error"
		if err == nil {
			var s []string
			for _, w := range ways {
				if w == nil {
					s = append(s, "direct")
				} else {
					s = append(s, w.String())
				}
			}
			got = fmt.Sprint(s)
		}
		if got != c.want {
			t.Errorf("ParseAnswer(%q) = %s, want %s", c.answer, got, c.want)
		}
	}
}

// FuzzParseAnswer: any answer a script gives is read without a panic, and
// every way read is direct or a proxy's address with a host and port.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"DIRECT", "PROXY a:1; SOCKS5 b:2; DIRECT", "PROXY [::1]:8080", ";;;", "PROXY a:99999999", "HTTPS x:443 ; direct", strings.Repeat("PROXY a:1;", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		ways, err := ParseAnswer(answer)
		if err != nil {
			if len(ways) != 0 {
				t.Fatal("ways with an error")
			}
			return
		}
		for _, w := range ways {
			if w != nil && (w.Hostname() == "" || w.Port() == "" || w.User != nil) {
				t.Fatalf("way %v from %q", w, answer)
			}
		}
	})
}

// FuzzPACScript: a script brought from anywhere compiles and answers or
// fails with ErrScript, within its bounds.
func FuzzPACScript(f *testing.F) {
	for _, s := range []string{
		`function FindProxyForURL(u, h) { return "DIRECT"; }`,
		`function FindProxyForURL(u, h) { if (shExpMatch(h, "*.corp")) return "PROXY p:1"; return "DIRECT"; }`,
		`function FindProxyForURL(u, h) { return isInNet(dnsResolve(h), "10.0.0.0", "255.0.0.0") ? "PROXY a:1" : "DIRECT"; }`,
		`function FindProxyForURL(u, h) { return weekdayRange("MON","FRI") && timeRange(8,18) ? "PROXY a:1" : "DIRECT"; }`,
		`function FindProxyForURL(`,
		`}}}`,
	} {
		f.Add(s)
	}
	env := browsers(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC))
	f.Fuzz(func(t *testing.T, script string) {
		p, err := Compile(script, env)
		if err != nil {
			if !errors.Is(err, ErrScript) {
				t.Fatalf("Compile: %v", err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if answer, err := p.FindProxyForURL(ctx, "https://www.example.com/", "www.example.com"); err == nil {
			_, _ = ParseAnswer(answer)
		} else if !errors.Is(err, ErrScript) {
			t.Fatalf("FindProxyForURL: %v", err)
		}
	})
}
