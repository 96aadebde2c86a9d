package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
)

// answer is a server's response, read and closed.
type answer struct {
	status  int
	header  http.Header
	body    []byte
	bodyErr error // reading the body failed
}

// do sends req with body pl (nil for none) under a stall watch and reads the
// answer. Its errors are ctx's, ErrFileChanged, a *connError, or a
// transport error that must not be retried.
func (r *run) do(ctx context.Context, req *http.Request, pl *payload) (*answer, error) {
	rctx, w := startWatch(ctx, r.stall)
	defer w.stop()
	req = req.WithContext(httptrace.WithClientTrace(rctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { w.follow(info.Conn) },
	}))
	if pl != nil {
		pl.watch = w
		pl.sum = &r.sum
		req.Body = pl.open()
		req.GetBody = pl.replay
		req.ContentLength = pl.length()
		if req.ContentLength == 0 {
			req.Body, req.GetBody = http.NoBody, nil
		}
	}
	resp, err := r.client.Do(req)
	delivered := false
	var srcErr error
	if pl != nil {
		var handed int64
		delivered, handed, srcErr = pl.detach()
		r.handed = max(r.handed, handed)
	}
	r.delivered = delivered
	if err != nil {
		switch {
		case srcErr != nil:
			return nil, srcErr
		case ctx.Err() != nil:
			return nil, stopped(ctx)
		}
		if cause := stalled(rctx); cause != nil {
			return nil, &connError{err: cause, delivered: delivered}
		}
		if isDialError(err) {
			delivered, r.delivered = false, false // what went out never reached the server
		}
		return nil, transportError(err, delivered)
	}
	w.touch()
	a := &answer{status: resp.StatusCode, header: resp.Header}
	limit := int64(maxErrorBody)
	if resp.StatusCode/100 == 2 {
		limit = MaxResultBody
	}
	a.body, a.bodyErr = io.ReadAll(io.LimitReader(&touchReader{r: resp.Body, w: w}, limit))
	if a.bodyErr == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	}
	resp.Body.Close()
	if a.bodyErr != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if cause := stalled(rctx); cause != nil {
			a.bodyErr = cause
		}
	}
	return a, nil
}

// isDialError reports an error from before any byte of the request left.
func isDialError(err error) bool {
	var op *net.OpError
	var never interface{ NeverReachedServer() bool }
	return errors.As(err, &op) && op.Op == "dial" || errors.As(err, &never) && never.NeverReachedServer()
}

// touchReader reports progress of an answer's body to the stall watch.
type touchReader struct {
	r io.Reader
	w *watch
}

func (t *touchReader) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if n > 0 {
		t.w.touch()
	}
	return n, err
}

// newRequest builds a request whose body do fills in.
func newRequest(method, target string) (*http.Request, error) {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: the request could not be made", ErrInvalid)
	}
	return req, nil
}
