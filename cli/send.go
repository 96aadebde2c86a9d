package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"hoist/auth"
	"hoist/dirs"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/proxy"
	"hoist/engine/upload"
	"hoist/words"
)

type sendOptions struct {
	to, method, metadata, chunk, account, baseURL, journalPath, caFile string
	parallel                                                           int
	maxWait                                                            time.Duration
	noAuth, json, resume, http2, again                                 bool
	params                                                             map[string]*string
}

// Send runs `hoist send`: uploads files or folders without a window.
func Send(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	o, paths, code := parseSend(args, l, stderr)
	if code >= 0 {
		return code
	}
	method, chunk, code := checkSend(o, paths, l, stderr)
	if code >= 0 {
		return code
	}
	r := &sendRun{o: o, l: l, stdout: stdout, stderr: stderr, ids: map[engine.JobID]bool{}}
	defer r.stopSandbox()
	var d dest.Destination
	if len(paths) > 0 {
		if d, code = r.destination(ctx); code >= 0 {
			return code
		}
	}
	j, err := openJournal(o.journalPath, l, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist send: %v\n", err)
		return exitFailed
	}
	defer j.Close()
	// A sandbox named with --base-url or its own address needs none started here.
	if r.sandbox == "" && (d.FindsSandbox() || (o.resume && anyUnfinishedForSandbox(j))) {
		if code := r.startSandbox(ctx); code >= 0 {
			return code
		}
	}
	q, code := r.open(ctx, j, chunk, method)
	if code >= 0 {
		return code
	}
	if o.resume {
		if done := r.resume(q, len(paths)); done {
			return exitOK
		}
	}
	paths, emptyFolders := withoutEmptyFolders(paths, l, stderr)
	if len(paths) == 0 && emptyFolders && !o.resume {
		return exitFailed
	}
	if len(paths) > 0 {
		r.add(q, paths, d)
	}
	return r.finish(ctx, q, emptyFolders)
}

// checkSend checks what the flags ask before anything starts: the upload
// method, the chunk size and the number of uploads at once. code is -1
// when all is well, else the exit status.
func checkSend(o sendOptions, paths []string, l *words.Lang, stderr io.Writer) (upload.Method, int64, int) {
	if len(paths) == 0 && !o.resume {
		complain(stderr, l, "hoist send", "cli.send.noPaths", words.Args{"Flag": "--resume"})
		return "", 0, exitUsage
	}
	method := upload.Method(o.method)
	switch method {
	case upload.Auto, upload.Media, upload.Multipart, upload.Resumable:
	default:
		complain(stderr, l, "hoist send", "cli.send.badMethod", words.Args{"Flag": "--method", "Choices": either(l, "auto", "media", "multipart", "resumable"), "Value": quoted(l, o.method)})
		return "", 0, exitUsage
	}
	chunk, ok := chunkSize(o.chunk, l, stderr)
	if !ok {
		return "", 0, exitUsage
	}
	if o.parallel < 1 {
		complain(stderr, l, "hoist send", "cli.send.parallel", words.Args{"Flag": "--parallel"})
		return "", 0, exitUsage
	}
	return method, chunk, -1
}

// sendRun is one `hoist send` from its destination to its last line: what
// it says where, the built-in sandbox it started, and the jobs it watches.
type sendRun struct {
	o              sendOptions
	l              *words.Lang
	stdout, stderr io.Writer
	sandbox        string // the built-in sandbox's address, once started or found
	stops          []func()
	ids            map[engine.JobID]bool
	alreadySent    int // files skipped as sent before, each said
}

func (r *sendRun) stopSandbox() {
	for _, stop := range r.stops {
		stop()
	}
}

// startSandbox finds the built-in sandbox, or starts one that ends with the
// run.
func (r *sendRun) startSandbox(ctx context.Context) int {
	url, stop, err := sandboxURL(ctx)
	if err != nil {
		complain(r.stderr, r.l, "hoist send", "cli.send.noSandbox", words.Args{"Error": err.Error()})
		return exitFailed
	}
	if stop != nil {
		r.stops = append(r.stops, stop)
	}
	r.sandbox = url
	return -1
}

