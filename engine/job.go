package engine

import (
	"encoding/json"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// JobID names one file's upload in the queue.
type JobID string

// State is where a job stands, as the user sees it.
type State string

const (
	Waiting   State = "waiting"   // queued, not started yet
	Checking  State = "checking"  // resuming: asking the server where the upload stands
	Uploading State = "uploading" // bytes are moving
	Retrying  State = "retrying"  // waiting before trying again (RetryAt says until when)
	Paused    State = "paused"    // stopped by the user or by quitting; resumable
	Attention State = "attention" // stopped, needs the user: file changed, sign in again
	Done      State = "done"      // the server has the whole file; Result is set
	Failed    State = "failed"    // stopped with a reason (JobView.Fact); can be retried
	Refused   State = "refused"   // never started: the file breaks a rule (JobView.Fact says which)
	Canceled  State = "canceled"  // stopped by the user for good
)

// look is how a state is presented, decided once here: the window and
// the command line choose only the colour and the layout from it.
type look struct {
	finished  bool // it will not move again without the user
	active    bool // it holds an upload slot or is about to
	needsUser bool // only the user moves it on: it "needs attention"
	progress  bool // how far it got means something: a bar, a percentage
	trouble   bool // it went wrong: said in the colour of errors, marked ✗
	held      bool // something holds it up for now: said in the colour of warnings
	dropped   bool // it will never be sent as it is: its bytes are not in the totals
}

// looks is the presentation table: one row per state.
var looks = map[State]look{
	Waiting:   {progress: true},
	Checking:  {active: true, progress: true},
	Uploading: {active: true, progress: true},
	Retrying:  {active: true, progress: true, held: true},
	Paused:    {progress: true},
	Attention: {needsUser: true, progress: true, held: true},
	Done:      {finished: true},
	Failed:    {finished: true, needsUser: true, progress: true, trouble: true},
	Refused:   {finished: true, needsUser: true, trouble: true, dropped: true},
	Canceled:  {finished: true, dropped: true},
}

// Finished reports whether the job will not move again without the user.
func (s State) Finished() bool { return looks[s].finished }

// Active reports whether the job holds an upload slot or is about to.
func (s State) Active() bool { return looks[s].active }

// Moving reports whether a job in state s is on its way: waiting for its
// turn or being sent.
func (s State) Moving() bool { return s == Waiting || s.Active() }

// NeedsUser reports whether only the user moves the job on: the window's
// and the command line's "needs attention".
func (s State) NeedsUser() bool { return looks[s].needsUser }

// ShowsProgress reports whether how far a job in state s got is worth a
// bar or a percentage (a finished one only when bytes were confirmed: see
// JobView.ShowsProgress).
func (s State) ShowsProgress() bool { return looks[s].progress }

// Trouble reports whether the job went wrong: said as an error (the error
// colour, ✗).
func (s State) Trouble() bool { return looks[s].trouble }

// Held reports whether something holds the job up for now (a wait to try
// again, a step only the user can take): said as a warning.
func (s State) Held() bool { return looks[s].held }

// Dropped reports whether the job will never be sent as it is (refused,
// canceled): its bytes are left out of the totals.
func (s State) Dropped() bool { return looks[s].dropped }

// ShowsProgress reports whether v's progress is worth a bar: its state's
// flag, and, for a finished job, bytes the server confirmed.
func (v JobView) ShowsProgress() bool {
	return v.State.ShowsProgress() && (!v.State.Finished() || v.Committed > 0)
}

// Email is what a row shows of an email file.
type Email struct {
	From    string
	Subject string
	Date    time.Time
}

// Result is what the server made of the file, in the destination's terms.
type Result struct {
	ID       string // Gmail message or draft id, CM360 asset id
	ThreadID string // Gmail
	Name     string // CM360 asset name
	URL      string // Play Games image URL, or a link to the object
	// fact is what the server made of the file, as the journal keeps it
	// (see Fact).
	fact json.RawMessage
	// Summary is the sentence an older Hoist kept of such an upload, shown
	// as it is; "" for every result with a fact.
	Summary string
	Raw     []byte // the server's JSON; an answer that was not JSON is kept as a JSON string of its start
	// Verified names the server's account of the object that matched the
	// file ("crc32c", "md5", "sha256" or "size"); "" when the server gave
	// none, so the upload could not be checked.
	Verified string

	stored bool // Raw was left in the journal (Options.LeanResults)
}

// Fact says what the server made of the file, in no language (package
// words makes the sentence); nil for an upload an older Hoist finished
// without keeping its answer. It is read at each call from the hundred
// bytes the result keeps of it: a decoded fact and the map of its
// arguments, held for every finished job of a long list, took five times
// that (about 5 MB for 10,000 jobs), for the few rows on screen.
func (r *Result) Fact() *fact.Fact { return factFrom(r.fact) }

// JobView is a copy of everything shown about a job, taken at one instant.
type JobView struct {
	ID    JobID
	Path  string
	Name  string
	Size  int64
	MIME  string
	Email *Email
	// InMailbox is, for one email of a mailbox file (Path, Name), its
	// place in the mailbox, from 1; 0 for a file sent whole. The emails of
	// one mailbox to one destination are shown together, under it.
	InMailbox   int
	Destination string // the destination's display name
	DestKind    string
	Server      dest.Server // who holds the uploads: Google, the sandbox or the server
	Account     string

	State       State
	FileChanged bool // stopped because the file changed since it was added: offer Restart
	Locked      bool // stopped because the keychain is locked: unlock it, then resume
	NeedsSignIn bool // stopped because the account must sign in again: sign in, then SignIn
	// InDoubt: stopped because the destination may hold the file already,
	// or holds a copy that is not it; Fact says which, and what to look
	// for. Restart sends a new copy; nothing else does.
	InDoubt bool
	Actions []Action // what the user may do to the job now, in AllActions' order (shared: do not change)
	Scopes  []string // when NeedsSignIn: the OAuth scopes the sign-in must grant
	// Fact is why the job stands where it is (Failed, Refused, Attention,
	// Paused by an error…) and NextFact what to do now, in no language:
	// package words makes the window's and the command line's sentences of
	// them. nil when there is nothing to say.
	Fact, NextFact *fact.Fact
	// Reason and Next are the sentences an older Hoist stored in its list
	// of uploads, shown as they are; "" for every job with a fact.
	Reason, Next string
	// Details are the server's own words behind the reason (Google's error
	// message), shown apart from it; "" when it said nothing.
	Details string
	// DetailsFrom names who said Details: Google, the sandbox or the server.
	DetailsFrom dest.Server
	// RetryAt is when a Retrying job tries again, or, for a Waiting one,
	// the time before which it does not start: the server asked it to wait.
	RetryAt time.Time
	// Later: Waiting until RetryAt, which is past what this run waits
	// (Options.MaxWait): a later run, or the window, carries it on then.
	Later bool

	Sent      int64 // bytes written to the wire, in the current attempt
	Committed int64 // bytes the server has confirmed
	// Delivered is how far the bytes have crossed the link, as far as can be
	// told: Sent, no further than Committed plus what the link carried since
	// at the speed measured; never less than Committed. A bar that follows
	// it moves while one large request is in flight.
	Delivered int64
	// Unconfirmed, for a job paused while it was sent, is how many bytes it
	// had sent beyond what the server confirmed: shown on their way before
	// the pause, not kept by the server, sent again on resume.
	Unconfirmed int64
	Speed       float64       // bytes per second, moving average
	ETA         time.Duration // time left; negative when unknown
	Restarts    int           // honest restarts from byte 0
	Method      upload.Method // the method in use or used
	FellBack    bool          // resumable was refused; multipart was used

	Result   *Result
	Created  time.Time
	Finished time.Time

	Version uint64 // changes whenever anything above changes
}

// Brief is a job at a glance: what a list of thousands of jobs needs of
// every one to order, count and select them and to tell which changed
// (Version), 72 bytes where a whole view is 456. Queue.Job gives the rest,
// for the few rows drawn.
type Brief struct {
	ID        JobID
	State     State
	Size      int64
	Committed int64
	Delivered int64
	Speed     float64
	Version   uint64
	// InMailbox is JobView.InMailbox: the emails of a mailbox file follow
	// one another in the list, from 1 up.
	InMailbox int32
}

// Brief is the view at a glance.
func (v JobView) Brief() Brief {
	return Brief{ID: v.ID, State: v.State, Size: v.Size, Committed: v.Committed, Delivered: v.Delivered, Speed: v.Speed, Version: v.Version, InMailbox: int32(v.InMailbox)}
}

// Summary is the whole queue at a glance.
type Summary struct {
	Files     int           // jobs in the queue, refused ones included
	Done      int           // finished with the server's answer
	Failed    int           // failed, refused or needing attention
	Active    int           // checking, uploading or retrying
	Paused    int           // paused
	Bytes     int64         // total bytes of jobs not refused or canceled
	BytesDone int64         // bytes confirmed by the server across those jobs
	Speed     float64       // bytes per second across active jobs
	ETA       time.Duration // time left for the rest; negative when unknown
	Version   uint64        // changes whenever any job changes
}
