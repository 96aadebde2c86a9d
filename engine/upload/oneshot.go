package upload

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
)

// oneShot sends the whole file in one request (media or multipart). An
// attempt whose whole body went out and whose answer was lost is settled
// by asking the destination before the file goes out again (lookup.go);
// where nothing can be asked, the upload stops with an *AnswerLostError.
func (r *run) oneShot(ctx context.Context, m Method) (*Result, error) {
	meta := r.t.Metadata
	var hash string // X-Goog-Hash
	if r.t.SendCRC32C {
		crc, err := r.sum.crc32c(r.src)
		if err != nil {
			return nil, err
		}
		if m == Multipart {
			meta = withCRC32C(meta, crc)
		} else {
			hash = "crc32c=" + crcBase64(crc)
		}
	}
	var mp multipartBody
	contentType := r.mediaType
	if m == Multipart {
		if meta == nil {
			meta = []byte("{}") // the protocol's metadata part is not optional
		}
		var err error
		if mp, err = newMultipart(meta, r.mediaType); err != nil {
			return nil, err
		}
		contentType = mp.contentType
	}
	target := r.withUploadType(string(m))
	var lastCause error // why the last attempt's answer was lost
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		if !r.unanswered.IsZero() && !r.repeatable() {
			// An earlier attempt may have arrived: ask before sending again.
			if r.t.Lookup == nil {
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: lastCause}
			}
			f, err := r.findSettled(ctx)
			var wait *WaitError
			if err != nil {
				if ctx.Err() != nil || errors.As(err, &wait) {
					return nil, err
				}
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: lastCause, Why: err}
			}
			if res, err, settled := r.settle(ctx, f, m); settled {
				return r.done(res, err)
			}
			r.cleared()
		}
		r.handed = 0
		req, err := newRequest(r.t.HTTPMethod, target)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", contentType)
		if hash != "" {
			req.Header.Set("X-Goog-Hash", hash)
		}
		pl := &payload{src: r.src, n: r.size, head: mp.head, tail: mp.tail, obs: r.obs, once: true, last: r.lastByte}
		if err := r.markSending(); err != nil {
			return r.unsettled(ctx, m, err)
		}
		a, err := r.do(ctx, req, pl)
		if err != nil {
			if r.delivered {
				r.lost()
			} else {
				r.answered()
			}
			var ce *connError
			if !errors.As(err, &ce) {
				return r.unsettled(ctx, m, err)
			}
			lastCause = ce
			if r.delivered && !r.repeatable() && r.t.Lookup == nil {
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: ce}
			}
			if err := r.wait(ctx, ce); err != nil {
				return r.unsettled(ctx, m, err)
			}
			continue
		}
		if a.status/100 == 2 {
			// The upload ends here, and its end settles the doubt: no word of it on the way.
			if r.handed < r.size {
				return nil, &IncompleteError{Received: min(r.received(a.body), r.size), Size: r.size, Body: a.body}
			}
			// Done even if the answer's body broke off: sending again would make a copy.
			return r.done(r.accept(ctx, &Result{Status: a.status, Body: a.body, Method: m}))
		}
		refusal := r.refuse(a)
		if r.delivered && serverTrouble(a.status) {
			// The whole body went out and a front end or the server broke
			// down: the request may have been passed on, and may yet make
			// the object. The answer is as good as lost.
			r.lost()
			lastCause = refusal
			if !r.repeatable() && r.t.Lookup == nil {
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: refusal}
			}
			if err := r.wait(ctx, refusal); err != nil {
				var wait *WaitError
				if errors.As(err, &wait) {
					// Asked about when the wait is over: the doubt goes with
					// the upload (Observer.Doubt), as a resume's does.
					return nil, err
				}
				return r.unsettled(ctx, m, err)
			}
			continue
		}
		r.answered()
		if a.status == http.StatusPreconditionFailed && r.t.Pin != nil && r.t.Lookup != nil && !r.unanswered.IsZero() {
			// An earlier attempt arrived, or the name changed meanwhile: look.
			f, err := r.find(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: refusal, Why: err}
			}
			if res, err, settled := r.settle(ctx, f, m); settled {
				return r.done(res, err)
			}
			r.cleared() // not this upload's: the precondition failed for another reason
		}
		if err := r.wait(ctx, refusal); err != nil {
			return r.unsettled(ctx, m, err)
		}
	}
}

