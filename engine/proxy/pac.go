package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Limits of a PAC script: what it may take before Hoist stops it.
const (
	MaxScriptSize = 1 << 20         // bytes of script
	MaxRunTime    = 5 * time.Second // per run, its lookups included
	MaxGrowth     = 256 << 20       // bytes the heap may grow while it runs
)

// ErrScript says the PAC script failed: it does not compile, has no
// FindProxyForURL, throws, runs too long or takes too much memory.
var ErrScript = errors.New("the PAC script failed")

// Environment is what a PAC script's helpers ask of the system; nil fields
// mean the system's own.
type Environment struct {
	// Lookup resolves a name to its addresses.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// MyAddress is this computer's address as the network sees it.
	MyAddress func() string
	// Now is the clock of weekdayRange, dateRange and timeRange.
	Now func() time.Time
}

// PAC is a compiled PAC script, ready to be asked. It is safe for use by
// several goroutines: runs take turns.
type PAC struct {
	mu  sync.Mutex
	vm  *goja.Runtime
	fn  goja.Callable
	env Environment
	ctx context.Context // the run under way, for its lookups
}

// Compile reads a PAC script and runs its top level.
func Compile(script string, env Environment) (*PAC, error) {
	if len(script) > MaxScriptSize {
		return nil, fmt.Errorf("%w: it is larger than %d bytes", ErrScript, MaxScriptSize)
	}
	prog, err := goja.Compile("proxy.pac", script, false)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScript, err)
	}
	p := &PAC{vm: goja.New(), env: env, ctx: context.Background()}
	p.define()
	if _, err := p.bounded(context.Background(), func() (goja.Value, error) { return p.vm.RunProgram(prog) }); err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(p.vm.Get("FindProxyForURL"))
	if !ok {
		return nil, fmt.Errorf("%w: it defines no function FindProxyForURL", ErrScript)
	}
	p.fn = fn
	return p, nil
}

// FindProxyForURL runs the script for an address and its host, and gives its
// answer as written ("PROXY a:8080; DIRECT").
func (p *PAC) FindProxyForURL(ctx context.Context, address, host string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, err := p.bounded(ctx, func() (goja.Value, error) {
		return p.fn(goja.Undefined(), p.vm.ToValue(address), p.vm.ToValue(host))
	})
	if err != nil {
		return "", err
	}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return "", fmt.Errorf("%w: FindProxyForURL gave no answer", ErrScript)
	}
	return v.String(), nil
}

// bounded runs f, interrupting the script when it runs past MaxRunTime,
// when ctx ends, or when the heap grows by more than MaxGrowth.
func (p *PAC) bounded(ctx context.Context, f func() (goja.Value, error)) (v goja.Value, err error) {
	ctx, cancel := context.WithTimeout(ctx, MaxRunTime)
	defer cancel()
	p.ctx = ctx
	done := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		start := heap()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				p.vm.Interrupt(ctx.Err())
				return
			case <-tick.C:
				if heap() > start+MaxGrowth {
					p.vm.Interrupt(errTooMuchMemory)
					return
				}
			}
		}
	}()
	defer func() {
		close(done)
		watch.Wait()
		p.vm.ClearInterrupt()
		if r := recover(); r != nil { // goja panics on a few malformed programs
			v, err = nil, fmt.Errorf("%w: %v", ErrScript, r)
		}
	}()
	v, err = f()
	if err != nil {
		var stop *goja.InterruptedError
		if errors.As(err, &stop) {
			if cause, ok := stop.Value().(error); ok {
				if errors.Is(cause, context.DeadlineExceeded) {
					return nil, fmt.Errorf("%w: it ran longer than %v", ErrScript, MaxRunTime)
				}
				return nil, fmt.Errorf("%w: %w", ErrScript, cause)
			}
		}
		return nil, fmt.Errorf("%w: %v", ErrScript, err)
	}
	return v, nil
}

var errTooMuchMemory = errors.New("it took too much memory")

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
var heapMu sync.Mutex

func heap() uint64 {
	heapMu.Lock()
	defer heapMu.Unlock()
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return heapSample[0].Value.Uint64()
}

