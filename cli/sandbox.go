package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"hoist/dirs"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/words"
)

// sandboxProbe is a sandbox page that answers 200 with JSON, to recognise one.
const sandboxProbe = "/sandbox/objects"

// DefaultSandboxAddr is where `hoist sandbox` listens unless told otherwise,
// and where `hoist send --to sandbox` looks for it first.
const DefaultSandboxAddr = "127.0.0.1:8765"

// SandboxAddrEnv names the environment variable that moves the sandbox's
// default address, e.g. HOIST_SANDBOX_ADDR=127.0.0.1:9000 when 8765 is taken.
const SandboxAddrEnv = emulator.AddrEnv

// defaultSandboxAddr is DefaultSandboxAddr, or the address SandboxAddrEnv names.
func defaultSandboxAddr() string {
	if a := strings.TrimSpace(os.Getenv(SandboxAddrEnv)); a != "" && addrProblem(a) == nil {
		return a
	}
	return DefaultSandboxAddr
}

// Sandbox runs `hoist sandbox`: the emulator on an address, until interrupted.
func Sandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	fs := newFlags(l, "hoist sandbox", stderr, func() {
		fmt.Fprintln(stderr, usageLine(l, "hoist sandbox [--addr 127.0.0.1:PORT] [--store memory|disk|hash] [--data DIR] [--tls [--ca-out FILE]] [--refuse-resumable "+strings.Join(fallbackNames(), ",")+"]"))
		say(stderr, l, "cli.sandbox.about", nil)
	})
	addr := fs.String("addr", defaultSandboxAddr(), l.Say("cli.flag.addr", words.Args{"Env": l.Isolate(SandboxAddrEnv)}))
	store := fs.String("store", "disk", l.Say("cli.flag.store", words.Args{"Choices": either(l, "memory", "disk", "hash"), "Hash": l.Isolate("hash")}))
	data := fs.String("data", "", l.Say("cli.flag.data", nil))
	useTLS := fs.Bool("tls", false, l.Say("cli.flag.tls", words.Args{"Flag": l.Isolate("--ca-out")}))
	caOut := fs.String("ca-out", "", l.Say("cli.flag.caOut", words.Args{"Flag": l.Isolate("--tls"), "File": l.Isolate("sandbox-ca.pem"), "Send": cmdWords(l, "hoist send"), "CAFile": l.Isolate("--ca-file"), "Env": l.Isolate("$" + engine.CAFileEnv)}))
	refuse := fs.String("refuse-resumable", "", l.Say("cli.flag.refuse", words.Args{"Choices": either(l, fallbackNames()...)}))
	if status := parseFlags(fs, l, stderr, args); status >= 0 {
		return status
	}
	if fs.NArg() > 0 {
		complain(stderr, l, "hoist sandbox", "cli.unexpected", words.Args{"Value": quoted(l, fs.Arg(0))})
		return exitUsage
	}
	if err := addrProblem(*addr); err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: --addr %s\n", errWords(l, err))
		return exitUsage
	}
	dir := *data
	if dir == "" {
		data, err := dirs.Data()
		if err != nil {
			fmt.Fprintf(stderr, "hoist sandbox: %v\n", err)
			return exitFailed
		}
		dir = filepath.Join(data, "sandbox")
	}
	refused, err := refusedKinds(l, *refuse)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: --refuse-resumable: %s\n", errWords(l, err))
		return exitUsage
	}
	st, err := openStore(*store, dir)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: %s\n", errWords(l, err))
		return exitUsage
	}
	var ca *emulator.Authority
	if *useTLS {
		if ca, err = sandboxAuthority(*caOut, dir); err != nil {
			fmt.Fprintf(stderr, "hoist sandbox: %v\n", err)
			return exitFailed
		}
	}
	url, stop, err := serveSandbox(*addr, st, ca, refused...)
	if err != nil {
		complain(stderr, l, "hoist sandbox", "cli.sandbox.cannotServe", words.Args{"Addr": l.Isolate(*addr), "Error": err.Error()})
		return exitFailed
	}
	fmt.Fprintln(stdout, url)
	if ca == nil {
		// The same user's `hoist send --to sandbox` finds it by this note,
		// and no other user's does.
		if cfg, err := dirs.Config(); err == nil && os.MkdirAll(cfg, 0o700) == nil {
			if withdraw, err := emulator.Announce(cfg, url); err == nil {
				defer withdraw()
			}
		}
	}
	if ca != nil {
		path := caPath(*caOut, dir)
		say(stderr, l, "cli.sandbox.tls", words.Args{"Cmd": cmdWords(l, "hoist send --ca-file "+path), "Env": cmdWords(l, engine.CAFileEnv+"="+path)})
	}
	say(stderr, l, "cli.sandbox.uploadURL", words.Args{"Cmd": cmdWords(l, "hoist send --to"), "URL": l.Isolate(url + dest.SandboxPath)})
	running := words.Args{"URL": l.Isolate(url), "Store": l.Isolate(*store), "Keys": "Ctrl+C"}
	if *store == "disk" {
		running["Dir"] = name(l, dir)
		say(stderr, l, "cli.sandbox.runningIn", running)
	} else {
		say(stderr, l, "cli.sandbox.running", running)
	}
	<-ctx.Done()
	stop()
	return exitOK
}

