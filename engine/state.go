package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// job is one file's upload. Fields without a comment are guarded by list.mu;
// the progress counters are atomics so the uploading goroutine never waits for
// a reader of the list.
type job struct {
	id    JobID
	order int64
	info  media.Info
	dest  dest.Destination
	state State
	// reason and next are why the job stands where it is and what to do
	// now, as facts (a job an older Hoist stopped keeps its sentence).
	reason, next fact.Said
	// details are the server's own words behind reason (Google's error
	// message); sayLocked drops them with the reason they were said of.
	details string
	chunk   int64 // bytes per request; kept so a resume sends as the job began
	// run is what only a job not yet finished needs (its session, its
	// waits, how to stop it); nil for a finished job, as every job of a
	// long list read from the journal is. See live and peek.
	run *underway

	method   upload.Method
	result   *Result
	created  time.Time
	finished time.Time

	chunkSet bool // chunk was chosen (0 is a choice: the whole file at once)
	fellBack bool
	verify   bool  // check the file against its fingerprint before the next start
	changed  bool  // stopped because the file changed; only Restart sends it again
	locked   bool  // stopped because the keychain is locked: unlocking it, not signing in, is the way on
	doubt    doubt // stopped because the destination may hold the file (or a wrong copy of it)
	canAsk   bool  // the destination can be asked what an upload made (its plan has a lookup)
	unmarked bool  // it could be, but the file lacks the mark it finds uploads by (Plan.Unmarked)
	checked  bool  // its settings were validated and its file checked in this run: sending builds the request only
	held     bool  // added, and not yet in the journal: it does not start

	wake     atomic.Bool // state is Checking or Retrying: the next bytes make it Uploading
	restarts int32       // honest restarts from byte 0 (beside wake: one word for both)

	sent      atomic.Int64
	committed atomic.Int64
	ver       atomic.Uint64 // bumped at every visible change (list.bump)
	// meters measures the speed while the job is sent; nil until it first
	// is (a finished job read from the journal never has one): see meter.
	meters atomic.Pointer[meter]
}

// underway is the part of a job that only a job not yet finished needs,
// kept apart so that a finished job is small (10,000 of them are held for
// the list).
type underway struct {
	retryAt time.Time     // Retrying: when it tries again; Waiting: not before (told to wait)
	asked   bool          // Waiting until retryAt: the server asked for the wait
	waited  time.Duration // waits before trying again in this run, in all (Options.MaxWait)
	later   bool          // waits past what this run waits: left for a later run
	counted bool          // the wait until retryAt is counted in waited
	session upload.Session
	since   string // where the destination stood before the upload was first sent (dest.Destination.Mark)
	cancel  context.CancelCauseFunc
	looks   []string // doubtAccess: the scopes looking for it needs
	// unconfirmed, while Paused, is what had crossed the link when it was
	// paused beyond what the server confirmed: a row shows less than it
	// did, and says why (JobView.Unconfirmed).
	unconfirmed int64
	// wholeOut is when the file's last byte went out in this run (and,
	// while Paused, its answer was not heard, kept in the list too); zero
	// when it did not. A resumable upload canceled after it keeps its
	// session: the file may have arrived.
	wholeOut time.Time
}

// live is the job's running part, made when first written; list.mu must
// be held.
func (jb *job) live() *underway {
	if jb.run == nil {
		jb.run = new(underway)
	}
	return jb.run
}

// peek is a copy of the job's running part, all zero when it has none;
// list.mu must be held.
func (jb *job) peek() underway {
	if jb.run == nil {
		return underway{}
	}
	return *jb.run
}

// settle lets go of the running part of a job once nothing in it is set
// (a finished job); list.mu must be held.
func (jb *job) settle() {
	r := jb.run
	if r != nil && r.retryAt.IsZero() && !r.asked && r.waited == 0 && !r.later && !r.counted &&
		r.session == (upload.Session{}) && r.since == "" && r.cancel == nil && r.looks == nil && r.unconfirmed == 0 && r.wholeOut.IsZero() {
		jb.run = nil
	}
}

// explainLocked sets the job's reason to err's fact, with the server's own
// words as its details; list.mu must be held.
func (jb *job) explainLocked(err error) {
	jb.reason, jb.details = said(errFact(jb, err)), dest.GoogleWords(err)
}

