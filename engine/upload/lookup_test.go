package upload

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/engine/crc32c"
)

// fakeLookup answers Find from a list of answers, one per call.
type fakeLookup struct {
	mu      sync.Mutex
	answers []lookupAnswer
	calls   int
}

type lookupAnswer struct {
	found Found
	err   error
}

func (l *fakeLookup) Find(ctx context.Context, c *http.Client) (Found, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c == nil {
		return Found{}, errors.New("no client")
	}
	if l.calls >= len(l.answers) {
		l.calls++
		return Found{}, errors.New("unexpected lookup")
	}
	a := l.answers[l.calls]
	l.calls++
	return a.found, a.err
}

func (l *fakeLookup) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls
}

// objectJSON is an object's resource with the file's size and CRC32C.
func objectJSON(id string, file []byte) []byte {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32c.Checksum(file))
	out, _ := json.Marshal(map[string]string{"id": id, "size": strconv.Itoa(len(file)), "crc32c": base64.StdEncoding.EncodeToString(b[:])})
	return out
}

// lostX is a media request whose whole body goes out and whose answer is lost.
func lostX(file []byte) exchange { return mediaX(file).fail(-1, io.ErrUnexpectedEOF) }

func TestLostAnswerFoundByLookup(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, lostX(file))
	look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("obj-1", file)}}}}
	obs := newRecorder(t, int64(len(file)), false)
	res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, obs)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.Verified != VerifiedCRC32C || !strings.Contains(string(res.Body), "obj-1") {
		t.Errorf("result = %+v", res)
	}
	if obs.doubt().IsZero() {
		t.Error("the doubt was settled before the upload was called done; the finished record settles it")
	}
	if obs.lastCommitted() != int64(len(file)) {
		t.Errorf("committed %d", obs.lastCommitted())
	}
}

func TestLostAnswerNotFoundIsSentAgain(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, lostX(file), mediaX(file).answer(http.StatusOK).withBody(okJSON))
	look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, {found: Found{}}}}
	obs := newRecorder(t, int64(len(file)), false)
	res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, obs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Found || string(res.Body) != okJSON || look.count() != 2 {
		t.Errorf("result = %+v, %d lookups", res, look.count())
	}
	// Each attempt is announced before its body, and again before its last
	// bytes; the destination is asked again once the settle time has
	// passed, and that settles the first.
	want := []string{"doubt", "doubt", "retrying 1", "retrying 0", "settled", "doubt"}
	if got := obs.events[:len(want)]; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("events %v, want %v…", obs.events, want)
	}
}

// A lost answer whose object is not there at first, but arrives while the
// uploader waits (a server that read the request late): it is found when
// asked again, not sent a second time, and the wait is heard with its cause.
func TestLostAnswerNotYetThereIsAskedAgain(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, lostX(file)) // no second request: sending again fails the test
	look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, {found: Found{Body: objectJSON("obj-late", file)}}}}
	obs := newRecorder(t, int64(len(file)), false)
	began := h.clock.Now()
	res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, obs)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || !strings.Contains(string(res.Body), "obj-late") || look.count() != 2 {
		t.Fatalf("result = %+v, %d lookups", res, look.count())
	}
	if got := h.clock.Now().Sub(began); got < DefaultSettleTime {
		t.Errorf("asked again %s after the answer was lost, before the settle time (%s)", got, DefaultSettleTime)
	}
	var settling *SettlingError
	last := obs.retries[len(obs.retries)-1]
	if !errors.As(last.cause, &settling) || !settling.Sent.Equal(began) || last.wait <= 0 {
		t.Errorf("the last wait %v (%s) is not the settling one", last.cause, last.wait)
	}
}

// With MaxWait shorter than the settle time, the run ends at once with a
// *WaitError until the destination is asked again; the doubt is kept.
func TestSettlingLongerThanMaxWait(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t)
	h.up.MaxWait = 10 * time.Second
	look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
	sent := h.clock.Now().Add(-5 * time.Second)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: sent}, nil)
	var wait *WaitError
	var settling *SettlingError
	if !errors.As(err, &wait) || !errors.As(err, &settling) || !wait.Until.Equal(sent.Add(DefaultSettleTime)) || wait.Asked {
		t.Fatalf("err = %v", err)
	}
}