// destination is where --to and its flags send the files, with names typed
// for ids resolved and the account settled.
func (r *sendRun) destination(ctx context.Context) (dest.Destination, int) {
	o, l, stderr := &r.o, r.l, r.stderr
	var d dest.Destination
	if o.to == "" {
		complain(stderr, l, "hoist send", "cli.send.noTo", words.Args{"Flag": "--to", "Kinds": dest.KindNames()})
		return d, exitUsage
	}
	if o.baseURL == "sandbox" {
		if code := r.startSandbox(ctx); code >= 0 {
			return d, code
		}
		o.baseURL = r.sandbox
	}
	d, err := destination(*o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist send: %s\n", visible(errWords(l, err)))
		return d, exitUsage
	}
	if note := l.KindNote(d.Kind); note != "" {
		// What the window shows where the kind is picked (Google removed the method…).
		fmt.Fprintf(stderr, "hoist send: %s\n", visible(note))
	}
	// The job keeps that it goes to the built-in sandbox, not only where
	// it listens now: another start may find it on another port.
	d.BuiltinSandbox = r.sandbox != ""
	if err := resolveNames(ctx, &d, o.noAuth); err != nil {
		fmt.Fprintf(stderr, "hoist send: %s\n", visible(errWords(l, err)))
		return d, exitFailed
	}
	if !o.noAuth && d.NeedsAuth() && d.Account == "" {
		// Asked here, once, rather than by every file as it starts.
		if list, err := sharedAuth().Accounts(ctx); err == nil && len(list) > 1 {
			complain(stderr, l, "hoist send", "cli.send.whichAccount", words.Args{
				"Accounts": l.Isolate(strings.Join(auth.Emails(list), ", ")), "Flag": l.Isolate("--account")})
			return d, exitUsage
		}
	}
	return d, -1
}

// open opens the queue over the list of uploads, through the office's proxy
// and with the certificates the user and the organisation trust.
func (r *sendRun) open(ctx context.Context, j *journal.Journal, chunk int64, method upload.Method) (*engine.Queue, int) {
	o, l, stderr := r.o, r.l, r.stderr
	tuned, err := engine.TrustingTransport(o.caFile, o.http2)
	if err != nil {
		fmt.Fprintf(stderr, "hoist send: --ca-file: %v\n", err)
		return nil, exitUsage
	}
	if err := engine.AlsoTrust(tuned, proxy.OrganisationCertificates(dirs.System())); err != nil {
		fmt.Fprintf(stderr, "hoist send: %v\n", err)
		return nil, exitFailed
	}
	// Uploads go through the office's proxy, as the system sets it.
	transport := office(ctx, l, stderr).Apply(tuned)
	q, err := engine.Open(ctx, engine.Options{
		Transport:  transport,
		Journal:    j,
		Accounts:   accountsFor(o.noAuth, transport),
		SandboxURL: r.sandbox,
		Parallel:   o.parallel,
		ChunkSize:  chunk,
		Method:     method,
		MaxWait:    o.maxWait,
		Logger:     logger(stderr),
	})
	if err != nil {
		fmt.Fprintf(stderr, "hoist send: %v\n", err)
		return nil, exitFailed
	}
	for _, n := range q.Notices() {
		fmt.Fprintln(stderr, visible(l.Fact(n))) // said once, e.g. uploads moved to a current API version
	}
	return q, -1
}

// resume goes on with the unfinished uploads of the list; done is true when
// there is nothing to do at all (said so).
func (r *sendRun) resume(q *engine.Queue, newPaths int) (done bool) {
	listed := q.Jobs()
	for _, v := range listed {
		if resumeJob(q, v) {
			r.ids[v.ID] = true
		}
	}
	if len(r.ids) > 0 || newPaths > 0 {
		return false
	}
	if len(listed) == 0 {
		say(r.stdout, r.l, "cli.send.empty", nil) // not "every upload has finished": none was listed
	} else {
		say(r.stdout, r.l, "cli.send.nothing", nil)
	}
	return true
}

// add queues the files, saying what was skipped and why.
func (r *sendRun) add(q *engine.Queue, paths []string, d dest.Destination) {
	l := r.l
	add := q.Add
	if r.o.again {
		add = q.AddAgain // the user wants a second copy of what went before
	}
	res := add(paths, d)
	for _, s := range res.Skipped {
		say(r.stderr, l, "cli.send.skipped", words.Args{"File": name(l, s.Path), "Why": skipWords(l, s)})
	}
	for _, p := range res.Problems {
		var dup *engine.AlreadyQueued
		if errors.As(p, &dup) && r.o.resume {
			r.ids[dup.Job] = true // being resumed already
			continue
		}
		if errors.As(p, new(*engine.AlreadySent)) {
			// Skipped, as the user would choose by default; said on the
			// terminal, not as a failure.
			r.alreadySent++
			tail := "cli.send.notAgain"
			if s := (*engine.AlreadySent)(nil); errors.As(p, &s) && s.Emails > 0 {
				tail = "cli.send.notAgainEmails" // of a mailbox that grew: its new emails go
			}
			fmt.Fprintln(r.stdout, visible(l.Join(problemWords(l, p), l.Say(tail, words.Args{"Flag": l.Isolate("--again")}))))
			continue
		}
		fmt.Fprintln(r.stderr, problemWords(l, p))
	}
	for _, id := range res.IDs {
		r.ids[id] = true
	}
}

