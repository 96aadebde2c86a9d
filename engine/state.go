package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hoist/engine/dest"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// job is one file's upload. Fields without a comment are guarded by Queue.mu;
// the progress counters are atomics so the uploading goroutine never waits for
// a reader of the list.
type job struct {
	id     JobID
	order  int64
	info   media.Info
	dest   dest.Destination
	state  State
	reason string
	next   string
	// details are the server's own words behind reason (Google's error
	// message); they hold only while reason is still detailsFor.
	details, detailsFor string
	facts               saidFacts // the reason and next step as facts
	chunk               int64     // bytes per request; kept so a resume sends as the job began
	chunkSet            bool      // chunk was chosen (0 is a choice: the whole file at once)
	retryAt             time.Time
	session             upload.Session

	method   upload.Method
	fellBack bool
	restarts int
	result   *Result
	created  time.Time
	finished time.Time

	cancel  context.CancelCauseFunc
	attempt int
	verify  bool // check the file against its fingerprint before the next start
	changed bool // stopped because the file changed; only Restart sends it again
	locked  bool // stopped because the keychain is locked: unlocking it, not signing in, is the way on
	held    bool // added, and not yet in the journal: it does not start

	wake atomic.Bool // state is Checking or Retrying: the next bytes make it Uploading

	sent      atomic.Int64
	committed atomic.Int64
	ver       atomic.Uint64  // bumped at every visible change
	changes   *atomic.Uint64 // the queue's count of changes, bumped with ver
	meter     meter
	saved     atomic.Int64 // unix nanos of the last progress write to the journal
}

func (jb *job) bump() {
	jb.ver.Add(1)
	if jb.changes != nil {
		jb.changes.Add(1)
	}
}

// explainLocked sets the job's reason to err in plain words, with the
// server's own words as its details; Queue.mu must be held.
func (jb *job) explainLocked(err error) {
	jb.reason = dest.Explain(jb.dest, err)
	jb.details, jb.detailsFor = dest.GoogleWords(err), jb.reason
}

// currentDetails are the details of the reason shown now, or "".
func (jb *job) currentDetails() string {
	if jb.reason == "" || jb.reason != jb.detailsFor {
		return ""
	}
	return jb.details
}

// viewLocked copies what is shown about jb; Queue.mu must be held.
func (jb *job) viewLocked(now time.Time) JobView {
	facts := jb.factsLocked()
	v := JobView{
		ID:          jb.id,
		Path:        jb.info.Path,
		Name:        jb.info.Name,
		Size:        jb.info.Size,
		MIME:        jb.info.MIME,
		Destination: jb.dest.Name,
		DestKind:    string(jb.dest.Kind),
		Server:      jb.dest.ServerName(),
		Account:     jb.dest.Account,
		State:       jb.state,
		FileChanged: jb.changed,
		Locked:      jb.locked && jb.state == Attention,
		NeedsSignIn: facts.NeedsSignIn,
		Actions:     ActionsFor(jb.state, facts),
		Reason:      jb.reason,
		Details:     jb.currentDetails(),
		Next:        jb.next,
		Fact:        jb.reasonFact(),
		NextFact:    jb.nextFact(),
		RetryAt:     jb.retryAt,
		Sent:        jb.sent.Load(),
		Committed:   jb.committed.Load(),
		Restarts:    jb.restarts,
		Method:      jb.method,
		FellBack:    jb.fellBack,
		Result:      jb.result,
		Created:     jb.created,
		Finished:    jb.finished,
		Version:     jb.ver.Load(),
		ETA:         -1,
	}
	if v.Details != "" {
		v.DetailsFrom = jb.dest.Speaker()
	}
	if v.Destination == "" {
		v.Destination = string(jb.dest.Kind)
	}
	if facts.NeedsSignIn {
		v.Scopes = jb.dest.Scopes()
	}
	if e := jb.info.Email; e != nil {
		v.Email = &Email{From: e.From, Subject: e.Subject, Date: e.Date}
	}
	if jb.state.Active() {
		v.Speed = jb.meter.rate(now)
		if v.Speed > 0 {
			v.ETA = time.Duration(float64(jb.left(now)) / v.Speed * float64(time.Second))
		}
	}
	if jb.state == Done {
		v.Committed = v.Size
		v.ETA = 0
	}
	return v
}

