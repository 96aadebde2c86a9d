package upload

import "testing"

// A link that cuts every 32 MiB of traffic, where the server keeps what
// came before each cut: once a request running to the file's end is cut,
// each cut costs one request to the end and no more, however often it
// comes. A request cut before the server kept any of it still halves.
func TestChunkerFinishesACutRequestToTheEnd(t *testing.T) {
	const total, every = 256 << 20, 32 << 20
	c := newChunker(ChunkAuto)
	c.confirmed(ChunkAlign, ChunkAlign, 1)
	off := int64(ChunkAlign)
	for cut := 1; off < total; cut++ {
		n := c.next(off, total)
		if off+n != total {
			t.Fatalf("after %d cuts the request from %d carries %d bytes and ends short of the file's end %d", cut-1, off, n, total)
		}
		c.broke(off, n, false)
		off += min(every, total-off)
	}

	c = newChunker(ChunkAuto)
	c.confirmed(ChunkAlign, ChunkAlign, 1)
	c.confirmed(4*ChunkAlign, 4*ChunkAlign, 1)
	off = 5 * ChunkAlign
	n := c.next(off, total)
	c.broke(off, n, false)
	n = c.next(off, total) // the server kept nothing: the same request again
	c.broke(off, n, false)
	if again := c.next(off, total); again > max(n/2, ChunkAlign) {
		t.Errorf("after two cuts that kept nothing the next request carries %d bytes, of %d", again, n)
	}
}