// finish watches the jobs to their end, draws the last picture and says how
// the run ended, as its exit status.
func (r *sendRun) finish(ctx context.Context, q *engine.Queue, emptyFolders bool) int {
	l, stderr := r.l, r.stderr
	var show display
	if r.o.json {
		show = newJSONDisplay(r.stdout)
	} else {
		show = newHumanDisplay(r.stdout, l, isTerminal(r.stdout))
	}
	interrupted := watch(ctx, q, r.ids, show)

	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.Close(closeCtx); err != nil {
		fmt.Fprintf(stderr, "hoist send: %v\n", err)
	}
	views := pick(q.Jobs(), r.ids)
	if len(views) > 0 || r.alreadySent == 0 || r.o.json {
		show.final(views) // not "0 of 0 files uploaded" after saying why none went
	}
	if problem := q.SaveProblem(); problem != nil {
		fmt.Fprintln(stderr, visible(l.Fact(engine.SaveFact(problem))))
		return exitFailed
	}
	if interrupted {
		say(stderr, l, "cli.send.paused", words.Args{"Cmd": cmdWords(l, "hoist send --resume")})
		return exitFailed
	}
	for _, v := range views {
		if v.State != engine.Done {
			return exitFailed
		}
	}
	if emptyFolders {
		return exitFailed
	}
	return exitOK
}

// withoutEmptyFolders leaves out the folders that hold no file to send,
// saying so for each; the second result says whether there was one.
func withoutEmptyFolders(paths []string, l *words.Lang, stderr io.Writer) ([]string, bool) {
	out := paths[:0:0]
	found := false
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if files, _, problems := media.Expand([]string{p}); len(files) == 0 && len(problems) == 0 {
				complain(stderr, l, "hoist send", "cli.send.emptyFolder", words.Args{"File": name(l, p)})
				found = true
				continue
			}
		}
		out = append(out, p)
	}
	return out, found
}

func parseSend(args []string, l *words.Lang, stderr io.Writer) (sendOptions, []string, int) {
	fs := newFlags(l, "hoist send", stderr, func() {
		fmt.Fprintln(stderr, usageLine(l, "hoist send [flags] PATH..."))
		say(stderr, l, "cli.send.about", nil)
	})
	var o sendOptions
	fs.StringVar(&o.to, "to", "", l.Say("cli.flag.to", words.Args{"Kinds": l.Isolate(dest.KindNames())}))
	fs.StringVar(&o.method, "method", "auto", l.Say("cli.flag.method", words.Args{"Choices": either(l, "auto", "media", "multipart", "resumable")}))
	fs.StringVar(&o.metadata, "metadata", "", l.Say("cli.flag.metadata", words.Args{"File": l.Isolate("@FILE")}))
	fs.StringVar(&o.chunk, "chunk-size", "auto", l.Say("cli.flag.chunkSize", words.Args{"Auto": l.Isolate("auto"), "Small": l.Isolate("256KiB"), "Big": l.Isolate("8MiB")}))
	fs.IntVar(&o.parallel, "parallel", 4, l.Say("cli.flag.parallel", nil))
	fs.DurationVar(&o.maxWait, "max-wait", DefaultMaxWait, l.Say("cli.flag.maxWait", words.Args{"Example": l.Isolate("10m"), "Send": cmdWords(l, "hoist send")}))
	fs.BoolVar(&o.noAuth, "no-auth", false, l.Say("cli.flag.noAuth", words.Args{"Header": l.Isolate("Authorization")}))
	fs.BoolVar(&o.json, "json", false, l.Say("cli.flag.jsonSend", nil))
	fs.BoolVar(&o.resume, "resume", false, l.Say("cli.flag.resume", nil))
	fs.BoolVar(&o.again, "again", false, l.Say("cli.flag.again", nil))
	fs.StringVar(&o.account, "account", "", l.Say("cli.flag.account", nil))
	fs.StringVar(&o.baseURL, "base-url", "", l.Say("cli.flag.baseURL", words.Args{"Sandbox": cmdWords(l, `"sandbox"`)}))
	fs.StringVar(&o.caFile, "ca-file", os.Getenv(engine.CAFileEnv), l.Say("cli.flag.caFile", words.Args{"Env": l.Isolate("$" + engine.CAFileEnv)}))
	fs.BoolVar(&o.http2, "http2", false, l.Say("cli.flag.http2", nil))
	fs.StringVar(&o.journalPath, "journal", "", l.Say("cli.flag.journal", nil))
	o.params = map[string]*string{}
	for _, f := range dest.Flags() { // made from the kinds' fields
		o.params[f.Key] = fs.String(f.Name, "", l.FlagHelp(f))
	}
	if status := parseFlags(fs, l, stderr, interleave(args, fs)); status >= 0 {
		return o, nil, status
	}
	return o, fs.Args(), -1
}