// viewLocked copies what is shown about jb; list.mu must be held.
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
		Server:      jb.dest.Server(),
		Account:     jb.dest.Account,
		State:       jb.state,
		FileChanged: jb.changed,
		Locked:      jb.locked && jb.state == Attention,
		NeedsSignIn: facts.NeedsSignIn,
		Actions:     ActionsFor(jb.state, facts),
		InMailbox:   inMailbox(jb.info.Part),
		Reason:      jb.reason.Legacy,
		Details:     jb.details,
		Next:        jb.next.Legacy,
		Fact:        jb.reason.Fact,
		NextFact:    jb.next.Fact,
		RetryAt:     jb.peek().retryAt,
		Later:       jb.peek().later,
		Sent:        jb.sent.Load(),
		Committed:   jb.committed.Load(),
		Restarts:    int(jb.restarts),
		Method:      jb.method,
		FellBack:    jb.fellBack,
		Result:      jb.result,
		Created:     jb.created,
		Finished:    jb.finished,
		Version:     jb.ver.Load(),
		ETA:         -1,
	}
	if v.Details != "" {
		v.DetailsFrom = jb.dest.Server()
	}
	if v.Destination == "" {
		v.Destination = string(jb.dest.Kind)
	}
	if facts.NeedsSignIn {
		v.Scopes = jb.dest.Scopes()
		if facts.InDoubt {
			v.Scopes = jb.lookScopes()
		}
	}
	v.InDoubt = facts.InDoubt
	if e := jb.info.Email; e != nil {
		v.Email = &Email{From: e.From, Subject: e.Subject, Date: e.Date}
	}
	v.Delivered = v.Committed
	if jb.state.Active() {
		v.Delivered = max(jb.meters.Load().delivered(now, v.Sent), v.Committed)
		v.Speed = jb.meters.Load().rate(now)
		if v.Speed > 0 {
			v.ETA = time.Duration(float64(jb.left(now)) / v.Speed * float64(time.Second))
		}
	}
	if jb.state == Done {
		v.Committed, v.Delivered = v.Size, v.Size
		v.ETA = 0
	}
	if jb.state == Paused && jb.run != nil {
		v.Unconfirmed = jb.run.unconfirmed
	}
	return v
}

// record is what the journal keeps of jb; list.mu must be held.
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
		FileSize:       fileSizeIfMade(jb.info),
		Destination:    d,
		Method:         string(jb.method),
		FellBack:       jb.fellBack,
		SessionURI:     jb.peek().session.URI,
		SessionStarted: jb.peek().session.Started,
		SentAt:         jb.peek().session.Sent,
		LastByteAt:     jb.peek().wholeOut,
		Since:          jb.peek().since,
		RetryAt:        jb.peek().retryAt,
		RetryAsked:     jb.peek().asked && !jb.peek().retryAt.IsZero(),
		Committed:      jb.committed.Load(),
		State:          string(jb.state),
		LastError:      jb.reason.Legacy,
		Details:        jb.details,
		LastFact:       factJSON(jb.reason.Fact),
		FileChanged:    jb.changed,
		Restarts:       int(jb.restarts),
		Created:        jb.created,
		Finished:       jb.finished,
	}
	if p := jb.info.Part; p != nil {
		rec.Part = &journal.Part{Index: p.Index, Offset: p.Offset, Length: p.Length, Quoting: uint8(p.Quoting), Sum: p.Sum, FileSize: p.FileSize, Labels: p.Labels}
	}
	if jb.chunkSet {
		chunk := jb.chunk
		rec.ChunkSize = &chunk
	}
	if jb.result != nil {
		putResult(&rec, jb.result)
	}
	if isEmail(jb.dest, jb.info.MIME) {
		rec.Email = &journal.EmailHeaders{} // read, and said nothing usable
		if e := jb.info.Email; e != nil {
			rec.Email = &journal.EmailHeaders{From: e.From, Subject: e.Subject, Date: e.Date}
		}
	}
	return rec, nil
}

// putResult keeps r in rec: the server's answer, what was read from it and
// what it was taken to mean.
func putResult(rec *journal.Record, r *Result) {
	rec.Result, rec.ResultSummary, rec.Verified = r.Raw, r.Summary, r.Verified
	rec.KeepResult = r.stored
	rec.ResultFact = r.fact
	rec.ResultRef = &journal.ResultRef{ID: r.ID, ThreadID: r.ThreadID, Name: r.Name, URL: r.URL}
}

// isEmail reports whether a job's file is an email whose headers the row
// shows: a message, for a destination.
func isEmail(d dest.Destination, mime string) bool {
	return d.Kind != "" && (mime == "message/rfc822" || isMessage(mime))
}

