package upload

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A 500, 502, 503 or 504 after the whole body of a one-request upload went
// out says nothing of whether the request went on to make its object (a
// front end may have passed it on): it is a lost answer, asked about or
// sent with the precondition, never sent again blindly.
func TestServerErrorAfterTheBody(t *testing.T) {
	file := testFile(1000)
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		name := http.StatusText(status)
		t.Run(name+": nothing to ask", func(t *testing.T) {
			h := newHarness(t, mediaX(file).answer(status)) // one request only
			obs := newRecorder(t, int64(len(file)), false)
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
			var lost *AnswerLostError
			var api *APIError
			if !errors.As(err, &lost) || !errors.As(err, &api) || api.Status != status || Retryable(err) {
				t.Fatalf("err = %v", err)
			}
			if obs.doubt().IsZero() {
				t.Error("the doubt was settled")
			}
		})
		t.Run(name+": it had arrived", func(t *testing.T) {
			h := newHarness(t, mediaX(file).answer(status)) // not sent again
			look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("obj-1", file)}}}}
			res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, nil)
			if err != nil || !res.Found || !strings.Contains(string(res.Body), "obj-1") {
				t.Fatalf("res %+v, err %v", res, err)
			}
		})
	}
	t.Run("Cloud Storage: the repeat meets the first copy", func(t *testing.T) {
		pinned := func(x exchange) exchange {
			x.url = strings.Replace(x.url, "?alt=json", "?alt=json&ifGenerationMatch=0", 1)
			return x
		}
		conditionNotMet := `{"error":{"code":412,"message":"At least one of the pre-conditions you specified did not hold.","errors":[{"reason":"conditionNotMet"}]}}`
		h := newHarness(t,
			pinned(mediaX(file)).answer(http.StatusServiceUnavailable),
			pinned(mediaX(file)).answer(http.StatusPreconditionFailed).withBody(conditionNotMet))
		look := &fakeLookup{answers: []lookupAnswer{
			{found: Found{}}, // before the first attempt: the name is free
			{found: Found{Body: objectJSON("b/o/17", file), ByName: true, Generation: "17"}},
		}}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: newOnly{}}, &memFile{data: file}, Media, nil, nil)
		if err != nil || !res.Found || res.Verified != VerifiedCRC32C {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
	t.Run("answered before the body went out whole: sent again", func(t *testing.T) {
		h := newHarness(t)
		calls := 0
		h.up.Client.Transport = roundTripFunc(func(req *http.Request) (*http.Response, error) {
			calls++
			defer req.Body.Close()
			status := http.StatusServiceUnavailable
			if calls > 1 {
				_, _ = io.Copy(io.Discard, req.Body)
				status = http.StatusOK
			}
			return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(okJSON)), Request: req}, nil
		})
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil); err != nil || calls != 2 {
			t.Fatalf("err %v after %d requests", err, calls)
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// A body that takes minutes to send is waited for from its last byte: the
// time kept for a resume (Observer.Doubt, AnswerLostError.Sent) is when the
// last bytes went out, not when the attempt began.
func TestDoubtCountsFromTheLastByte(t *testing.T) {
	file := testFile(100_000)
	slow := func(h *harness) func(req *http.Request) {
		return func(req *http.Request) {
			_, _ = io.CopyN(io.Discard, req.Body, 50_000)
			h.clock.Advance(3 * time.Minute) // the link is slow
		}
	}
	t.Run("nothing to ask", func(t *testing.T) {
		h := newHarness(t, lostX(file))
		h.s.steps[0].before = slow(h)
		obs := newRecorder(t, int64(len(file)), false)
		began := h.clock.Now()
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
		var lost *AnswerLostError
		if !errors.As(err, &lost) {
			t.Fatalf("err = %v", err)
		}
		want := began.Add(3 * time.Minute)
		if !lost.Sent.Equal(want) || !obs.doubt().Equal(want) {
			t.Errorf("sent %s, kept %s; want the last byte's %s", lost.Sent, obs.doubt(), want)
		}
		if len(obs.doubts) != 2 || !obs.doubts[0].Equal(began) {
			t.Errorf("doubts %v: want the attempt's start before its body, then its last byte", obs.doubts)
		}
	})
	t.Run("resumed: asked again a settle time after the last byte", func(t *testing.T) {
		h := newHarness(t) // nothing is sent again
		lastByte := h.clock.Now().Add(-10 * time.Second)
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, {found: Found{Body: objectJSON("obj-late", file)}}}}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: lastByte}, nil)
		if err != nil || !res.Found {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if !h.clock.Now().Equal(lastByte.Add(DefaultSettleTime)) {
			t.Errorf("asked again at %s, want %s", h.clock.Now(), lastByte.Add(DefaultSettleTime))
		}
	})
}