// interleave lets flags follow the paths ("hoist send a.png --to sandbox").
func interleave(args []string, fs *flag.FlagSet) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(append(flags, "--"), rest...)
}

// chunkSize reads --chunk-size: "auto", 0 or a multiple of 256 KiB.
func chunkSize(s string, l *words.Lang, stderr io.Writer) (int64, bool) {
	if strings.EqualFold(strings.TrimSpace(s), "auto") {
		return upload.ChunkAuto, true
	}
	chunk, err := media.ParseSize(s)
	if err != nil || chunk < 0 {
		complain(stderr, l, "hoist send", "cli.send.badChunk", words.Args{"Flag": "--chunk-size", "Value": quoted(l, s), "Example": either(l, "auto", "256KiB", "8MiB")})
		return 0, false
	}
	if chunk > 0 && chunk%upload.ChunkAlign != 0 {
		complain(stderr, l, "hoist send", "cli.send.chunkAlign", words.Args{"Flag": "--chunk-size", "Size": "256KiB"})
		return 0, false
	}
	return chunk, true
}

// destination builds the destination the flags describe.
func destination(o sendOptions, stderr io.Writer) (dest.Destination, error) {
	params := map[string]string{}
	for k, v := range o.params {
		if *v != "" {
			params[k] = *v
		}
	}
	if o.metadata != "" {
		meta := o.metadata
		if strings.HasPrefix(meta, "@") {
			b, err := os.ReadFile(meta[1:])
			if err != nil {
				return dest.Destination{}, &sentence{"cli.metadataFile", words.Args{"Flag": "--metadata", "File": visible(meta[1:]), "Why": errors.Unwrap(err)}}
			}
			meta = string(b)
		}
		params["metadata"] = meta
	}
	var d dest.Destination
	var err error
	if strings.HasPrefix(o.to, "http://") || strings.HasPrefix(o.to, "https://") {
		params["url"] = o.to
		d, err = dest.FromUploadURL(params)
	} else {
		d, err = fromPresetOrKind(o.to, params, stderr)
	}
	if err != nil {
		return d, err
	}
	if o.account != "" {
		d.Account = o.account
	}
	if o.baseURL != "" {
		d.BaseURL = strings.TrimRight(o.baseURL, "/")
	}
	if err := d.Validate(); err != nil {
		return d, err
	}
	return d, nil
}

// fromPresetOrKind builds a destination of the kind named, else finds a
// saved destination by name, with the flags' settings on top. What the
// saved destinations have to say once (they moved to a current API
// version) goes to stderr.
func fromPresetOrKind(name string, params map[string]string, stderr io.Writer) (dest.Destination, error) {
	if dest.Kind(strings.ToLower(strings.TrimSpace(name))).Known() {
		return dest.FromFlags(name, params)
	}
	lib, err := openLibrary(lang(), io.Discard)
	if err != nil && !lib.IsManaged(name) {
		return dest.Destination{}, fmt.Errorf("the saved destinations could not be read, so %q cannot be found: %w", name, err)
	}
	if lib.Saved != nil {
		if n := lib.Saved.Notice(); n != nil {
			fmt.Fprintln(stderr, visible(lang().Fact(*n)))
		}
	}
	return lib.FromFlags(name, params)
}

// openJournal opens the upload list, saying once if a damaged one was set aside.
func openJournal(path string, l *words.Lang, stderr io.Writer) (*journal.Journal, error) {
	if path == "" {
		path = journal.DefaultPath()
	}
	j, err := journal.Open(path, journal.Options{})
	if errors.Is(err, journal.ErrInUse) {
		return nil, errors.New(l.Say("cli.inUse", words.Args{"Send": cmdWords(l, "hoist send")}))
	}
	if errors.Is(err, journal.ErrDiskFull) {
		return nil, errors.New(visible(l.Fact(engine.SaveFact(err))))
	}
	if err != nil {
		return nil, err
	}
	if backup, why := j.Recovered(); backup != "" {
		// The whole list may have been set aside, or only some damaged
		// uploads left out; the sentence names the backup.
		var recovered *journal.RecoveryError
		if errors.As(why, &recovered) {
			fmt.Fprintln(stderr, visible(l.Fact(engine.RecoveryFact(recovered))))
		} else {
			fmt.Fprintln(stderr, why)
		}
	}
	return j, nil
}

