package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"hoist/engine/emulator"
	"hoist/engine"
)

// DefaultSandboxAddr is where `hoist sandbox` listens unless told otherwise,
// and where `hoist send --to sandbox` looks for it first.
const DefaultSandboxAddr = "127.0.0.1:8765"

// Sandbox runs `hoist sandbox`: the emulator on an address, until interrupted.
func Sandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hoist sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", DefaultSandboxAddr, "address to listen on (loopback)")
	store := fs.String("store", "disk", "where received files go: memory, disk or hash (length and SHA-256 only)")
	data := fs.String("data", "", "folder for the disk store (default: Hoist's data folder)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: hoist sandbox [--addr 127.0.0.1:PORT] [--store memory|disk|hash] [--data DIR]")
		fmt.Fprintln(stderr, "Runs the built-in sandbox: a server that speaks Google's upload protocol, for trying Hoist without Google.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hoist sandbox: unexpected %q\n", fs.Arg(0))
		return exitUsage
	}
	dir := *data
	if dir == "" {
		dir = filepath.Join(engine.DataDir(), "sandbox")
	}
	st, err := openStore(*store, dir)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: cannot listen on %s: %v\n", *addr, err)
		return exitFailed
	}
	url, stop, err := serveSandbox(ln, st)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: %v\n", err)
		return exitFailed
	}
	fmt.Fprintln(stdout, url)
	fmt.Fprintf(stderr, "The sandbox is running at %s (store: %s", url, *store)
	if *store == "disk" {
		fmt.Fprintf(stderr, ", in %s", dir)
	}
	fmt.Fprintln(stderr, "). Press Ctrl+C to stop it.")
	<-ctx.Done()
	stop()
	return exitOK
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
	return nil, fmt.Errorf("unknown store %q (use memory, disk or hash)", kind)
}

// serveSandbox serves an emulator with store st on ln; stop shuts it down.
func serveSandbox(ln net.Listener, st emulator.Store) (url string, stop func(), err error) {
	url = "http://" + ln.Addr().String()
	srv, err := emulator.New(emulator.Options{Store: st, BaseURL: url})
	if err != nil {
		ln.Close()
		return "", nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(ln)
	}()
	return url, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		<-done
		srv.Close()
	}, nil
}

// sandboxURL finds the sandbox for `--to sandbox`: the one `hoist sandbox`
// runs at its default address, else an in-process one keeping its data in the
// user's data folder. stop is nil when the sandbox is not ours.
func sandboxURL(ctx context.Context) (url string, stop func(), err error) {
	url = "http://" + DefaultSandboxAddr
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+emulator.HealthPath, nil)
	if err != nil {
		return "", nil, err
	}
	c := &http.Client{Timeout: 500 * time.Millisecond}
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return url, nil, nil
		}
	}
	st, err := emulator.NewDiskStore(filepath.Join(engine.DataDir(), "sandbox"))
	if err != nil {
		return "", nil, err
	}
	// The default address keeps session URIs valid for a later --resume.
	ln, err := net.Listen("tcp", DefaultSandboxAddr)
	if err != nil {
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return "", nil, err
		}
	}
	return serveSandbox(ln, st)
}
