package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hoist/dirs"
	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// sandboxProbe is a sandbox page that answers 200 with JSON, to recognise one.
const sandboxProbe = "/sandbox/objects"

// DefaultSandboxAddr is where `hoist sandbox` listens unless told otherwise,
// and where `hoist send --to sandbox` looks for it first.
const DefaultSandboxAddr = "127.0.0.1:8765"

// SandboxAddrEnv names the environment variable that moves the sandbox's
// default address, e.g. HOIST_SANDBOX_ADDR=127.0.0.1:9000 when 8765 is taken.
const SandboxAddrEnv = "HOIST_SANDBOX_ADDR"

// defaultSandboxAddr is DefaultSandboxAddr, or the address SandboxAddrEnv names.
func defaultSandboxAddr() string {
	if a := strings.TrimSpace(os.Getenv(SandboxAddrEnv)); a != "" && addrProblem(a) == "" {
		return a
	}
	return DefaultSandboxAddr
}

// Sandbox runs `hoist sandbox`: the emulator on an address, until interrupted.
func Sandbox(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hoist sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", defaultSandboxAddr(), "address to listen on (loopback; the default can be set with "+SandboxAddrEnv+")")
	store := fs.String("store", "disk", "where received files go: memory, disk or hash (length and SHA-256 only)")
	data := fs.String("data", "", "folder for the disk store (default: Hoist's data folder)")
	refuse := fs.String("refuse-resumable", "", "refuse resumable uploads to these destinations, as Google may: cm360, playgames or both (comma-separated); Hoist then falls back to one request")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: hoist sandbox [--addr 127.0.0.1:PORT] [--store memory|disk|hash] [--data DIR] [--refuse-resumable cm360,playgames]")
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
	if msg := addrProblem(*addr); msg != "" {
		fmt.Fprintf(stderr, "hoist sandbox: --addr %s\n", msg)
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
	refused, err := refusedKinds(*refuse)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: --refuse-resumable: %v\n", err)
		return exitUsage
	}
	st, err := openStore(*store, dir)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: %v\n", err)
		return exitUsage
	}
	url, stop, err := serveSandbox(*addr, st, refused...)
	if err != nil {
		fmt.Fprintf(stderr, "hoist sandbox: cannot serve on %s: %v\n", *addr, err)
		return exitFailed
	}
	fmt.Fprintln(stdout, url)
	fmt.Fprintf(stderr, "Upload URL for \"hoist send --to\": %s%s\n", url, dest.SandboxPath)
	fmt.Fprintf(stderr, "The sandbox is running at %s (store: %s", url, *store)
	if *store == "disk" {
		fmt.Fprintf(stderr, ", in %s", dir)
	}
	fmt.Fprintln(stderr, "). Press Ctrl+C to stop it.")
	<-ctx.Done()
	stop()
	return exitOK
}

// refusedKinds reads --refuse-resumable: destinations whose resumable
// starts the sandbox refuses, to show the fall-back to one request.
func refusedKinds(list string) ([]emulator.Kind, error) {
	var kinds []emulator.Kind
	for _, name := range strings.Split(list, ",") {
		switch k := emulator.Kind(strings.TrimSpace(strings.ToLower(name))); k {
		case "":
		case emulator.KindCampaignManager, emulator.KindPlayGames:
			kinds = append(kinds, k)
		default:
			return nil, fmt.Errorf("%q is not cm360 or playgames (only they fall back when Google refuses a resumable upload)", name)
		}
	}
	return kinds, nil
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

// addrProblem says what is wrong with an address to listen on
// (HOST:PORT, the port a number from 0 to 65535), or "".
func addrProblem(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q is not an address like 127.0.0.1:8765 (host, colon, port).", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Sprintf("%q has the port %q; a port is a number from 0 to 65535.", addr, port)
	}
	return ""
}

// serveSandbox serves an emulator with store st on addr; stop shuts it down.
func serveSandbox(addr string, st emulator.Store, refuseResumable ...emulator.Kind) (url string, stop func(), err error) {
	srv, err := emulator.New(emulator.Options{Store: st, RefuseResumable: refuseResumable})
	if err != nil {
		return "", nil, err
	}
	url, stopServer, err := srv.Start(context.Background(), addr)
	if err != nil {
		srv.Close()
		return "", nil, err
	}
	return url, func() {
		_ = stopServer()
		srv.Close()
	}, nil
}

// sandboxURL finds the sandbox for `--to sandbox`: the one `hoist sandbox`
// runs at its default address, else an in-process one keeping its data in the
// user's data folder. stop is nil when the sandbox is not ours.
func sandboxURL(ctx context.Context) (url string, stop func(), err error) {
	url = "http://" + defaultSandboxAddr()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+sandboxProbe, nil)
	if err != nil {
		return "", nil, err
	}
	c := &http.Client{Timeout: 500 * time.Millisecond}
	if resp, err := c.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			return url, nil, nil
		}
	}
	data, err := dirs.Data()
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(data, "sandbox")
	// The default address keeps session URIs valid for a later --resume.
	for _, addr := range []string{defaultSandboxAddr(), "127.0.0.1:0"} {
		st, err := emulator.NewDiskStore(dir)
		if err != nil {
			return "", nil, err
		}
		if url, stop, err = serveSandbox(addr, st); err == nil {
			return url, stop, nil
		}
	}
	return "", nil, err
}
