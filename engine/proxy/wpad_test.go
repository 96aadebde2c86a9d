package proxy

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
)

// lookups is a resolver that knows only some names, and notes each asked.
type lookups struct {
	mu    sync.Mutex
	known map[string]bool
	asked []string
}

func (l *lookups) lookup(_ context.Context, host string) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, host)
	if l.known[host] {
		return []string{"192.0.2.1"}, nil
	}
	return nil, &dnsNotFound{host}
}

func (l *lookups) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.asked...)
}

type dnsNotFound struct{ host string }

func (e *dnsNotFound) Error() string { return "no such host " + e.host }

// detector looks for the script as a computer named host would, with
// resolv.conf reading conf, no DHCP answer and only the names known resolving.
func detector(t *testing.T, host, conf string, known ...string) (Detector, *lookups) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &lookups{known: map[string]bool{}}
	for _, k := range known {
		l.known[k] = true
	}
	return Detector{
		DHCP:       func(context.Context) (string, error) { return "", nil },
		Lookup:     l.lookup,
		ResolvConf: path,
		Hostname:   func() (string, error) { return host, nil },
		Domains:    func() []string { return nil },
	}, l
}

// TestWPADWalksUpTheDomain: the computer host.a.corp.example.test looks up
// wpad.a.corp.example.test, then wpad.corp.example.test, which answers; a
// domain with no wpad name stops at two labels, never asking wpad.test (or
// a public suffix's wpad.co.uk), and finds nothing.
func TestWPADWalksUpTheDomain(t *testing.T) {
	d, l := detector(t, "host.a.corp.example.test", "nameserver 192.0.2.53\n", "wpad.corp.example.test", "wpad.test")
	got, err := d.Detect(context.Background())
	if err != nil || got != (Detected{Address: "http://wpad.corp.example.test/wpad.dat", How: ByDNS, Name: "wpad.corp.example.test"}) {
		t.Fatalf("Detect = %+v, %v", got, err)
	}
	if want := []string{"wpad.a.corp.example.test", "wpad.corp.example.test"}; !reflect.DeepEqual(l.names(), want) {
		t.Errorf("looked up %v, want %v", l.names(), want)
	}

	d, l = detector(t, "host.a.corp.example.test", "", "wpad.test", "wpad")
	if got, err := d.Detect(context.Background()); !errors.Is(err, ErrNotDetected) {
		t.Fatalf("nothing to find: %+v, %v", got, err)
	}
	if want := []string{"wpad.a.corp.example.test", "wpad.corp.example.test", "wpad.example.test"}; !reflect.DeepEqual(l.names(), want) {
		t.Errorf("looked up %v, want %v", l.names(), want)
	}

	// resolv.conf's domain and search list come first, in order, then the
	// host's own domain; a public suffix is never a domain of wpad's.
	d, _ = detector(t, "pc.branch.corp.co.uk", "domain office.example.test\nsearch b.example.test  office.example.test # old\n")
	want := []string{"wpad.office.example.test", "wpad.example.test", "wpad.b.example.test", "wpad.branch.corp.co.uk", "wpad.corp.co.uk"}
	if got := d.Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
	// A computer with no domain looks up no single-label wpad, which any
	// neighbour could answer.
	d, _ = detector(t, "pc", "")
	if got := d.Names(); len(got) != 0 {
		t.Errorf("names %v, want none", got)
	}
}

// TestWPADAsksDHCPFirst: an address the DHCP lease names wins and DNS is not
// asked; a lease that names none, or no answer, leaves DNS to find it.
func TestWPADAsksDHCPFirst(t *testing.T) {
	d, l := detector(t, "host.corp.example.test", "", "wpad.corp.example.test")
	d.DHCP = func(context.Context) (string, error) { return "http://pac.corp.example.test/proxy.pac\x00", nil }
	got, err := d.Detect(context.Background())
	if err != nil || got.Address != "http://pac.corp.example.test/proxy.pac" || got.How != ByDHCP || len(l.names()) != 0 {
		t.Fatalf("Detect = %+v, %v; looked up %v", got, err, l.names())
	}
	for _, answer := range []func(context.Context) (string, error){
		func(context.Context) (string, error) { return "", nil },
		func(context.Context) (string, error) { return "", errors.New("no NetworkManager") },
		func(context.Context) (string, error) { return "not an address", nil },
	} {
		d.DHCP = answer
		if got, err := d.Detect(context.Background()); err != nil || got.How != ByDNS || got.Address != "http://wpad.corp.example.test/wpad.dat" {
			t.Errorf("Detect = %+v, %v", got, err)
		}
	}
}

// TestDetectionThatFindsNothingGoesDirectSaidOnce: "automatically detect"
// on a network without WPAD detects once, goes direct, and says so once.
func TestDetectionThatFindsNothingGoesDirectSaidOnce(t *testing.T) {
	d, l := detector(t, "host.corp.example.test", "")
	var asked atomic.Int64
	d.DHCP = func(context.Context) (string, error) { asked.Add(1); return "", nil }
	var notices []error
	p := &Proxies{Setting: Setting{Origin: FromKDE, Mode: Script, Detect: true}, Detector: d, Notice: func(err error) { notices = append(notices, err) }}
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, "https://storage.googleapis.com/upload", nil)
		if u, err := p.Proxy(req); u != nil || err != nil {
			t.Fatalf("Proxy = %v, %v; want direct", u, err)
		}
	}
	var pe *PACError
	if len(notices) != 1 || !errors.As(notices[0], &pe) || !errors.Is(pe, ErrNotDetected) || pe.Origin != FromKDE {
		t.Fatalf("notices %v, want one PACError saying nothing was detected", notices)
	}
	if f := pe.Fact(); f.Arg("proxy") != NotDetected || f.Arg("origin") != "kde" {
		t.Errorf("fact %+v", f)
	}
	if asked.Load() != 1 || len(l.names()) != 2 {
		t.Errorf("detection ran %d times, looked up %v; want once", asked.Load(), l.names())
	}
	if s := p.Current(); s.PAC != "" || !s.Detect {
		t.Errorf("in use %+v", s)
	}
	if !errors.Is(p.PACProblem(), ErrNotDetected) {
		t.Errorf("problem %v", p.PACProblem())
	}
}
