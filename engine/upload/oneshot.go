package upload

import (
	"context"
	"errors"
	"fmt"
)

// oneShot sends the whole file in one request (media or multipart).
func (r *run) oneShot(ctx context.Context, m Method) (*Result, error) {
	var mp multipartBody
	contentType := r.mediaType
	if m == Multipart {
		meta := r.t.Metadata
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
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		r.handed = 0
		req, err := newRequest(r.t.HTTPMethod, target)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", contentType)
		pl := &payload{src: r.src, n: r.size, head: mp.head, tail: mp.tail, obs: r.obs}
		a, err := r.do(ctx, req, pl)
		if err != nil {
			var ce *connError
			if !errors.As(err, &ce) {
				return nil, err
			}
			if ce.delivered {
				return nil, fmt.Errorf("%w: %w", ErrAnswerLost, ce)
			}
			if err := r.wait(ctx, ce); err != nil {
				return nil, err
			}
			continue
		}
		if a.status/100 == 2 {
			if r.handed < r.size {
				return nil, &IncompleteError{Received: min(r.received(a.body), r.size), Size: r.size}
			}
			// Done even if the answer's body broke off: sending again would make a copy.
			res, err := r.accept(&Result{Status: a.status, Body: a.body, Method: m})
			if err != nil {
				return nil, err
			}
			r.obs.Committed(r.size)
			return res, nil
		}
		if err := r.wait(ctx, r.refuse(a)); err != nil {
			return nil, err
		}
	}
}