// record is what the journal keeps of jb; Queue.mu must be held.
func (jb *job) recordLocked() (journal.Record, error) {
	d, err := json.Marshal(jb.dest)
	if err != nil {
		return journal.Record{}, fmt.Errorf("saving the destination: %w", err)
	}
	rec := journal.Record{
		ID:             string(jb.id),
		Order:          jb.order,
		Path:           jb.info.Path,
		Name:           jb.info.Name,
		Size:           jb.info.Size,
		ModTime:        jb.info.ModTime,
		Fingerprint:    jb.info.Fingerprint,
		MIME:           jb.info.MIME,
		Destination:    d,
		Method:         string(jb.method),
		FellBack:       jb.fellBack,
		SessionURI:     jb.session.URI,
		SessionStarted: jb.session.Started,
		Committed:      jb.committed.Load(),
		State:          string(jb.state),
		LastError:      jb.reason,
		Details:        jb.currentDetails(),
		LastFact:       factJSON(jb.reasonFact()),
		FileChanged:    jb.changed,
		Restarts:       jb.restarts,
		Created:        jb.created,
		Finished:       jb.finished,
	}
	if jb.chunkSet {
		chunk := jb.chunk
		rec.ChunkSize = &chunk
	}
	if jb.result != nil {
		rec.Result = jb.result.Raw
		rec.ResultSummary = jb.result.Summary
		rec.Verified = jb.result.Verified
	}
	return rec, nil
}

// jobFromRecord rebuilds a job from the journal.
func jobFromRecord(rec journal.Record) (*job, error) {
	var d dest.Destination
	if err := json.Unmarshal(rec.Destination, &d); err != nil {
		return nil, fmt.Errorf("reading the destination: %w", err)
	}
	if builtinBefore(d) {
		d.BuiltinSandbox = true
	}
	jb := &job{
		id:    JobID(rec.ID),
		order: rec.Order,
		info: media.Info{
			Path:        rec.Path,
			Name:        rec.Name,
			Size:        rec.Size,
			ModTime:     rec.ModTime,
			Fingerprint: rec.Fingerprint,
			MIME:        rec.MIME,
		},
		dest:       d,
		state:      State(rec.State),
		reason:     rec.LastError,
		details:    rec.Details,
		detailsFor: rec.LastError,
		facts:      saidFacts{reason: factFrom(rec.LastFact), reasonFor: rec.LastError},
		changed:    rec.FileChanged,
		verify:     rec.FileChanged,
		session:    upload.Session{URI: rec.SessionURI, Started: rec.SessionStarted},
		method:     upload.Method(rec.Method),
		fellBack:   rec.FellBack,
		restarts:   rec.Restarts,
		created:    rec.Created,
		finished:   rec.Finished,
	}
	if rec.ChunkSize != nil {
		jb.chunk, jb.chunkSet = *rec.ChunkSize, true
	}
	jb.committed.Store(rec.Committed)
	jb.sent.Store(rec.Committed)
	if len(rec.Result) > 0 || rec.ResultSummary != "" {
		jb.result = resultFrom(d, rec.Result)
		if rec.ResultSummary != "" {
			jb.result.Summary = rec.ResultSummary
		}
		jb.result.Verified = rec.Verified
	}
	if d.Kind != "" && (rec.MIME == "message/rfc822" || isMessage(rec.MIME)) {
		// Subject and From are shown on the row; read them again from the file.
		if info, err := media.Inspect(rec.Path); err == nil {
			jb.info.Email = info.Email
		}
	}
	return jb, nil
}

// left is how many bytes of jb have still to go out. The speed is measured on
// the bytes going out, so the time left counts from them too: with the bar,
// which shows only what the server confirmed, it would stand still for a whole
// chunk. A range sent again after an interruption moves Sent back, never
// below what the server confirmed.
func (jb *job) left(now time.Time) int64 {
	done := max(jb.meter.delivered(now, jb.sent.Load()), jb.committed.Load())
	return max(jb.info.Size-done, 0)
}

func isMessage(mime string) bool { return len(mime) > 8 && mime[:8] == "message/" }

// maxKeptAnswer bounds what is kept of an answer that is not JSON; an
// answer over maxReadAnswer is not read as a resource at all.
const (
	maxKeptAnswer = 4 << 10
	maxReadAnswer = 1 << 20
)