// A one-request upload whose going out cannot be noted is not sent: before
// its body, nothing goes; before its last bytes, the body is cut short, so
// that the server never holds a whole request nobody knows of.
func TestNothingGoesUnnoted(t *testing.T) {
	file := testFile(100_000)
	full := errors.New("no space left on device")
	t.Run("before the body", func(t *testing.T) {
		h := newHarness(t) // no request at all
		obs := newRecorder(t, int64(len(file)), false)
		obs.refuseNotes = []error{full}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
		if !errors.Is(err, ErrNotNoted) || !errors.Is(err, full) || !Retryable(err) || errors.Is(err, ErrAnswerLost) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("before the last bytes", func(t *testing.T) {
		var got int
		h := newHarness(t)
		h.up.Client.Transport = roundTripFunc(func(req *http.Request) (*http.Response, error) {
			n, err := io.Copy(io.Discard, req.Body)
			got = int(n)
			return nil, err
		})
		obs := newRecorder(t, int64(len(file)), false)
		obs.refuseNotes = []error{nil, full}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
		if !errors.Is(err, ErrNotNoted) || errors.Is(err, ErrAnswerLost) {
			t.Fatalf("err = %v", err)
		}
		if got >= len(file) {
			t.Errorf("the transport was handed %d bytes: the whole body", got)
		}
		if !obs.doubt().IsZero() {
			t.Errorf("a body that did not go out whole is left in doubt")
		}
	})
}

// pinnedX is x sent with the precondition that the name is free.
func pinnedX(x exchange) exchange {
	x.url = strings.Replace(x.url, "?alt=json", "?alt=json&ifGenerationMatch=0", 1)
	return x
}

const conditionNotMet = `{"error":{"code":412,"message":"At least one of the pre-conditions you specified did not hold.","errors":[{"reason":"conditionNotMet"}]}}`

// Sessions guarded by Cloud Storage's precondition: a 412 is read, never
// taken for someone else's object unseen; a session of an earlier run that
// is gone is followed by one with the precondition too; and a resumed
// session's "done" is read back.
func TestGuardedSessions(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	mine := lookupAnswer{found: Found{Body: objectJSON("b/o/17", file), ByName: true, Generation: "17"}}
	theirs := lookupAnswer{found: Found{Body: objectJSON("b/o/18", testFile(999)), ByName: true, Generation: "18"}}
	target := func(look Lookup) Target {
		return Target{URL: testBase, ContentType: testType, Lookup: look, Pin: newOnly{}}
	}
	t.Run("final answer lost, session gone: the object is the file", func(t *testing.T) {
		h := newHarness(t,
			pinnedX(startX(nil, size)),
			putX(file, 0, size).fail(-1, io.ErrUnexpectedEOF),
			statusX(size).answer(http.StatusNotFound),
			pinnedX(startX(nil, size)).answer(http.StatusPreconditionFailed).withBody(conditionNotMet))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, mine}}
		res, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, nil, nil)
		if err != nil || !res.Found || res.Verified != VerifiedCRC32C || !strings.Contains(string(res.Body), "b/o/17") {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
	t.Run("a 412 for someone else's object stays a refusal", func(t *testing.T) {
		h := newHarness(t, pinnedX(startX(nil, size)).answer(http.StatusPreconditionFailed).withBody(conditionNotMet))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, theirs}}
		_, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, nil, nil)
		var api *APIError
		if !errors.As(err, &api) || api.Status != http.StatusPreconditionFailed {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("resumed, session gone, the name taken by another writer: refused, not overwritten", func(t *testing.T) {
		h := newHarness(t, statusX(size).answer(http.StatusNotFound)) // no new session
		look := &fakeLookup{answers: []lookupAnswer{theirs}}
		resume := &Session{URI: testSession, Started: h.clock.Now().Add(-time.Hour)}
		_, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, resume, nil)
		if !errors.Is(err, errTaken) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("resumed, session gone, the name free: the new session has the precondition", func(t *testing.T) {
		h := newHarness(t,
			statusX(size).answer(http.StatusGone),
			pinnedX(startX(nil, size)),
			putX(file, 0, size).answer(http.StatusOK).withBody(string(objectJSON("b/o/19", file))))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
		resume := &Session{URI: testSession, Started: h.clock.Now().Add(-time.Hour)}
		if _, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, resume, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("resumed session says done: read back", func(t *testing.T) {
		h := newHarness(t, statusX(size).answer(http.StatusOK).withBody(string(objectJSON("b/o/17", file))))
		look := &fakeLookup{answers: []lookupAnswer{theirs}}
		resume := &Session{URI: testSession, Started: h.clock.Now().Add(-time.Hour)}
		_, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, resume, nil)
		if err == nil || look.count() != 1 {
			t.Fatalf("err %v after %d lookups: done on the session's word while the name holds another object", err, look.count())
		}
		h = newHarness(t, statusX(size).answer(http.StatusOK).withBody(string(objectJSON("b/o/17", file))))
		look = &fakeLookup{answers: []lookupAnswer{mine}}
		res, err := h.up.Upload(context.Background(), target(look), &memFile{data: file}, Resumable, resume, nil)
		if err != nil || !res.Found || res.Verified != VerifiedCRC32C {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
}

// A 503 after the whole body that asks for a wait longer than the call
// waits ends the call with that wait, the doubt kept: the upload is asked
// about when it comes back, not left for the user to settle.
func TestServerTroubleAskingForALongWait(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, mediaX(file).answer(http.StatusServiceUnavailable, "Retry-After", "7200"))
	h.up.MaxWait = 5 * time.Minute
	look := &fakeLookup{} // not asked now
	obs := newRecorder(t, int64(len(file)), false)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, obs)
	var wait *WaitError
	if !errors.As(err, &wait) || errors.Is(err, ErrAnswerLost) || wait.Wait != 2*time.Hour {
		t.Fatalf("err = %v", err)
	}
	if obs.doubt().IsZero() || look.count() != 0 {
		t.Errorf("doubt %v after %d lookups", obs.doubt(), look.count())
	}
}