// destinations reads the destinations of the journal's records. Records
// added together hold the same bytes, and each distinct one is read once:
// its jobs share the destination (and its Params, which no job changes in
// place: a changed destination is a copy, see dest.Destination.Upgraded).
type destinations struct {
	read func([]byte) (dest.Destination, error)
	seen map[string]dest.Destination
}

func newDestinations() *destinations {
	return &destinations{read: readDestination, seen: make(map[string]dest.Destination)}
}

func readDestination(b []byte) (dest.Destination, error) {
	var d dest.Destination
	if err := json.Unmarshal(b, &d); err != nil {
		return dest.Destination{}, err
	}
	if builtinBefore(d) {
		d.BuiltinSandbox = true
	}
	return d, nil
}

func (ds *destinations) of(b []byte) (dest.Destination, error) {
	if d, ok := ds.seen[string(b)]; ok {
		return d, nil
	}
	d, err := ds.read(b)
	if err != nil {
		return dest.Destination{}, err
	}
	ds.seen[string(b)] = d
	return d, nil
}

// jobFromRecord rebuilds a job from the journal, without reading its file:
// an email's headers come from the record (emailUnknown says when an older
// Hoist kept none, for list.readEmails to read after Open).
// With lean, the server's whole answer stays in the journal (see
// Options.LeanResults).
func jobFromRecord(rec journal.Record, ds *destinations, lean bool) (jb *job, emailUnknown bool, err error) {
	d, err := ds.of(rec.Destination)
	if err != nil {
		return nil, false, fmt.Errorf("reading the destination: %w", err)
	}
	jb = &job{
		id:    JobID(rec.ID),
		order: rec.Order,
		info: media.Info{
			Path:        rec.Path,
			Name:        within(rec.Path, rec.Name),
			Size:        rec.Size,
			ModTime:     rec.ModTime,
			Fingerprint: rec.Fingerprint,
			MIME:        common(rec.MIME),
		},
		dest:     d,
		state:    State(common(rec.State)),
		reason:   savedReason(rec),
		details:  rec.Details,
		changed:  rec.FileChanged,
		verify:   rec.FileChanged,
		method:   upload.Method(common(rec.Method)),
		fellBack: rec.FellBack,
		restarts: int32(rec.Restarts),
		created:  rec.Created,
		finished: rec.Finished,
	}
	if p := rec.Part; p != nil {
		jb.info.Part = &media.Part{Index: p.Index, Offset: p.Offset, Length: p.Length, Size: rec.Size, Quoting: media.Quoting(p.Quoting), Sum: p.Sum, FileSize: p.FileSize, Labels: p.Labels}
	}
	if rec.ChunkSize != nil {
		jb.chunk, jb.chunkSet = *rec.ChunkSize, true
	}
	var looks []string
	jb.doubt, looks = doubtFrom(jb.state, jb.reason.Fact)
	if looks != nil {
		jb.live().looks = looks
	}
	if s := (upload.Session{URI: rec.SessionURI, Started: rec.SessionStarted, Sent: rec.SentAt}); s != (upload.Session{}) {
		jb.live().session = s
	}
	if !rec.LastByteAt.IsZero() && rec.SessionURI != "" && State(rec.State) != Done {
		jb.live().wholeOut = rec.LastByteAt // its answer unheard: a Cancel keeps the session
	}
	if rec.Since != "" && State(rec.State) != Done {
		jb.live().since = rec.Since
	}
	if (State(rec.State) == Waiting || State(rec.State) == Paused) && (!rec.RetryAt.IsZero() || rec.RetryAsked) {
		jb.live().retryAt, jb.live().asked = rec.RetryAt, rec.RetryAsked // it was told to wait until then
	}
	jb.committed.Store(rec.Committed)
	jb.sent.Store(rec.Committed)
	if len(rec.Result) > 0 || rec.ResultSummary != "" {
		jb.result = savedResult(d, rec)
		if lean && jb.result.Raw != nil {
			jb.result.Raw, jb.result.stored = nil, true
		}
	}
	if isEmail(d, rec.MIME) {
		switch e := rec.Email; {
		case e == nil:
			emailUnknown = true
		case *e != journal.EmailHeaders{} || rec.FileSize > 0:
			jb.info.Email = &media.Email{From: e.From, Subject: e.Subject, Date: e.Date, FileSize: rec.FileSize}
		}
	}
	return jb, emailUnknown, nil
}

// fileSizeIfMade is the file's own size when what is sent is made from it
// (an Outlook item sent as an email); 0 when the file is sent as it is.
func fileSizeIfMade(info media.Info) int64 {
	if info.Converted() {
		return info.FileSize()
	}
	return 0
}