// resultFrom turns the server's answer into what the row shows. An answer
// that is not JSON (an HTML page, JSON cut short or over the size kept) is
// kept as a JSON string of its start, so the record holding it can always
// be written.
func resultFrom(d dest.Destination, body []byte) *Result {
	r := &Result{Raw: body}
	if len(body) == 0 {
		return r
	}
	if len(body) > maxReadAnswer {
		// No destination's resource is this large: it is not the answer Hoist knows.
		r.Raw, _ = json.Marshal(strings.ToValidUTF8(string(body[:maxKeptAnswer]), "\uFFFD"))
		r.Summary = fmt.Sprintf("Uploaded. The answer could not be read: it is larger than %d KiB.", maxReadAnswer>>10)
		return r
	}
	if !json.Valid(body) {
		r.Raw, _ = json.Marshal(strings.ToValidUTF8(string(body[:min(len(body), maxKeptAnswer)]), "\uFFFD"))
	}
	pr, err := dest.ParseResult(d, body)
	if err != nil {
		r.Summary = "Uploaded. Google's answer could not be read: " + err.Error()
		return r
	}
	r.ID, r.ThreadID, r.Name, r.URL, r.Summary = pr.ID, pr.ThreadID, pr.Name, pr.URL, pr.Summary
	return r
}

// meter is a moving average of bytes per second, so the time left does not jump.
type meter struct {
	mu    sync.Mutex
	at    time.Time // when bytes was sampled
	bytes int64
	last  int64 // the latest offset heard
	rateV float64
	// The rate at which the server confirms bytes, since the run's first
	// byte: the bytes written to the connection run ahead of the link by
	// what its buffers hold, which on a slow link is seconds of bytes, so
	// the rate shown never exceeds this one once it is known.
	start     time.Time
	startOff  int64
	confirmed float64
	confAt    time.Time // when the server last confirmed bytes
	confOff   int64     // up to where
}

const meterWindow = 500 * time.Millisecond

// add records that the upload has reached offset at now.
func (m *meter) add(now time.Time, offset int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	back := offset < m.last // a range sent again: measure from where it starts
	m.last = offset
	if m.start.IsZero() {
		m.start, m.startOff = now, offset
	}
	if back {
		// After an interruption the confirmed rate says what was lost, not
		// how fast the link is: measure it afresh from the next byte.
		m.start, m.confirmed, m.confAt = time.Time{}, 0, time.Time{}
	}
	if m.at.IsZero() || back {
		m.at, m.bytes = now, offset
		return
	}
	dt := now.Sub(m.at)
	if dt < meterWindow {
		return
	}
	inst := float64(offset-m.bytes) / dt.Seconds()
	if m.rateV == 0 {
		m.rateV = inst
	} else {
		m.rateV = 0.7*m.rateV + 0.3*inst
	}
	m.at, m.bytes = now, offset
}

// rate is the current estimate; it fades when no bytes have moved for a while.
func (m *meter) rate(now time.Time) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at.IsZero() {
		return 0
	}
	r := m.rateV
	if m.confirmed > 0 && m.confirmed < r {
		r = m.confirmed
	}
	if idle := now.Sub(m.at); idle > 3*meterWindow {
		return r * float64(3*meterWindow) / float64(idle)
	}
	return r
}

// begin marks where the run's bytes start (the offset the server had
// confirmed when they did), unless it is marked already.
func (m *meter) begin(now time.Time, from int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.start.IsZero() {
		m.start, m.startOff = now, from
	}
}

// confirm records that the server has confirmed the bytes up to offset at now.
func (m *meter) confirm(now time.Time, offset int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.start.IsZero() || offset <= m.startOff {
		return
	}
	if dt := now.Sub(m.start); dt > 0 {
		m.confirmed = float64(offset-m.startOff) / dt.Seconds()
		m.confAt, m.confOff = now, offset
	}
}

// delivered estimates how far the bytes have crossed the link: sent, but
// no further than the last confirmed offset plus what the confirmed rate
// has carried since.
func (m *meter) delivered(now time.Time, sent int64) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.confirmed <= 0 {
		return sent
	}
	return min(sent, m.confOff+int64(m.confirmed*now.Sub(m.confAt).Seconds()))
}

func (m *meter) reset() {
	m.mu.Lock()
	m.at, m.bytes, m.last, m.rateV = time.Time{}, 0, 0, 0
	m.start, m.startOff, m.confirmed, m.confAt, m.confOff = time.Time{}, 0, 0, time.Time{}, 0
	m.mu.Unlock()
}
