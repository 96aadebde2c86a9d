package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
)

// The emulator's own throughput on loopback, measured with a raw client, must
// stay far above any client's so that client benchmarks measure the client.

const benchFile = 64 << 20

func benchResumable(b *testing.B, store Store, chunk int) {
	h := newHarness(b, Options{Store: store})
	data := payload(chunk, 40)
	b.SetBytes(benchFile)
	for b.Loop() {
		resp, err := h.client.Post(h.url(withQuery(genericPath, "uploadType", "resumable")), "", nil)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		session := resp.Header.Get("Location")
		for off := 0; off < benchFile; off += chunk {
			req, _ := http.NewRequest(http.MethodPut, session, bytes.NewReader(data))
			req.Header.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", off, off+chunk-1, benchFile))
			resp, err := h.client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			want := statusResumeIncomplete
			if off+chunk == benchFile {
				want = http.StatusCreated
			}
			if resp.StatusCode != want {
				b.Fatalf("chunk at %d: status %d", off, resp.StatusCode)
			}
		}
	}
}

func BenchmarkResumableHashStore(b *testing.B) { benchResumable(b, NewHashStore(), 16<<20) }

func BenchmarkResumableCRCStore(b *testing.B) { benchResumable(b, NewCRCStore(), 16<<20) }

func BenchmarkResumableHashStoreSmallChunks(b *testing.B) {
	benchResumable(b, NewHashStore(), 1<<20)
}

func BenchmarkResumableDiskStore(b *testing.B) {
	store, err := NewDiskStore(filepath.Join(b.TempDir(), "sandbox"))
	if err != nil {
		b.Fatal(err)
	}
	benchResumable(b, store, 16<<20)
}

func BenchmarkMediaHashStore(b *testing.B) {
	h := newHarness(b, Options{Store: NewHashStore()})
	data := payload(benchFile, 41)
	b.SetBytes(benchFile)
	for b.Loop() {
		resp, err := h.client.Post(h.url(withQuery(genericPath, "uploadType", "media")), "application/octet-stream", bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}
