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
	o, err := newOneRequest(r, m)
	if err != nil {
		return nil, err
	}
	return o.loop(ctx)
}

// oneRequest is a run's one-request upload: the request's form, fixed
// before the first attempt, and why the last attempt's answer was lost.
type oneRequest struct {
	*run
	m           Method
	target      string
	contentType string
	hash        string // X-Goog-Hash
	mp          multipartBody
	lastCause   error
}

// newOneRequest fixes the request's form: its content type, the multipart
// body's head and tail, and the file's CRC32C where the target asks for it.
func newOneRequest(r *run, m Method) (*oneRequest, error) {
	o := &oneRequest{run: r, m: m, contentType: r.mediaType, target: r.withUploadType(string(m))}
	meta := r.t.Metadata
	if r.t.SendCRC32C {
		crc, err := r.sum.crc32c(r.src)
		if err != nil {
			return nil, err
		}
		if m == Multipart {
			meta = withCRC32C(meta, crc)
		} else {
			o.hash = "crc32c=" + crcBase64(crc)
		}
	}
	if m == Multipart {
		if meta == nil {
			meta = []byte("{}") // the protocol's metadata part is not optional
		}
		var err error
		if o.mp, err = newMultipart(meta, r.mediaType); err != nil {
			return nil, err
		}
		o.contentType = o.mp.contentType
	}
	return o, nil
}

// loop sends the request until an answer ends the upload.
func (o *oneRequest) loop(ctx context.Context) (*Result, error) {
	r, m := o.run, o.m
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		if res, err, end := o.askFirst(ctx); end {
			return res, err
		}
		r.handed = 0
		req, err := newRequest(r.t.HTTPMethod, o.target)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", o.contentType)
		if o.hash != "" {
			req.Header.Set("X-Goog-Hash", o.hash)
		}
		pl := &payload{src: r.src, n: r.size, head: o.mp.head, tail: o.mp.tail, obs: r.obs, once: true, last: r.lastByte}
		if err := r.markSending(); err != nil {
			return r.unsettled(ctx, m, err)
		}
		a, err := r.do(ctx, req, pl)
		if err != nil {
			if res, err, end := o.broken(ctx, err); end {
				return res, err
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
		if res, err, end := o.refused(ctx, a); end {
			return res, err
		}
	}
}

// askFirst settles an earlier attempt that may have arrived before the
// file goes out again. end is true when that ends the upload: it arrived,
// or nothing can be asked.
func (o *oneRequest) askFirst(ctx context.Context) (res *Result, err error, end bool) {
	r := o.run
	if r.unanswered.IsZero() || r.repeatable() {
		return nil, nil, false
	}
	if r.t.Lookup == nil {
		return nil, &AnswerLostError{Sent: r.unanswered, Cause: o.lastCause}, true
	}
	f, err := r.findSettled(ctx)
	if err != nil {
		var wait *WaitError
		if ctx.Err() != nil || errors.As(err, &wait) {
			return nil, err, true
		}
		return nil, &AnswerLostError{Sent: r.unanswered, Cause: o.lastCause, Why: err}, true
	}
	if res, err, settled := r.settle(ctx, f, o.m); settled {
		res, err = r.done(res, err)
		return res, err, true
	}
	r.cleared()
	return nil, nil, false
}

// broken takes a request whose connection broke: after the whole body
// went out the answer is lost; either way another attempt follows a wait,
// unless nothing could be asked about the lost one. end is true when the
// upload stops here.
func (o *oneRequest) broken(ctx context.Context, err error) (res *Result, _ error, end bool) {
	r := o.run
	if r.delivered {
		r.lost()
	} else {
		r.answered()
	}
	var ce *connError
	if !errors.As(err, &ce) {
		res, err = r.unsettled(ctx, o.m, err)
		return res, err, true
	}
	o.lastCause = ce
	if r.delivered && !r.repeatable() && r.t.Lookup == nil {
		return nil, &AnswerLostError{Sent: r.unanswered, Cause: ce}, true
	}
	if err := r.wait(ctx, ce); err != nil {
		res, err = r.unsettled(ctx, o.m, err)
		return res, err, true
	}
	return nil, nil, false
}

// refused takes an answer other than success: a server's trouble after the
// whole body went out is a lost answer; a failed precondition on a pinned
// upload in doubt is looked into; the rest waits and goes again, or stops,
// as the refusal says. end is true when the upload stops here.
func (o *oneRequest) refused(ctx context.Context, a *answer) (res *Result, err error, end bool) {
	r := o.run
	refusal := r.refuse(a)
	if r.delivered && serverTrouble(a.status) {
		// The whole body went out and a front end or the server broke
		// down: the request may have been passed on, and may yet make
		// the object. The answer is as good as lost.
		r.lost()
		o.lastCause = refusal
		if !r.repeatable() && r.t.Lookup == nil {
			return nil, &AnswerLostError{Sent: r.unanswered, Cause: refusal}, true
		}
		if err := r.wait(ctx, refusal); err != nil {
			var wait *WaitError
			if errors.As(err, &wait) {
				// Asked about when the wait is over: the doubt goes with
				// the upload (Observer.Doubt), as a resume's does.
				return nil, err, true
			}
			res, err = r.unsettled(ctx, o.m, err)
			return res, err, true
		}
		return nil, nil, false
	}
	r.answered()
	if a.status == http.StatusPreconditionFailed && r.t.Pin != nil && r.t.Lookup != nil && !r.unanswered.IsZero() {
		// An earlier attempt arrived, or the name changed meanwhile: look.
		f, err := r.find(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err, true
			}
			return nil, &AnswerLostError{Sent: r.unanswered, Cause: refusal, Why: err}, true
		}
		if res, err, settled := r.settle(ctx, f, o.m); settled {
			res, err = r.done(res, err)
			return res, err, true
		}
		r.cleared() // not this upload's: the precondition failed for another reason
	}
	if err := r.wait(ctx, refusal); err != nil {
		res, err = r.unsettled(ctx, o.m, err)
		return res, err, true
	}
	return nil, nil, false
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
