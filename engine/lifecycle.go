package engine

import (
	"errors"
	"fmt"
	"slices"

	"hoist/engine/fact"
)

// A job's life is this file's two tables: what the user may do to a job in
// each state (lifecycle), and what the engine itself does to it (steps).
// Every change of a job's state goes through one of them; the window and
// the command line show JobView.Actions, which come from the first.

// Action is something the user can do to a job. JobView.Actions lists those
// the job allows now; Queue.Do refuses the others with a *NotAllowedError.
type Action string

const (
	Pause   Action = "pause"   // stop the bytes, keep the session
	Resume  Action = "resume"  // go on from where the server stands
	SignIn  Action = "sign-in" // the account was signed in again (by the caller): go on
	Retry   Action = "retry"   // try a failed, canceled or refused file again
	Restart Action = "restart" // start over: the file as it is now, from byte 0, under a new session
	Cancel  Action = "cancel"  // stop for good and forget the session
	Remove  Action = "remove"  // take the job off the list (stopping it first)
)

// AllActions lists every action, in the order the window and the command
// line show them.
func AllActions() []Action {
	return []Action{Pause, Resume, SignIn, Retry, Restart, Cancel, Remove}
}

// AllStates lists every state a job can be in.
func AllStates() []State {
	return []State{Waiting, Checking, Uploading, Retrying, Paused, Attention, Done, Failed, Refused, Canceled}
}

// Facts are what, beside its state, decides what a job allows: why a job
// that needs the user stopped.
type Facts struct {
	FileChanged bool // the file changed since it was added: only Restart sends it
	Locked      bool // the keychain is locked: unlock it, then Resume
	NeedsSignIn bool // the account's sign-in expired or was withdrawn: SignIn
	// InDoubt: the destination may hold the file already, or holds a copy
	// that is not it: only Restart sends it again. With NeedsSignIn, a
	// permission to look for it is asked (SignIn); with CanAsk, the
	// destination can be asked again (Resume); else the user looks.
	InDoubt bool
	CanAsk  bool
}

// removed is where Remove takes a job: off the list.
const removed State = ""

// stop says why a job in Attention stopped; it is part of what the table reads.
type stop uint8

const (
	stopNone    stop = iota // not in Attention
	stopChanged             // the file changed
	stopLocked              // the keychain is locked
	stopSignIn              // the account must sign in again
	stopLook                // the destination may hold the file, and cannot be asked: the user looks
	stopAsk                 // the destination may hold the file, and can be asked again
	stopAllow               // the destination may hold the file; looking needs a permission
)

func (f Facts) stop(s State) stop {
	switch {
	case s != Attention:
		return stopNone
	case f.FileChanged:
		return stopChanged
	case f.Locked:
		return stopLocked
	case f.InDoubt && f.NeedsSignIn:
		return stopAllow
	case f.InDoubt && f.CanAsk:
		return stopAsk
	case f.InDoubt:
		return stopLook
	}
	return stopSignIn
}

type situation struct {
	state State
	stop  stop
}

// lifecycle is, for each state (and, for Attention, why it stopped), the
// actions allowed and the state each leads to. A job that holds an upload
// slot (checking, uploading, retrying) reaches its next state when its
// upload has stopped, within a second.
var lifecycle = map[situation]map[Action]State{
	{Waiting, stopNone}:   {Pause: Paused, Cancel: Canceled, Remove: removed},
	{Checking, stopNone}:  {Pause: Paused, Cancel: Canceled, Remove: removed},
	{Uploading, stopNone}: {Pause: Paused, Cancel: Canceled, Remove: removed},
	{Retrying, stopNone}:  {Pause: Paused, Cancel: Canceled, Remove: removed},
	{Paused, stopNone}:    {Resume: Waiting, Cancel: Canceled, Remove: removed},
	// Resuming a changed file would only stop again: it is sent as it is now or not at all.
	{Attention, stopChanged}: {Restart: Waiting, Cancel: Canceled, Remove: removed},
	{Attention, stopLocked}:  {Resume: Waiting, Cancel: Canceled, Remove: removed},
	{Attention, stopSignIn}:  {SignIn: Waiting, Cancel: Canceled, Remove: removed},
	// A file that may have arrived is never sent again on its own: Resume
	// and SignIn only ask the destination; Restart sends a new copy.
	{Attention, stopLook}:  {Restart: Waiting, Cancel: Canceled, Remove: removed},
	{Attention, stopAsk}:   {Resume: Waiting, Restart: Waiting, Cancel: Canceled, Remove: removed},
	{Attention, stopAllow}: {SignIn: Waiting, Restart: Waiting, Cancel: Canceled, Remove: removed},
	{Done, stopNone}:       {Remove: removed},
	{Failed, stopNone}:     {Retry: Waiting, Remove: removed},
	// Retry looks at a refused file again, by the same rules: it may have been mended.
	{Refused, stopNone}:  {Retry: Waiting, Remove: removed},
	{Canceled, stopNone}: {Retry: Waiting, Remove: removed},
}

// actionsBy holds each situation's actions in AllActions' order, made once.
var actionsBy = func() map[situation][]Action {
	out := make(map[situation][]Action, len(lifecycle))
	for sit, row := range lifecycle {
		var list []Action
		for _, a := range AllActions() {
			if _, ok := row[a]; ok {
				list = append(list, a)
			}
		}
		out[sit] = list[:len(list):len(list)]
	}
	return out
}()