// resumeJob lets an upload from earlier go on, as the engine allows it, and
// says whether it is one of this run's: a paused or waiting one, one stopped
// for a sign-in ("hoist login" came first) or a locked keychain, and one
// that failed (its session, if kept, is asked first). A file that changed is
// only shown, with how to send it again: it waits for "hoist queue restart".
func resumeJob(q *engine.Queue, v engine.JobView) bool {
	switch {
	case v.State == engine.Waiting:
		return true
	case v.Allows(engine.Resume):
		// A paused upload goes on; one in doubt only asks its destination again.
		return q.Do(v.ID, engine.Resume) == nil
	case v.Allows(engine.SignIn):
		return q.Do(v.ID, engine.SignIn) == nil
	case v.Allows(engine.Restart):
		return true // the file changed, or may be there already: only shown
	case v.State == engine.Failed && v.NextFact != nil && (v.NextFact.Code == fact.ChangeAndSend || v.NextFact.Code == fact.TooLargeThere):
		return true // the same file would be refused the same way: only shown
	case v.State == engine.Failed:
		return q.Do(v.ID, engine.Retry) == nil
	}
	return false
}

// anyUnfinishedForSandbox reports whether --resume may have an upload for
// the built-in sandbox to continue: of the sandbox kind without an address
// of its own, or sent to the built-in sandbox (--base-url sandbox).
func anyUnfinishedForSandbox(j *journal.Journal) bool {
	recs, err := j.List()
	if err != nil {
		return false
	}
	for _, r := range recs {
		switch engine.State(r.State) {
		case engine.Done, engine.Refused, engine.Canceled:
			continue
		}
		// A sandbox upload pointed at a server of its own (--base-url) needs
		// no built-in sandbox, which would only take this user's port.
		var d dest.Destination
		if json.Unmarshal(r.Destination, &d) == nil && (d.BuiltinSandbox || d.FindsSandbox()) {
			return true
		}
	}
	return false
}

// accountsFor gives the queue its source of authorized HTTP clients, which
// send through base: uploads to Google go through the same tuned transport
// (HTTP/1.1, big writes, the certificates of --ca-file) as any other.
func accountsFor(noAuth bool, base http.RoundTripper) engine.Accounts {
	if noAuth {
		return nil
	}
	return auth.Uploads{Service: sharedAuth(), Base: base}
}

// watch shows progress until the jobs in ids stop moving or ctx is done. It
// draws at most every 200 ms: redrawing at every change of any job would
// cost more than the uploads of many small files.
func watch(ctx context.Context, q *engine.Queue, ids map[engine.JobID]bool, show display) (interrupted bool) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	idle := make(chan struct{})
	waitCtx, stopWait := context.WithCancel(ctx)
	defer stopWait()
	go func() {
		if q.Wait(waitCtx) == nil {
			close(idle)
		}
	}()
	for {
		views := pick(q.Jobs(), ids)
		show.update(views)
		// While the list cannot be written no upload starts: only those
		// under way are waited for.
		if !moving(views, q.SaveProblem() != nil) {
			return false
		}
		select {
		case <-ctx.Done():
			return true
		case <-tick.C:
		case <-idle:
		}
	}
}

// DefaultMaxWait is how long hoist send lets each file wait to try again,
// in all, before it leaves the file waiting in the list (--max-wait).
const DefaultMaxWait = 5 * time.Minute

// moving reports whether any job is still on its way in this run: a job
// left waiting for a later run (JobView.Later) is not.
func moving(views []engine.JobView, unsaved bool) bool {
	for _, v := range views {
		if v.State.Moving() && !v.Later && !(unsaved && v.State == engine.Waiting) {
			return true
		}
	}
	return false
}

func pick(all []engine.JobView, ids map[engine.JobID]bool) []engine.JobView {
	out := make([]engine.JobView, 0, len(ids))
	for _, v := range all {
		if ids[v.ID] {
			out = append(out, v)
		}
	}
	return out
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// skipWords says in a few words why a file inside a folder was left out.
func skipWords(l *words.Lang, s media.Skipped) string {
	return visible(l.Fact(s.Fact))
}

// problemWords says why a path did not become an upload: its fact (a
// file's problem, a file already in the list), in the user's language.
func problemWords(l *words.Lang, err error) string {
	return visible(errWords(l, err))
}