func TestLostAnswerLookupFails(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, lostX(file))
	denied := errors.New("no permission to look")
	look := &fakeLookup{answers: []lookupAnswer{{err: denied}}}
	obs := newRecorder(t, int64(len(file)), false)
	began := h.clock.Now()
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, obs)
	var lost *AnswerLostError
	if !errors.As(err, &lost) || !errors.Is(err, ErrAnswerLost) || !errors.Is(err, denied) || Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if !lost.Sent.Equal(began) || !obs.doubt().Equal(lost.Sent) {
		t.Errorf("sent %v, doubt %v, want %v", lost.Sent, obs.doubt(), began)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err %v does not say why the answer was lost", err)
	}
}

func TestLostAnswerWithoutLookupSaysWhen(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, lostX(file))
	obs := newRecorder(t, int64(len(file)), false)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
	var lost *AnswerLostError
	if !errors.As(err, &lost) || lost.Sent.IsZero() || lost.Why != nil {
		t.Fatalf("err = %v", err)
	}
	if obs.doubt().IsZero() {
		t.Error("an upload in doubt was settled")
	}
}

// A one-request upload killed while it waited for its answer is resumed
// with the time it went out: it is looked for, never sent blindly.
func TestResumeInDoubt(t *testing.T) {
	file := testFile(1000)
	t.Run("found", func(t *testing.T) {
		h := newHarness(t) // not one request of the upload's own
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("obj-1", file)}}}}
		sent := h.clock.Now().Add(-time.Minute)
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: sent}, nil)
		if err != nil || !res.Found {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
	t.Run("not there", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusOK).withBody(okJSON))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
		obs := newRecorder(t, int64(len(file)), false)
		sent := h.clock.Now().Add(-DefaultSettleTime) // long enough ago to have arrived
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: sent}, obs)
		if err != nil || res.Found {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if want := []string{"settled", "doubt"}; strings.Join(obs.events[:2], ",") != strings.Join(want, ",") {
			t.Errorf("events %v", obs.events)
		}
	})
	t.Run("not there yet", func(t *testing.T) {
		h := newHarness(t) // not one request of the upload's own
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, {found: Found{Body: objectJSON("obj-late", file)}}}}
		sent := h.clock.Now().Add(-time.Second) // killed a second ago, and resumed
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: sent}, nil)
		if err != nil || !res.Found {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if !h.clock.Now().Equal(sent.Add(DefaultSettleTime)) {
			t.Errorf("asked again at %s, want the settle time after it went out (%s)", h.clock.Now(), sent.Add(DefaultSettleTime))
		}
	})
	t.Run("nothing to ask", func(t *testing.T) {
		h := newHarness(t)
		sent := h.clock.Now().Add(-time.Hour)
		for _, m := range []Method{Media, Multipart, Auto} {
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, m, &Session{Sent: sent}, nil)
			var lost *AnswerLostError
			if !errors.As(err, &lost) || !lost.Sent.Equal(sent) {
				t.Errorf("%s: err = %v", m, err)
			}
		}
	})
	t.Run("its own copy, not the file", func(t *testing.T) {
		h := newHarness(t)
		other := append([]byte(nil), file...)
		other[7]++
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("obj-9", other)}}}}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, &Session{Sent: h.clock.Now()}, nil)
		var differs *MismatchError
		if !errors.As(err, &differs) || !strings.Contains(string(differs.Body), "obj-9") {
			t.Fatalf("err = %v", err)
		}
	})
}

// pinner pins ifGenerationMatch as Cloud Storage takes it.
type pinner struct{}

func (pinner) Pin(target string, f Found) (string, error) {
	if strings.Contains(target, "ifGenerationMatch=") {
		return target, nil
	}
	g := f.Generation
	if g == "" {
		g = "0"
	}
	return target + "&ifGenerationMatch=" + g, nil
}

// newOnly pins ifGenerationMatch=0, and refuses a name that holds an object.
type newOnly struct{}

var errTaken = errors.New("the name holds an object")

func (newOnly) Pin(target string, f Found) (string, error) {
	if f.Body != nil {
		return "", errTaken
	}
	return target + "&ifGenerationMatch=0", nil
}

