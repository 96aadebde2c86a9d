// Command engineupload runs Hoist's upload queue (package hoist/engine) as a
// library inside a minimal program: no command line, no journal, no window.
// Set against `hoist send`, it shows what the command line adds.
//
//	engineupload -url UPLOAD_URL [-chunk BYTES] [-parallel N] [-method M] PATH...
//
// The exit status is 0 only when every file uploaded.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/upload"
)

func main() {
	url := flag.String("url", "", "the upload URL, e.g. http://127.0.0.1:8765/upload/sandbox/v1/files")
	chunk := flag.Int64("chunk", 8<<20, "bytes per request of a resumable upload; 0 = the whole file in one request")
	parallel := flag.Int("parallel", 4, "uploads at once")
	method := flag.String("method", "auto", "auto, media, multipart or resumable")
	flag.Parse()
	if *url == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: engineupload -url UPLOAD_URL [-chunk BYTES] [-parallel N] [-method M] PATH...")
		os.Exit(2)
	}
	if err := run(context.Background(), *url, *chunk, *parallel, upload.Method(*method), flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "engineupload:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, url string, chunk int64, parallel int, method upload.Method, paths []string) error {
	d, err := dest.FromUploadURL(map[string]string{"url": url})
	if err != nil {
		return err
	}
	q, err := engine.Open(ctx, engine.Options{Parallel: parallel, ChunkSize: chunk, Method: method})
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = q.Close(cctx)
	}()
	added := q.Add(paths, d)
	if len(added.Problems) > 0 {
		return errors.Join(added.Problems...)
	}
	if err := q.Wait(ctx); err != nil {
		return err
	}
	var failed []error
	for _, v := range q.Jobs() {
		if v.State != engine.Done {
			failed = append(failed, fmt.Errorf("%s: %s %s", v.Name, v.State, v.Reason))
		}
	}
	return errors.Join(failed...)
}