// serverTrouble reports the answers of a server, or of a front end before
// it, that broke down (500, 502, 503, 504): they say nothing of whether
// the request went on to make its object.
func serverTrouble(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// done reports a whole file the server holds as committed.
func (r *run) done(res *Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	r.obs.Committed(r.size)
	return res, nil
}

// crcBase64 writes a CRC32C as Cloud Storage does: base64 of its big-endian bytes.
func crcBase64(crc uint32) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc)
	return base64.StdEncoding.EncodeToString(b[:])
}

// withCRC32C is metadata naming the file's CRC32C, unless it names one
// already or is not a JSON object.
func withCRC32C(meta []byte, crc uint32) []byte {
	return AddField(meta, "crc32c", crcBase64(crc))
}

// AddField is the JSON object meta (nil: an empty one) with key set to
// value after its own fields, which keep their order; meta as it is when
// it sets key already or is not an object.
func AddField(meta []byte, key string, value any) []byte {
	trimmed := bytes.TrimSpace(meta)
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(trimmed, &fields) != nil || fields == nil {
		return meta
	}
	if _, ok := fields[key]; ok {
		return meta
	}
	k, err1 := json.Marshal(key)
	v, err2 := json.Marshal(value)
	if err1 != nil || err2 != nil {
		return meta
	}
	// A copy without its closing brace: appending to meta's own bytes would
	// write over the caller's metadata where it has room after its end.
	out := append([]byte(nil), bytes.TrimSpace(trimmed[:len(trimmed)-1])...)
	if len(fields) > 0 {
		out = append(out, ',')
	}
	out = append(append(append(append(out, k...), ':'), v...), '}')
	return out
}

// prepare settles, before a byte is sent, what an earlier run may have left
// (an upload in doubt is looked for, and sent again only when it is not
// there), and pins the precondition the destination takes. done: the
// upload ends here with res or err.
func (r *run) prepare(ctx context.Context, m Method) (res *Result, err error, done bool) {
	doubt := !r.unanswered.IsZero()
	switch {
	case r.t.Lookup == nil && r.t.Pin == nil:
		return nil, nil, false // oneShot says what a doubt comes to
	case r.t.Lookup == nil:
		if err := r.pin(Found{}); err != nil {
			return nil, err, true
		}
		return nil, nil, false
	case !doubt && r.t.Pin == nil:
		return nil, nil, false
	}
	find := r.find
	if doubt {
		find = r.findSettled // not there yet may mean still on its way
	}
	f, ferr := find(ctx)
	var wait *WaitError
	switch {
	case ctx.Err() != nil:
		return nil, stopped(ctx), true
	case errors.As(ferr, &wait):
		return nil, ferr, true
	}
	if doubt {
		switch {
		case ferr != nil && !r.repeatable():
			return nil, &AnswerLostError{Sent: r.unanswered, Why: ferr}, true
		case ferr != nil:
			// Pinned to "nothing there": a copy that arrived makes the destination refuse, and is looked for then.
		default:
			if res, err, settled := r.settle(ctx, f, m); settled {
				res, err = r.done(res, err)
				return res, err, true
			}
			r.cleared()
		}
	}
	if r.t.Pin != nil {
		if ferr != nil {
			f = Found{}
		}
		if err := r.pin(f); err != nil {
			return nil, err, true
		}
	}
	return nil, nil, false
}

// repeatable reports whether sending the upload again cannot make a second
// copy: the destination refuses one (a precondition), or the upload replaces
// what an earlier attempt made.
func (r *run) repeatable() bool { return r.t.Pin != nil || r.t.Repeatable }

// pin puts the destination's precondition on the upload address; an
// error refuses the upload before a byte is sent.
func (r *run) pin(f Found) error {
	pinned, err := r.t.Pin.Pin(r.target.String(), f)
	if err != nil {
		return err
	}
	if u, err := url.Parse(pinned); err == nil && u.Host == r.target.Host {
		r.target = u
	}
	r.pinned = true
	return nil
}