// TestAPreconditionCanRefuse: a destination that may not replace what the
// name holds refuses before a byte is sent, for every method; a name found
// free is pinned as free.
func TestAPreconditionCanRefuse(t *testing.T) {
	file := testFile(1000)
	taken := lookupAnswer{found: Found{Body: objectJSON("b/o/5", testFile(10)), ByName: true, Generation: "5"}}
	for _, m := range []Method{Media, Multipart, Resumable} {
		h := newHarness(t) // no request may be made
		look := &fakeLookup{answers: []lookupAnswer{taken}}
		obs := newRecorder(t, int64(len(file)), false)
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: newOnly{}}, &memFile{data: file}, m, nil, obs)
		if !errors.Is(err, errTaken) || look.count() != 1 || !obs.doubt().IsZero() {
			t.Errorf("%s: err %v after %d lookups", m, err, look.count())
		}
	}
	x := mediaX(file).answer(http.StatusOK).withBody(okJSON)
	x.url = strings.Replace(x.url, "?alt=json", "?alt=json&ifGenerationMatch=0", 1)
	h := newHarness(t, x)
	look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: newOnly{}}, &memFile{data: file}, Media, nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestPreconditionMakesSendingAgainSafe(t *testing.T) {
	file := testFile(1000)
	pinned := func(x exchange) exchange {
		x.url = strings.Replace(x.url, "?alt=json", "?alt=json&ifGenerationMatch=0", 1)
		return x
	}
	conditionNotMet := `{"error":{"code":412,"message":"At least one of the pre-conditions you specified did not hold.","errors":[{"reason":"conditionNotMet"}]}}`
	t.Run("the repeat is refused: it had arrived", func(t *testing.T) {
		h := newHarness(t, pinned(lostX(file)), pinned(mediaX(file)).answer(http.StatusPreconditionFailed).withBody(conditionNotMet))
		look := &fakeLookup{answers: []lookupAnswer{
			{found: Found{}}, // before the first attempt: the name is free
			{found: Found{Body: objectJSON("b/o/17", file), ByName: true, Generation: "17"}},
		}}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: pinner{}}, &memFile{data: file}, Media, nil, nil)
		if err != nil || !res.Found || res.Verified != VerifiedCRC32C {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
	t.Run("the repeat is stored", func(t *testing.T) {
		h := newHarness(t, pinned(lostX(file)), pinned(mediaX(file)).answer(http.StatusOK).withBody(okJSON))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: pinner{}}, &memFile{data: file}, Media, nil, nil)
		if err != nil || res.Found || look.count() != 1 {
			t.Fatalf("res %+v, err %v, %d lookups", res, err, look.count())
		}
	})
	t.Run("replacing an object pins its generation", func(t *testing.T) {
		old := testFile(10)
		x := mediaX(file).answer(http.StatusOK).withBody(okJSON)
		x.url = strings.Replace(x.url, "?alt=json", "?alt=json&ifGenerationMatch=42", 1)
		h := newHarness(t, x)
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("b/o/42", old), ByName: true, Generation: "42"}}}}
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: pinner{}}, &memFile{data: file}, Media, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("the name was taken by other bytes meanwhile", func(t *testing.T) {
		other := testFile(999)
		h := newHarness(t, pinned(lostX(file)), pinned(mediaX(file)).answer(http.StatusPreconditionFailed).withBody(conditionNotMet))
		look := &fakeLookup{answers: []lookupAnswer{
			{found: Found{}},
			{found: Found{Body: objectJSON("b/o/18", other), ByName: true, Generation: "18"}},
		}}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look, Pin: pinner{}}, &memFile{data: file}, Media, nil, nil)
		var api *APIError
		if !errors.As(err, &api) || api.Status != http.StatusPreconditionFailed || errors.Is(err, ErrAnswerLost) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("an address's own precondition wins", func(t *testing.T) {
		x := mediaX(file).answer(http.StatusOK).withBody(okJSON)
		x.url = testBase + "&ifGenerationMatch=7&uploadType=media"
		h := newHarness(t, x)
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase + "&ifGenerationMatch=7", ContentType: testType, Lookup: look, Pin: pinner{}}, &memFile{data: file}, Media, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAnswerThatNamesNothing(t *testing.T) {
	file := testFile(1000)
	named := func(body []byte) bool {
		var v struct{ ID string }
		return json.Unmarshal(body, &v) == nil && v.ID != ""
	}
	for _, body := range []string{"", "{}"} {
		t.Run("no lookup "+body, func(t *testing.T) {
			h := newHarness(t, mediaX(file).answer(http.StatusOK).withBody(body))
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Identifies: named}, &memFile{data: file}, Media, nil, nil)
			if !errors.Is(err, ErrNoID) || Retryable(err) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("found by lookup", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusOK).withBody("{}"))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{Body: objectJSON("obj-1", file)}}}}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Identifies: named, Lookup: look}, &memFile{data: file}, Media, nil, nil)
		if err != nil || !res.Found || !strings.Contains(string(res.Body), "obj-1") {
			t.Fatalf("res %+v, err %v", res, err)
		}
	})
	t.Run("not found by lookup", func(t *testing.T) {
		size := int64(len(file))
		h := newHarness(t, startX(nil, size), putX(file, 0, size).answer(http.StatusCreated).withBody("{}"))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}}}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Identifies: named, Lookup: look}, &memFile{data: file}, Resumable, nil, nil)
		if !errors.Is(err, ErrNoID) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestCRC32CToldToTheServer(t *testing.T) {
	file := testFile(3*ChunkAlign + 5)
	size := int64(len(file))
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32c.Checksum(file))
	want := base64.StdEncoding.EncodeToString(b[:])
	t.Run("media", func(t *testing.T) {
		x := mediaX(file).answer(http.StatusOK).withBody(okJSON)
		x.header["X-Goog-Hash"] = "crc32c=" + want
		h := newHarness(t, x)
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, SendCRC32C: true}, &memFile{data: file}, Media, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("multipart", func(t *testing.T) {
		h := newHarness(t, multipartX().answer(http.StatusOK).withBody(okJSON))
		meta := []byte(`{"name":"a.png","crc32c":"` + want + `"}`)
		h.up.Client.Transport = multipartTransport{t: t, next: h.s, meta: meta, file: file}
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Metadata: []byte(`{"name":"a.png"}`), SendCRC32C: true}, &memFile{data: file}, Multipart, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("resumable: the last chunk", func(t *testing.T) {
		last := putX(file, 2*ChunkAlign, size-2*ChunkAlign).answer(http.StatusOK).withBody(okJSON)
		last.header["X-Goog-Hash"] = "crc32c=" + want
		h := newHarness(t,
			startX(nil, size),
			putX(file, 0, 2*ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-524287"),
			last,
		)
		h.up.ChunkSize = 2 * ChunkAlign
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, SendCRC32C: true}, &memFile{data: file}, Resumable, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// A pause while the body is still going out settles the doubt: nothing
// whole reached the server.
func TestPauseMidBodySettlesTheDoubt(t *testing.T) {
	file := testFile(100_000)
	ctx, cancel := context.WithCancel(context.Background())
	x := mediaX(file)
	x.before = func(req *http.Request) {
		_, _ = io.CopyN(io.Discard, req.Body, 1000)
		cancel()
		<-req.Context().Done()
	}
	x.stall = true
	h := newHarness(t, x)
	obs := newRecorder(t, int64(len(file)), false)
	_, err := h.up.Upload(ctx, Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrAnswerLost) {
		t.Fatalf("err = %v", err)
	}
	if !obs.doubt().IsZero() || len(obs.doubts) != 2 {
		t.Errorf("doubts %v: a body that did not go out whole was left in doubt", obs.doubts)
	}
}

// AddField leaves the caller's metadata as it was, also where its buffer
// has room after the object (a trailing newline, as a file read holds).
func TestAddFieldLeavesTheMetadataAlone(t *testing.T) {
	meta := []byte("{\"name\":\"plan.pdf\"}\n")
	before := string(meta)
	got := AddField(meta, "crc32c", "AAAAAA==")
	if string(meta) != before {
		t.Errorf("the caller's metadata became %q", meta)
	}
	if want := `{"name":"plan.pdf","crc32c":"AAAAAA=="}`; string(got) != want {
		t.Errorf("AddField = %s, want %s", got, want)
	}
	if got := AddField(nil, "a", 1); string(got) != `{"a":1}` {
		t.Errorf("AddField(nil) = %s", got)
	}
}
