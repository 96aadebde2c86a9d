package proxy

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"hoist/internal/testproxy"
)

// wpadNameEnv names the variable scripts/wine-proxy-test.sh sets in a
// network of the test's own, where the computer's name, hosts file and DNS
// server (127.0.0.1) are the test's: the wpad name the test's DNS answers.
const wpadNameEnv = "HOIST_WPAD_NAME"

// TestWinHTTPDetectsAsWindows asks WinHTTP's own detection (DHCP, then DNS
// in the computer's domain) for the script, with Hoist's own DNS walk
// turned off, and sends a request through the proxy the script found there
// names, to a name only that proxy resolves.
func TestWinHTTPDetectsAsWindows(t *testing.T) {
	name := os.Getenv(wpadNameEnv)
	if name == "" {
		t.Skip("needs a network of the test's own: run by scripts/wine-proxy-test.sh")
	}
	answerDNS(t, name, "127.0.0.2")
	noDNS := func(context.Context, string) ([]string, error) {
		return nil, errors.New("Hoist's own DNS walk is not asked here")
	}
	found, err := Detector{Lookup: noDNS}.Detect(context.Background())
	want := "http://" + name + "/wpad.dat"
	if err != nil || found.Address != want || found.How != ByWinHTTP {
		t.Fatalf("Detect = %+v, %v; want %s from WinHTTP", found, err, want)
	}

	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") }))
	defer origin.Close()
	px := testproxy.Start(t, testproxy.WithHost(onlyThroughProxy, origin.Listener.Addr().String()))
	pac := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `function FindProxyForURL(url, host) { return dnsDomainIs(host, ".invalid") ? "PROXY %s" : "DIRECT"; }`, px.Addr)
	}))
	defer pac.Close()
	dialer := &net.Dialer{}
	p := &Proxies{
		Setting:  Setting{Origin: FromWindows, Mode: Script, Detect: true},
		Detector: Detector{Lookup: noDNS},
		// The script's server listens on a port of its own, not wpad's 80.
		Fetch: &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == name+":80" {
				addr = pac.Listener.Addr().String()
			}
			return dialer.DialContext(ctx, network, addr)
		}}},
		Notice: func(err error) { t.Errorf("notice: %v", err) },
	}
	c := &http.Client{Transport: p.Apply(http.DefaultTransport.(*http.Transport).Clone())}
	resp, err := c.Get("http://" + onlyThroughProxy + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || px.Requests() != 1 || p.Current().PAC != want {
		t.Fatalf("%s, %d requests through the proxy, script in use %q", resp.Status, px.Requests(), p.Current().PAC)
	}
}

// answerDNS is the DNS server of the test's own network: it answers name's
// A record with addr, and no other name. WinHTTP asks DNS only (never the
// hosts file) for wpad names, and resolvers ask port 53: the network is the
// test's own, so the port is free. The socket is Winsock's own: Go's UDP
// sockets ask for a setting Wine does not offer.
func answerDNS(t *testing.T, name, addr string) {
	t.Helper()
	fd, err := windows.Socket(windows.AF_INET, windows.SOCK_DGRAM, windows.IPPROTO_UDP)
	if err != nil {
		t.Fatalf("the test's DNS server: %v", err)
	}
	if err := windows.Bind(fd, &windows.SockaddrInet4{Port: 53, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		windows.Closesocket(fd)
		t.Fatalf("the test's DNS server: %v", err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { windows.Closesocket(fd); <-done })
	ip := net.ParseIP(addr).To4()
	go func() {
		defer close(done)
		buf := make([]byte, 512)
		for {
			n, from, err := windows.Recvfrom(fd, buf, 0)
			if err != nil {
				return // closed: the test is over
			}
			if reply := dnsReply(buf[:n], name, ip); reply != nil {
				_ = windows.Sendto(fd, reply, 0, from)
			}
		}
	}()
}

// dnsReply answers one query: name's A record, no record of another type
// for it, and "no such name" for any other; nil for a query it cannot read.
func dnsReply(q []byte, name string, ip net.IP) []byte {
	if len(q) < 12 {
		return nil
	}
	i := 12
	var labels []string
	for i < len(q) && q[i] != 0 {
		n := int(q[i])
		if i+1+n > len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+n]))
		i += 1 + n
	}
	if i+5 > len(q) {
		return nil
	}
	question := q[12 : i+5]
	qtype := binary.BigEndian.Uint16(q[i+1 : i+3])
	known := strings.EqualFold(strings.Join(labels, "."), name)
	flags, answers := uint16(0x8180), uint16(0)
	if !known {
		flags |= 3 // no such name
	} else if qtype == 1 {
		answers = 1
	}
	r := binary.BigEndian.AppendUint16(nil, binary.BigEndian.Uint16(q[:2]))
	for _, v := range []uint16{flags, 1, answers, 0, 0} {
		r = binary.BigEndian.AppendUint16(r, v)
	}
	r = append(r, question...)
	if answers == 1 {
		r = append(r, 0xc0, 0x0c) // the question's name
		for _, v := range []uint16{1, 1, 0, 60, 4} {
			r = binary.BigEndian.AppendUint16(r, v)
		}
		r = append(r, ip...)
	}
	return r
}