// within is name as the end of path when path ends with it (a file's name
// is its path's last part), so that the job keeps one string of the two.
func within(path, name string) string {
	if name != "" && strings.HasSuffix(path, name) {
		return path[len(path)-len(name):]
	}
	return name
}

// common is s as one string shared by every job that holds it (a type of
// file, a state, a method, a checksum's name), not a copy per job read from
// the journal.
func common(s string) string { return unique.Make(s).Value() }

// savedResult is the result a record keeps. What was read from the answer
// is kept beside it; only a record of an older Hoist has its answer read again.
func savedResult(d dest.Destination, rec journal.Record) *Result {
	var r *Result
	if ref := rec.ResultRef; ref != nil {
		r = &Result{Raw: rec.Result, ID: ref.ID, ThreadID: ref.ThreadID, Name: ref.Name, URL: ref.URL}
	} else {
		r = resultFrom(d, rec.Result)
	}
	if rec.ResultSummary != "" {
		r.Summary = rec.ResultSummary
	}
	if len(rec.ResultFact) > 0 {
		r.fact = rec.ResultFact // read when shown (Result.Fact)
	}
	r.Verified = common(rec.Verified)
	return r
}

// readEmailHeaders reads an email file's headers (tests count its calls).
var readEmailHeaders = media.ReadEmail

// left is how many bytes of jb have still to go out. The speed is measured on
// the bytes going out, so the time left counts from them too: with the bar,
// which shows only what the server confirmed, it would stand still for a whole
// chunk. A range sent again after an interruption moves Sent back, never
// below what the server confirmed.
func (jb *job) left(now time.Time) int64 {
	done := max(jb.meters.Load().delivered(now, jb.sent.Load()), jb.committed.Load())
	return max(jb.info.Size-done, 0)
}

// inMailbox is an email's place in its mailbox file, from 1; 0 for a
// file sent whole.
func inMailbox(p *media.Part) int {
	if p == nil {
		return 0
	}
	return p.Index + 1
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
		r.fact = factJSON(&fact.Fact{Code: fact.AnswerUnreadable, Dest: string(d.Kind)})
		return r
	}
	if !json.Valid(body) {
		r.Raw, _ = json.Marshal(strings.ToValidUTF8(string(body[:min(len(body), maxKeptAnswer)]), "\uFFFD"))
	}
	pr, err := dest.ParseResult(d, body)
	if err != nil {
		r.fact = factJSON(&fact.Fact{Code: fact.AnswerUnreadable, Dest: string(d.Kind)})
		return r
	}
	r.ID, r.ThreadID, r.Name, r.URL = pr.ID, pr.ThreadID, pr.Name, pr.URL
	if pr.Fact.Code != "" {
		f := pr.Fact
		f.Dest = string(d.Kind)
		if n := d.NamedByUser(); n != "" {
			f.Args = mergeArgs(f.Args, map[string]string{"name": n})
		}
		r.fact = factJSON(&f)
	}
	return r
}

// meter estimates how fast the bytes cross the link, so that the speed and
// the time left are the link's, not the buffers'. The bytes handed to the
// connection run ahead of the link by what the kernel's (and any proxy's)
// buffers hold, which on a slow link is seconds of bytes: a request's first
// megabytes go out at once, and only then do the bytes handed out move at
// the link's pace. So the speed is taken over a sliding window of the
// offsets handed out, the longest that this burst does not inflate; and
// until the last second shows that pace steady, it is capped by the rate at
// which the server confirms bytes.
type meter struct {
	mu      sync.Mutex
	samples []sample  // offsets handed out, sampleEvery apart, back to rateSpan
	last    int64     // the latest offset heard
	movedAt time.Time // when it last moved
	held    float64   // the speed before a range was sent again, until the samples span a window
	// The rate at which the server confirms bytes, since the run's first
	// byte (measured afresh after an interruption).
	start     time.Time
	startOff  int64
	confirmed float64
	confAt    time.Time // when the server last confirmed bytes
	confOff   int64     // up to where
	// saved is when the job's progress was last written to the journal
	// (unix nanos): kept with the meter, which only a job being sent has,
	// not with every job of the list.
	saved atomic.Int64
}

// meter is the job's meter, made when it is first needed: a meter is 144
// bytes, and a long list is mostly of jobs that never move again.
func (jb *job) meter() *meter {
	if m := jb.meters.Load(); m != nil {
		return m
	}
	jb.meters.CompareAndSwap(nil, &meter{})
	return jb.meters.Load()
}

type sample struct {
	at  time.Time
	off int64
}

