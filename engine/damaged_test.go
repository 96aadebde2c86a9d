package engine_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// corrupter is a proxy that damages one byte of each upload request's body
// while on is set, as a bad link or a broken middlebox would.
type corrupter struct {
	on      atomic.Bool
	damaged atomic.Int32
}

func (c *corrupter) proxy(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	inner := p.Director
	p.Director = func(r *http.Request) {
		inner(r)
		if c.on.Load() && r.Body != nil && r.ContentLength > 1000 && strings.HasPrefix(r.URL.Path, "/upload/") {
			r.Body = &flipAt{ReadCloser: r.Body, at: r.ContentLength - 500}
			c.damaged.Add(1)
		}
	}
	ts := httptest.NewServer(p)
	t.Cleanup(ts.Close)
	return ts.URL
}

// flipAt flips the bits of the byte at offset at of a body.
type flipAt struct {
	io.ReadCloser
	at, read int64
}

func (f *flipAt) Read(b []byte) (int, error) {
	n, err := f.ReadCloser.Read(b)
	if i := f.at - f.read; i >= 0 && i < int64(n) {
		b[i] ^= 0xff
	}
	f.read += int64(n)
	return n, err
}

// damagedThenWhole sends file to d through c, damaged: it must fail saying
// so, with Retry as the next step, and nothing kept; Retry, undamaged, must
// bring it whole, as one object.
func damagedThenWhole(t *testing.T, l *lab, c *corrupter, d dest.Destination, file string, reason string) {
	t.Helper()
	c.on.Store(true)
	v := l.one(d, file)
	if c.damaged.Load() == 0 {
		t.Fatal("nothing was damaged")
	}
	if v.State != engine.Failed || reasonOf(v) != reason {
		t.Fatalf("%s: %q", v.State, reasonOf(v))
	}
	if !isFact(v.NextFact, fact.PressRetryAgain) || !strings.Contains(v.Details, "CRC32C") {
		t.Errorf("next %q, the server's words %q", nextOf(v), v.Details)
	}
	if n := l.srv.Received(); n != 0 {
		t.Fatalf("the server kept %d damaged objects", n)
	}
	c.on.Store(false)
	if err := l.q.Do(v.ID, engine.Retry); err != nil {
		t.Fatal(err)
	}
	if err := l.q.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	again, _ := l.q.Job(v.ID)
	done(t, again)
	if objs := l.srv.Objects(); len(objs) != 1 || objs[0].SHA256 != sha(t, file) {
		t.Errorf("objects %+v", objs)
	}
}

// TestDamagedBytesAreSentAgain: bytes damaged on the way to Cloud Storage
// do not match the CRC32C Hoist named, and Cloud Storage keeps nothing; the
// reason says so and the next step is Retry, which sends the file anew (a
// new session: the one that carried the damage cannot be finished).
func TestDamagedBytesAreSentAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		dest func(base string) dest.Destination
	}{
		{"an address of Cloud Storage", func(base string) dest.Destination {
			return dest.Destination{Name: "Banners", Kind: dest.Custom, Params: map[string]string{"url": base + "/upload/storage/v1/b/banners/o?name=banner.png"}}
		}},
		{"Google Cloud Storage", func(base string) dest.Destination {
			return dest.Destination{Kind: dest.Storage, BaseURL: base, Params: map[string]string{"bucket": "northwind-banners"}}
		}},
	} {
		for _, m := range []upload.Method{upload.Multipart, upload.Resumable} {
			t.Run(tc.name+", "+string(m), func(t *testing.T) {
				l := newLab(t, emulator.Options{}, m, 0)
				var c corrupter
				file := pngFile(t, t.TempDir(), "banner.png", 300*kib)
				damagedThenWhole(t, l, &c, tc.dest(c.proxy(t, l.url)), file,
					"The bytes the server received did not match the file's checksum, so it kept nothing: they were damaged on the way.")
			})
		}
	}
}