// ActionsFor is what a job in state s with facts f allows, in AllActions'
// order. The slice is shared: do not change it.
func ActionsFor(s State, f Facts) []Action {
	return actionsBy[situation{s, f.stop(s)}]
}

// Allows reports whether v's job allows a.
func (v JobView) Allows(a Action) bool {
	return slices.Contains(v.Actions, a)
}

// NotAllowedError is Queue.Do's refusal of an action that the job's state
// does not allow. errors.Is(err, ErrNotNow) is true of it.
type NotAllowedError struct {
	Action Action
	State  State
	Facts  Facts
}

func (e *NotAllowedError) Error() string { return e.Fact().String() }

// Fact says it: the action and the state, as the words of the buttons and
// the states say them (package words).
func (e *NotAllowedError) Fact() fact.Fact {
	return fact.Fact{Code: fact.NotNow, Args: map[string]string{"action": string(e.Action), "state": string(e.State)}}
}

// Is makes errors.Is(err, ErrNotNow) true.
func (e *NotAllowedError) Is(target error) bool { return target == ErrNotNow }

// allowLocked is where the table leads jb with a, or why it does not;
// list.mu must be held.
func allowLocked(jb *job, a Action) (State, error) {
	f := jb.factsLocked()
	to, ok := lifecycle[situation{jb.state, f.stop(jb.state)}][a]
	if !ok {
		return "", &NotAllowedError{Action: a, State: jb.state, Facts: f}
	}
	return to, nil
}

// factsLocked are jb's facts; list.mu must be held.
func (jb *job) factsLocked() Facts {
	doubting := jb.state == Attention && !jb.changed && !jb.locked && jb.doubt != doubtNone
	return Facts{
		FileChanged: jb.state == Attention && jb.changed,
		Locked:      jb.state == Attention && !jb.changed && jb.locked,
		NeedsSignIn: jb.state == Attention && !jb.changed && !jb.locked && (!doubting || jb.doubt == doubtAccess),
		InDoubt:     doubting,
		CanAsk:      doubting && jb.doubt == doubtAsk,
	}
}

// step is something the engine itself does to a job.
type step string

const (
	stepAdd       step = "add"       // a new job joins the list
	stepRefuse    step = "refuse"    // the file breaks a rule of the destination
	stepStart     step = "start"     // an upload slot is free and there is no session
	stepCheck     step = "check"     // an upload slot is free and the server is asked about the session
	stepMoving    step = "moving"    // bytes flow again
	stepRestarted step = "restarted" // the server lost the session: from byte 0 again
	stepWait      step = "wait"      // a backoff before trying again
	stepLater     step = "later"     // a wait longer than this run waits: back to the list until its time
	stepDone      step = "done"      // the server holds the whole file
	stepFail      step = "fail"      // stopped with a reason; Retry may mend it
	stepNeedsUser step = "needs-you" // stopped; only the user can mend it
	stepClosing   step = "closing"   // Hoist is quitting: the session is kept
	stepReopen    step = "reopen"    // back from the journal, unfinished
	stepReopenGo  step = "reopen-go" // back from the journal, unfinished, and going on by itself
)

// newJob is the state of a job before it joins the list.
const newJob State = "new"

var (
	running   = []State{Checking, Uploading, Retrying}
	unsettled = []State{Waiting, Checking, Uploading, Retrying, Paused}
)

// steps is, for each step, the states it leaves from and the state it leads to.
var steps = map[step]struct {
	from []State
	to   State
}{
	stepAdd:       {[]State{newJob}, Waiting},
	stepRefuse:    {append([]State{newJob, Refused, Attention}, running...), Refused},
	stepStart:     {[]State{Waiting}, Uploading},
	stepCheck:     {[]State{Waiting}, Checking},
	stepMoving:    {[]State{Checking, Retrying}, Uploading},
	stepRestarted: {running, Uploading},
	stepWait:      {running, Retrying},
	stepLater:     {running, Waiting},
	stepDone:      {running, Done},
	stepFail:      {running, Failed},
	stepNeedsUser: {running, Attention},
	stepClosing:   {running, Paused},
	stepReopen:    {unsettled, Paused},
	stepReopenGo:  {unsettled, Waiting},
}

// strictSteps makes a step the table lacks panic; the tests set it.
var strictSteps = false

// errBadStep is logged when the engine takes a job along an edge the table
// lacks: a mistake in the engine, never the user's.
var errBadStep = errors.New("a job's state changed outside its table")

// ErrNotNow is returned when an action does not apply to a job in its state.
var ErrNotNow = errors.New("that cannot be done to this upload right now")

// moveLocked takes jb along the table's edge for s; list.mu must be held.
func (l *list) moveLocked(jb *job, s step) {
	e, ok := steps[s]
	from := jb.state
	if from == "" {
		from = newJob
	}
	if !ok || !slices.Contains(e.from, from) {
		if strictSteps {
			panic(fmt.Sprintf("%v: %s from %s", errBadStep, s, from))
		}
		l.log.Error("job state", "job", jb.id, "step", s, "from", from, "err", errBadStep)
	}
	l.setStateLocked(jb, e.to)
}

// setStateLocked is the one place that writes a job's state.
func (l *list) setStateLocked(jb *job, to State) {
	if to != Paused && jb.run != nil {
		jb.run.unconfirmed = 0 // said of a pause only
	}
	jb.state = to
	jb.wake.Store(to == Checking || to == Retrying)
	l.summary.valid = false
}