const (
	// meterWindow is the shortest window the speed is taken over, and how
	// long the offsets may stand still before the speed shown fades.
	meterWindow = time.Second
	// rateSpan is the longest window the speed is taken over.
	rateSpan = 8 * time.Second
	// sampleEvery spaces the offsets kept.
	sampleEvery = 50 * time.Millisecond
	// steadyWithin is how far two windows' rates may differ and still
	// count as the same pace.
	steadyWithin = 0.25
)

// add records that the upload has reached offset at now.
func (m *meter) add(now time.Time, offset int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	back := offset < m.last // a range sent again: measure from where it starts
	if m.start.IsZero() {
		m.start, m.startOff = now, offset
	}
	if back {
		// After an interruption the confirmed rate says what was lost, not
		// how fast the link is: measure both afresh from the next byte,
		// showing the speed seen so far until a window is measured.
		m.held = m.pace()
		m.start, m.confirmed, m.confAt = time.Time{}, 0, time.Time{}
		m.samples = m.samples[:0]
	}
	if offset != m.last || len(m.samples) == 0 {
		m.movedAt = now
	}
	m.last = offset
	if n := len(m.samples); n > 0 && now.Sub(m.samples[n-1].at) < sampleEvery {
		return
	}
	m.samples = append(m.samples, sample{now, offset})
	// Keep one sample older than rateSpan, to measure the whole span from.
	drop := 0
	for drop+1 < len(m.samples) && now.Sub(m.samples[drop+1].at) >= rateSpan {
		drop++
	}
	if drop > 0 {
		m.samples = append(m.samples[:0], m.samples[drop:]...)
	}
}

// offAt is the offset handed out by time t (the earliest known before the samples).
func (m *meter) offAt(t time.Time) int64 {
	off := m.samples[0].off
	for _, s := range m.samples {
		if s.at.After(t) {
			break
		}
		off = s.off
	}
	return off
}

// over is the rate of the offsets in the window of length w ending at end,
// shortened to the samples there are.
func (m *meter) over(end time.Time, w time.Duration) float64 {
	from := end.Add(-w)
	if first := m.samples[0].at; from.Before(first) {
		from = first
	}
	dt := end.Sub(from).Seconds()
	if dt <= 0 {
		return 0
	}
	return float64(m.offAt(end)-m.offAt(from)) / dt
}

// pace is the estimate before any fading; m.mu must be held.
func (m *meter) pace() float64 {
	if len(m.samples) == 0 {
		return 0
	}
	end := m.movedAt
	span := end.Sub(m.samples[0].at)
	if m.held > 0 && span < meterWindow {
		return m.held
	}
	if span <= 0 {
		return 0
	}
	recent := m.over(end, meterWindow)
	r := recent
	// The longest window not inflated by a burst into the buffers: one
	// whose rate is not well above the last second's.
	for _, w := range []time.Duration{rateSpan, rateSpan / 2, rateSpan / 4} {
		if span < w/2 {
			continue
		}
		if v := m.over(end, w); v <= (1+steadyWithin)*recent {
			r = v
			break
		}
	}
	if m.confirmed > 0 && m.confirmed < r && !m.steady(end, span) {
		r = m.confirmed
	}
	return r
}

// steady reports whether the two halves of the last second handed out bytes
// at the same pace: the buffers are full, and what goes in is what leaves.
func (m *meter) steady(end time.Time, span time.Duration) bool {
	if span < meterWindow {
		return false
	}
	half := meterWindow / 2
	a, b := m.over(end.Add(-half), half), m.over(end, half)
	return a > 0 && b > 0 && max(a, b) <= (1+steadyWithin)*min(a, b)
}

// rate is the current estimate; it fades when no bytes have moved for a while.
func (m *meter) rate(now time.Time) float64 {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.pace()
	if idle := now.Sub(m.movedAt); r > 0 && idle > meterWindow {
		return r * float64(meterWindow) / float64(idle)
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
// no further than the last confirmed offset plus what the link has carried
// since at the speed measured.
func (m *meter) delivered(now time.Time, sent int64) int64 {
	if m == nil {
		return sent
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.confirmed <= 0 {
		return sent
	}
	return min(sent, m.confOff+int64(m.pace()*now.Sub(m.confAt).Seconds()))
}

func (m *meter) reset() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.samples, m.last, m.movedAt, m.held = m.samples[:0], 0, time.Time{}, 0
	m.start, m.startOff, m.confirmed, m.confAt, m.confOff = time.Time{}, 0, 0, time.Time{}, 0
	m.mu.Unlock()
}
