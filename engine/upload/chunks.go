package upload

import "time"

// ChunkAuto, as Uploader.ChunkSize, lets the size of each request of a
// resumable upload follow the link (see chunker).
const ChunkAuto int64 = -1

// The automatic chunk rule's constants.
const (
	// autoFirst is the first request's size: small, so the server confirms
	// bytes (and the link's speed shows) within a moment even on a slow link.
	autoFirst = ChunkAlign
	// autoTarget is how long a request should last at the speed learned so
	// far: long enough that a round trip is a small part of it, and short
	// enough that pausing, which throws away what the server has not
	// confirmed, costs a few seconds of sending (a request of hundreds of
	// megabytes in flight lost all of them). Where a round trip is long,
	// a request lasts autoRounds of them instead.
	autoTarget = 3 * time.Second
	// autoRounds is how many round trips long a request may last when that
	// is longer than autoTarget (a satellite link's second-long round trips).
	autoRounds = 8
	// autoMax bounds a request's size so that sums cannot overflow; far
	// above any file Google takes.
	autoMax = 1 << 50
)

// chunker decides how many bytes each request of a resumable upload
// carries. With a fixed size every request but the last carries that many,
// and 0 sends the whole rest at once; after a cut the requests simply go on
// from the server's offset, which takes the fewest requests a size limit
// allows. The automatic rule:
//
//   - The first request carries 256 KiB.
//   - A request the server confirms in full makes the next one twice as
//     big, or as big as lasts autoTarget at the speed the request showed
//     (its bytes over its time minus one round trip, the quickest request
//     without a body: the session start or a status query), whichever is
//     bigger; but never bigger than what lasts autoTarget, or autoRounds
//     round trips where that is longer, at that speed: doubling alone
//     grew a request to hundreds of megabytes, all lost on a pause.
//   - A request cut off is finished first: the next request runs from the
//     server's offset to where the cut one would have ended, so it is
//     smaller and the upload goes back on the cut request's grid without a
//     tail request of its own. The size after it stays: one cut says
//     little about the link.
//   - A stall, or a cut before any request was confirmed in full since the
//     last cut, halves the size (down to 256 KiB), and the finishing
//     request is no bigger than that; but a cut request that ran to the
//     file's end, and of which the server kept some bytes, is finished to
//     the end whatever its size: a link that cuts every so many megabytes
//     then costs a status query and one request per cut, no more. An error answer (5xx, 429) leaves it
//     as it is.
//   - When what would be left after a request is less than half the
//     request, the request takes the whole rest.
//
// Every size but the last is a multiple of ChunkAlign, and each request
// starts where the server said it stands.
type chunker struct {
	auto  bool
	size  int64         // fixed: bytes per request, 0 = the whole rest; auto: the next request's size
	round time.Duration // the quickest request without a body; 0 = none seen yet
	end   int64         // auto: where the last request cut off would have ended
	keep  int64         // auto: after a first cut, the cut request's size (its rest may be bigger than size)
	cuts  int           // auto: cuts and stalls since a request was confirmed in full
	from  int64         // auto: where the last request cut off began
	stall bool          // auto: the last request cut off stalled
}

func newChunker(chunk int64) chunker {
	if chunk == ChunkAuto {
		return chunker{auto: true, size: autoFirst}
	}
	return chunker{size: chunk}
}

// next is the size of the request that starts at off in a file of total bytes.
func (c *chunker) next(off, total int64) int64 {
	rest := total - off
	switch {
	case c.size <= 0 || rest <= c.size:
		return rest
	case !c.auto:
		return c.size
	}
	if fin := c.end - off; fin > 0 && c.end == total && off > c.from && !c.stall {
		// The cut request ran to the file's end and the server kept some
		// of it: finish it whatever its size. A link that cuts after so
		// many bytes gets the file through as fast this way, with no
		// request boundary of its own; a cut that kept nothing shrinks.
		return fin
	}
	if fin := c.end - off; fin > 0 && fin <= max(c.size, c.keep) && (fin%ChunkAlign == 0 || fin == rest) {
		return fin // finish the request that was cut off
	}
	if rest-c.size < c.size/2 {
		return rest
	}
	return c.size
}

// roundTrip notes the time of a request without a body.
func (c *chunker) roundTrip(d time.Duration) {
	if d > 0 && (c.round == 0 || d < c.round) {
		c.round = d
	}
}

// confirmed notes that a request of n bytes took d and that the server
// confirmed got of them.
func (c *chunker) confirmed(n, got int64, d time.Duration) {
	if !c.auto || got < n || n <= 0 {
		return
	}
	c.cuts, c.keep = 0, 0
	// The time the bytes took: the request's time without a round trip, but
	// never less than a sixteenth of it, so that a noisy round trip cannot
	// make the speed look endless.
	busy := max(d-c.round, d/16, time.Millisecond)
	speed := float64(n) / busy.Seconds()
	want := int64(min(speed*autoTarget.Seconds(), autoMax))
	most := int64(min(speed*max(autoTarget, autoRounds*c.round).Seconds(), autoMax))
	c.size = align(min(max(2*n, 2*c.size, want), most, autoMax))
}

// broke notes that the request of n bytes from off was cut off, or stalled.
func (c *chunker) broke(off, n int64, stall bool) {
	if !c.auto {
		return
	}
	c.cuts++
	c.end, c.keep, c.from, c.stall = off+n, 0, off, stall
	if stall || c.cuts > 1 {
		c.size = align(min(n, c.size) / 2)
		return
	}
	c.keep = n
}

// align rounds n down to a multiple of ChunkAlign, at least ChunkAlign.
func align(n int64) int64 {
	return max(n-n%ChunkAlign, ChunkAlign)
}
