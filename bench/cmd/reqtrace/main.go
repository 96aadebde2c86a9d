// Command reqtrace uploads one file to the emulator and times every request
// of it with httptrace: whether its connection was reused, how long its body
// took to write, how long the answer took after the last byte, and the gap
// before the next request. It uploads through Hoist's engine/upload with the
// queue's transport (-client hoist), or through a bare net/http loop of PUTs
// of file sections with the same transport (-client plain), to tell Hoist's
// own cost per request from HTTP's.
//
//	reqtrace -url URL [-ca FILE] [-chunk BYTES] [-client hoist|plain] PATH
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"hoist/engine"
	"hoist/engine/upload"
)

func main() {
	url := flag.String("url", "", "the upload URL, e.g. https://127.0.0.1:8765/upload/sandbox/v1/files")
	ca := flag.String("ca", "", "a PEM file of certificates to trust (the emulator's over HTTPS)")
	chunk := flag.Int64("chunk", 8<<20, "bytes per request; 0 = the whole file in one")
	client := flag.String("client", "hoist", "hoist (engine/upload) or plain (a bare net/http loop)")
	flag.Parse()
	if *url == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: reqtrace -url URL [-ca FILE] [-chunk BYTES] [-client hoist|plain] PATH")
		os.Exit(2)
	}
	if err := run(*url, *ca, *chunk, *client, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "reqtrace:", err)
		os.Exit(1)
	}
}

// times are one request's moments.
type times struct {
	get, wroteHeaders, wrote, first time.Time
	reused                          bool
}

type recorder struct {
	mu   sync.Mutex
	reqs []*times
}

func (r *recorder) last(f func(*times)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) > 0 {
		f(r.reqs[len(r.reqs)-1])
	}
}

func (r *recorder) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GetConn: func(string) {
			r.mu.Lock()
			r.reqs = append(r.reqs, &times{get: time.Now()})
			r.mu.Unlock()
		},
		GotConn:              func(i httptrace.GotConnInfo) { r.last(func(t *times) { t.reused = i.Reused }) },
		WroteHeaders:         func() { r.last(func(t *times) { t.wroteHeaders = time.Now() }) },
		WroteRequest:         func(httptrace.WroteRequestInfo) { r.last(func(t *times) { t.wrote = time.Now() }) },
		GotFirstResponseByte: func() { r.last(func(t *times) { t.first = time.Now() }) },
	}
}

type file struct {
	*os.File
	size int64
}

func (f file) Size() int64 { return f.size }

func run(url, ca string, chunk int64, client, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	tr, err := engine.TrustingTransport(ca, false)
	if err != nil {
		return err
	}
	rec := &recorder{}
	ctx := httptrace.WithClientTrace(context.Background(), rec.trace())
	start := time.Now()
	switch client {
	case "hoist":
		u := &upload.Uploader{Client: &http.Client{Transport: tr}, ChunkSize: chunk}
		_, err = u.Upload(ctx, upload.Target{URL: url}, file{f, st.Size()}, upload.Resumable, nil, nil)
	case "plain":
		err = plain(ctx, &http.Client{Transport: tr}, url, f, st.Size(), chunk)
	default:
		err = fmt.Errorf("unknown client %q", client)
	}
	took := time.Since(start)
	if err != nil {
		return err
	}
	var body, answer, gap, headers []time.Duration
	reused := 0
	for i, t := range rec.reqs {
		if t.reused {
			reused++
		}
		if i == 0 {
			continue // the session's start
		}
		headers = append(headers, t.wroteHeaders.Sub(t.get))
		body = append(body, t.wrote.Sub(t.wroteHeaders))
		answer = append(answer, t.first.Sub(t.wrote))
		if i+1 < len(rec.reqs) {
			gap = append(gap, rec.reqs[i+1].get.Sub(t.first))
		}
	}
	fmt.Printf("%s, chunk %d: %.3f s, %d requests, %d on a reused connection\n", client, chunk, took.Seconds(), len(rec.reqs), reused)
	fmt.Printf("median per request: headers written %v, body written %v, last byte to answer %v, answer to next request %v\n",
		median(headers), median(body), median(answer), median(gap))
	fmt.Printf("sum: body written %v, last byte to answer %v, answer to next request %v\n", sum(body), sum(answer), sum(gap))
	return nil
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func sum(d []time.Duration) (t time.Duration) {
	for _, x := range d {
		t += x
	}
	return t
}

// plain uploads the file as a resumable session of PUTs of its sections,
// with nothing of Hoist's but the transport.
func plain(ctx context.Context, c *http.Client, url string, f *os.File, size, chunk int64) error {
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"?uploadType=resumable", nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Upload-Content-Length", strconv.FormatInt(size, 10))
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Location")
	if session == "" {
		return errors.New("no session address in the answer")
	}
	if chunk <= 0 {
		chunk = size
	}
	for off := int64(0); off < size; off += chunk {
		n := min(chunk, size-off)
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, session, io.NewSectionReader(f, off, n))
		if err != nil {
			return err
		}
		req.ContentLength = n
		req.Header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", off, off+n-1, size))
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusPermanentRedirect && resp.StatusCode/100 != 2 {
			return fmt.Errorf("the chunk at %d was answered %d", off, resp.StatusCode)
		}
	}
	return nil
}