// define gives the script the helpers browsers define.
func (p *PAC) define() {
	set := func(name string, f any) { _ = p.vm.Set(name, f) }
	set("isPlainHostName", func(host string) bool { return !strings.Contains(host, ".") })
	set("dnsDomainIs", func(host, domain string) bool { return strings.HasSuffix(host, domain) })
	set("localHostOrDomainIs", func(host, hostdom string) bool {
		return host == hostdom || strings.HasPrefix(hostdom, host+".")
	})
	set("dnsDomainLevels", func(host string) int { return strings.Count(host, ".") })
	set("shExpMatch", shExpMatch)
	set("dnsResolve", func(host string) goja.Value {
		if a, ok := p.resolve(host); ok {
			return p.vm.ToValue(a)
		}
		return goja.Null()
	})
	set("isResolvable", func(host string) bool { _, ok := p.resolve(host); return ok })
	set("myIpAddress", p.myAddress)
	set("convert_addr", func(ip string) uint32 { return convertAddr(ip) })
	set("isInNet", func(host, pattern, mask string) bool {
		pat, ok1 := ipv4(pattern)
		m, ok2 := ipv4(mask)
		if !ok1 || !ok2 {
			return false
		}
		addr, ok := ipv4(host)
		if !ok {
			if strings.Count(host, ".") == 3 && strings.Trim(host, "0123456789.") == "" {
				return false // written as an address, but not one
			}
			r, found := p.resolve(host)
			if !found {
				return false
			}
			addr, _ = ipv4(r)
		}
		return addr&m == pat&m
	})
	set("weekdayRange", func(call goja.FunctionCall) goja.Value {
		return p.vm.ToValue(weekdayRange(p.now(), args(call)))
	})
	set("dateRange", func(call goja.FunctionCall) goja.Value {
		return p.vm.ToValue(dateRange(p.now(), args(call)))
	})
	set("timeRange", func(call goja.FunctionCall) goja.Value {
		return p.vm.ToValue(timeRange(p.now(), args(call)))
	})
	set("alert", func(string) {}) // scripts call it to debug; nothing to show
}

func args(call goja.FunctionCall) []string {
	out := make([]string, len(call.Arguments))
	for i, a := range call.Arguments {
		out[i] = a.String()
	}
	return out
}

func (p *PAC) now() time.Time {
	if p.env.Now != nil {
		return p.env.Now()
	}
	return time.Now()
}

// resolve is host's first IPv4 address, as browsers' dnsResolve gives.
func (p *PAC) resolve(host string) (string, bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.String(), a.Unmap().Is4()
	}
	lookup := p.env.Lookup
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip4", host)
		}
	}
	addrs, err := lookup(p.ctx, host)
	if err != nil {
		return "", false
	}
	for _, a := range addrs {
		if a.Unmap().Is4() {
			return a.Unmap().String(), true
		}
	}
	return "", false
}

func (p *PAC) myAddress() string {
	if p.env.MyAddress != nil {
		return p.env.MyAddress()
	}
	// The address a connection outwards would leave from; no packet is sent.
	c, err := net.Dial("udp4", "198.51.100.1:80")
	if err != nil {
		return "127.0.0.1"
	}
	defer c.Close()
	if a, ok := c.LocalAddr().(*net.UDPAddr); ok && a.IP != nil {
		return a.IP.String()
	}
	return "127.0.0.1"
}

// ipv4 reads a dotted IPv4 address as a number.
func ipv4(s string) (uint32, bool) {
	a, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil || !a.Unmap().Is4() {
		return 0, false
	}
	b := a.Unmap().As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), true
}

// convertAddr is browsers' convert_addr: each of four dotted parts taken
// modulo 256, a part that is not a number counting as 0.
func convertAddr(s string) uint32 {
	parts := strings.Split(s, ".")
	var n uint32
	for i := 0; i < 4; i++ {
		var b uint32
		if i < len(parts) {
			var v int64
			for _, c := range parts[i] {
				if c < '0' || c > '9' {
					v = 0
					break
				}
				v = (v*10 + int64(c-'0')) & 0xffffffff
			}
			b = uint32(v) & 0xff
		}
		n = n<<8 | b
	}
	return n
}

// shExpMatch matches s against a shell expression: "*" any run of
// characters, "?" any one, every other character itself.
func shExpMatch(s, pattern string) bool {
	sr, pr := []rune(s), []rune(pattern)
	// Two rows of the table of which prefixes match: linear memory, no backtracking.
	prev := make([]bool, len(sr)+1)
	cur := make([]bool, len(sr)+1)
	prev[0] = true
	for _, c := range pr {
		cur[0] = prev[0] && c == '*'
		for j := 1; j <= len(sr); j++ {
			switch c {
			case '*':
				cur[j] = prev[j] || cur[j-1]
			case '?':
				cur[j] = prev[j-1]
			default:
				cur[j] = prev[j-1] && sr[j-1] == c
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(sr)]
}