// refusedKinds reads --refuse-resumable: destinations whose resumable
// starts the sandbox refuses, to show the fall-back to one request; only
// those the sandbox can refuse (emulator.FallbackKinds) are taken.
func refusedKinds(l *words.Lang, list string) ([]emulator.Kind, error) {
	var kinds []emulator.Kind
	for _, name := range strings.Split(list, ",") {
		k := emulator.Kind(strings.TrimSpace(strings.ToLower(name)))
		switch {
		case k == "":
		case slices.Contains(emulator.FallbackKinds(), k):
			kinds = append(kinds, k)
		default:
			return nil, &sentence{"cli.sandbox.badRefuse", words.Args{"Value": strconv.Quote(name), "Choices": either(l, fallbackNames()...)}}
		}
	}
	return kinds, nil
}

// fallbackNames are the names --refuse-resumable takes.
func fallbackNames() []string {
	var out []string
	for _, k := range emulator.FallbackKinds() {
		out = append(out, string(k))
	}
	return out
}

func openStore(kind, dir string) (emulator.Store, error) {
	switch kind {
	case "memory":
		return emulator.NewMemoryStore(), nil
	case "hash":
		return emulator.NewHashStore(), nil
	case "disk":
		return emulator.NewDiskStore(dir)
	}
	return nil, &sentence{"cli.sandbox.badStore", words.Args{"Value": strconv.Quote(kind), "Memory": "memory", "Disk": "disk", "Hash": "hash"}}
}

// addrProblem says what is wrong with an address to listen on
// (HOST:PORT, the port a number from 0 to 65535), or nil.
func addrProblem(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return &sentence{"cli.sandbox.badAddr", words.Args{"Value": strconv.Quote(addr), "Example": "127.0.0.1:8765"}}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return &sentence{"cli.sandbox.badPort", words.Args{"Value": strconv.Quote(addr), "Port": strconv.Quote(port)}}
	}
	return nil
}

// caPath is where the HTTPS sandbox's authority is written.
func caPath(out, dir string) string {
	if out != "" {
		return out
	}
	return filepath.Join(dir, "sandbox-ca.pem")
}

// sandboxAuthority makes the HTTPS sandbox's authority and writes its
// certificate where clients can find it.
func sandboxAuthority(out, dir string) (*emulator.Authority, error) {
	ca, err := emulator.NewAuthority()
	if err != nil {
		return nil, err
	}
	path := caPath(out, dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("the certificate cannot be written: %w", err)
	}
	if err := ca.WriteCert(path); err != nil {
		return nil, fmt.Errorf("the certificate cannot be written: %w", err)
	}
	return ca, nil
}

// serveSandbox serves an emulator with store st on addr, over HTTPS with
// ca's certificate when ca is not nil; stop shuts it down.
func serveSandbox(addr string, st emulator.Store, ca *emulator.Authority, refuseResumable ...emulator.Kind) (url string, stop func(), err error) {
	srv, err := emulator.New(emulator.Options{Store: st, RefuseResumable: refuseResumable})
	if err != nil {
		return "", nil, err
	}
	start := srv.Start
	if ca != nil {
		start = func(ctx context.Context, addr string) (string, func() error, error) {
			return srv.StartTLS(ctx, addr, ca)
		}
	}
	url, stopServer, err := start(context.Background(), addr)
	if err != nil {
		srv.Close()
		return "", nil, err
	}
	return url, func() {
		_ = stopServer()
		srv.Close()
	}, nil
}

// sandboxURL finds the sandbox for `--to sandbox`: the one at the address
// SandboxAddrEnv names; else the one this user's window or `hoist sandbox`
// runs (each announces its address in the user's private settings folder;
// a sandbox at the default address is not asked, since another user may run
// it); else an in-process one keeping its
// data in the user's data folder, on the address SandboxAddrEnv names or
// the user's own port (emulator.UserAddr), which no other user's Hoist
// takes. stop is nil when the sandbox is not ours.
func sandboxURL(ctx context.Context) (url string, stop func(), err error) {
	env := strings.TrimSpace(os.Getenv(SandboxAddrEnv))
	if env != "" && addrProblem(env) != nil {
		env = ""
	}
	var candidates []string
	if env != "" {
		candidates = append(candidates, "http://"+env)
	} else {
		if cfg, err := dirs.Config(); err == nil {
			if u := emulator.Announced(cfg); u != "" {
				candidates = append(candidates, u)
			}
		}
	}
	for _, u := range candidates {
		if isSandbox(ctx, u) {
			return u, nil, nil
		}
	}
	data, err := dirs.Data()
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(data, "sandbox")
	// The same address each time keeps session URIs valid for a later --resume.
	own := env
	if own == "" {
		own = emulator.UserAddr()
	}
	for _, addr := range []string{own, "127.0.0.1:0"} {
		st, err := emulator.NewDiskStore(dir)
		if err != nil {
			return "", nil, err
		}
		if url, stop, err = serveSandbox(addr, st, nil); err == nil {
			return url, stop, nil
		}
	}
	return "", nil, err
}

// isSandbox is true when a sandbox answers at url.
func isSandbox(ctx context.Context, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+sandboxProbe, nil)
	if err != nil {
		return false
	}
	c := &http.Client{Timeout: 500 * time.Millisecond}
	resp, err := c.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json")
}
