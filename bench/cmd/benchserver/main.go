// Command benchserver runs the emulator in a process of its own, so that the
// client being measured does not share its CPU time or memory figures, and
// lets the harness read and clear the request log between runs.
//
//	benchserver [-addr 127.0.0.1:0] [-store hash|crc|disk] [-data DIR] [-tls-ca FILE] [-tls-name NAME]
//
// It prints its base URL on the first line of standard output and serves
// until it is interrupted or its standard input closes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"hoist/engine/emulator"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	store := flag.String("store", "hash", "hash (length and SHA-256 only), crc (length and CRC32C only) or disk")
	data := flag.String("data", "", "folder of the disk store")
	caOut := flag.String("tls-ca", "", "serve HTTPS (HTTP/2 and HTTP/1.1) with a certificate made now, writing its authority here")
	tlsName := flag.String("tls-name", "", "a host name the certificate names besides localhost and 127.0.0.1 (one only a proxy resolves)")
	flag.Parse()
	if err := run(*addr, *store, *data, *caOut, *tlsName); err != nil {
		fmt.Fprintln(os.Stderr, "benchserver:", err)
		os.Exit(1)
	}
}

func run(addr, kind, data, caOut, tlsName string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// The harness closes our standard input when it goes, even if it is killed.
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()

	var st emulator.Store
	switch kind {
	case "hash":
		st = emulator.NewHashStore()
	case "crc":
		st = emulator.NewCRCStore()
	case "disk":
		if data == "" {
			return errors.New("-store disk needs -data")
		}
		var err error
		if st, err = emulator.NewDiskStore(data); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown store %q", kind)
	}
	srv, err := emulator.New(emulator.Options{Store: st})
	if err != nil {
		return err
	}
	defer srv.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /bench/requests", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, srv.Requests())
	})
	mux.HandleFunc("POST /bench/clear", func(w http.ResponseWriter, _ *http.Request) {
		srv.ClearRequests()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /bench/objects", func(w http.ResponseWriter, r *http.Request) {
		since, _ := strconv.Atoi(r.URL.Query().Get("since"))
		objs := srv.Objects()
		since = min(max(since, 0), len(objs))
		writeJSON(w, objs[since:])
	})
	mux.HandleFunc("GET /bench/usage", func(w http.ResponseWriter, _ *http.Request) {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		writeJSON(w, map[string]float64{
			"userSeconds":   time.Duration(ru.Utime.Nano()).Seconds(),
			"systemSeconds": time.Duration(ru.Stime.Nano()).Seconds(),
			"maxRSSBytes":   float64(ru.Maxrss) * 1024,
		})
	})
	mux.Handle("/", srv)

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          slog.NewLogLogger(slog.DiscardHandler, slog.LevelDebug),
	}
	serve, scheme := hs.Serve, "http"
	if caOut != "" {
		ca, err := emulator.NewAuthority(tlsName)
		if err != nil {
			return err
		}
		if err := ca.WriteCert(caOut); err != nil {
			return err
		}
		ca.Configure(hs)
		serve = func(ln net.Listener) error { return hs.ServeTLS(ln, "", "") }
		scheme = "https"
	}
	fmt.Printf("%s://%s\n", scheme, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
