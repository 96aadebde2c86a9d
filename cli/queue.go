package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"hoist/engine"
	"hoist/engine/journal"
	"hoist/words"
)

// Queue runs `hoist queue` (list every upload) and `hoist queue clear --done`.
func Queue(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	fs := newFlags(l, "hoist queue", stderr, func() {
		fmt.Fprintln(stderr, usageLine(l, ""))
		printCommands(stderr, l, queueCommands)
		for _, a := range engine.AllActions() {
			fmt.Fprintf(stderr, "      %-9s %s\n", a, l.Say(queueActions[a].help, words.Args{"Login": cmdWords(l, "hoist login")}))
		}
	})
	asJSON := fs.Bool("json", false, l.Say("cli.flag.jsonQueue", nil))
	journalPath := fs.String("journal", "", l.Say("cli.flag.journal", nil))
	var clear, done bool
	var action engine.Action
	if len(args) > 0 && args[0] == "clear" {
		clear = true
		args = args[1:]
		fs.BoolVar(&done, "done", false, l.Say("cli.flag.done", nil))
	}
	if len(args) > 0 {
		if _, ok := queueActions[engine.Action(args[0])]; ok {
			action = engine.Action(args[0])
			args = args[1:]
		}
	}
	if status := parseFlags(fs, l, stderr, interleave(args, fs)); status >= 0 {
		return status
	}
	named := action != ""
	if (fs.NArg() > 0 && !named) || (named && fs.NArg() == 0) || (clear && !done) {
		if fs.NArg() > 0 && !named {
			complain(stderr, l, "hoist queue", "cli.unexpected", words.Args{"Value": quoted(l, fs.Arg(0))})
			fmt.Fprintln(stderr)
		}
		fs.Usage()
		return exitUsage
	}
	var j *journal.Journal
	var err error
	if !clear && !named {
		// Only read: beside a running hoist send too.
		j, err = viewJournal(*journalPath, l, stderr)
	} else {
		j, err = openJournal(*journalPath, l, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hoist queue: %v\n", err)
		return exitFailed
	}
	defer j.Close()
	q, err := engine.Open(ctx, engine.Options{Journal: j, Logger: logger(stderr), Idle: true})
	if err != nil {
		fmt.Fprintf(stderr, "hoist queue: %v\n", err)
		return exitFailed
	}
	defer q.Close(context.Background())
	for _, n := range q.Notices() {
		fmt.Fprintln(stderr, visible(l.Fact(n)))
	}

	// unsaved is the sentence of a change the list could not keep.
	unsaved := func(err error) error { return errors.New(visible(l.Fact(engine.SaveFact(err)))) }
	if clear {
		return clearFinished(q, unsaved, l, stdout, stderr)
	}
	if named {
		do := func(id engine.JobID) error {
			if err := q.Do(id, action); err != nil {
				return err
			}
			if err := q.Flush(); err != nil {
				return unsaved(err)
			}
			return nil
		}
		return eachNamed(q, fs.Args(), do, l, queueActions[action].done, stdout, stderr)
	}
	return listQueue(q, *asJSON, l, stdout)
}

// clearFinished forgets the uploads that finished, saying how many.
func clearFinished(q *engine.Queue, unsaved func(error) error, l *words.Lang, stdout, stderr io.Writer) int {
	before := len(q.Jobs())
	q.ClearFinished()
	n := before - len(q.Jobs())
	if err := q.Flush(); err != nil {
		fmt.Fprintf(stderr, "hoist queue: %v\n", unsaved(err))
		return exitFailed
	}
	say(stdout, l, "cli.queue.forgot", words.Args{"N": n})
	return exitOK
}

// listQueue prints every upload of the list, a line each, and the totals; or
// each as JSON.
func listQueue(q *engine.Queue, asJSON bool, l *words.Lang, stdout io.Writer) int {
	views := q.Jobs()
	if asJSON {
		show := newJSONDisplay(stdout)
		for _, v := range views {
			_ = show.enc.Encode(toJSON("job", v))
		}
		return exitOK
	}
	if len(views) == 0 {
		say(stdout, l, "cli.queue.empty", words.Args{"Send": cmdWords(l, "hoist send")})
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	say(tw, l, "cli.queue.head", nil)
	for _, v := range views {
		pct := "—"
		if v.Size > 0 {
			pct = percent(l, int(v.Committed*100/v.Size))
		} else if v.State == engine.Done {
			pct = percent(l, 100)
		}
		details := l.Join(reasonWords(l, v), saidWords(l, v))
		if v.State == engine.Done && v.Result != nil {
			details = resultWords(l, v.Result)
		}
		if details == "" {
			details = nextWords(l, v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name(l, emailName(l, v)), l.Size(v.Size), destName(l, v), stateWords(l, v), pct, l.Isolate(strings.Join(actionNames(v), ",")), visible(details))
	}
	tw.Flush()
	s := q.Summary()
	say(stdout, l, "cli.queue.summary", words.Args{"Done": s.Done, "Files": l.Count(s.Files), "SizeDone": l.Size(s.BytesDone), "Size": l.Size(s.Bytes)})
	return exitOK
}

// queueCommands are the forms of `hoist queue`, with what each does.
var queueCommands = []command{
	{"hoist queue [--json]", "cli.help.queue"},
	{"hoist queue clear --done", "cli.help.clear"},
	{"hoist queue ACTION FILE...", "cli.help.action"},
}

// queueActions are the keys of the words of "hoist queue ACTION": what
// each does, and what is said when it is done (of File and Cmd).
var queueActions = map[engine.Action]struct{ help, done string }{
	engine.Pause:   {"cli.queue.pause", "cli.queue.paused"},
	engine.Resume:  {"cli.queue.resume", "cli.queue.resumed"},
	engine.SignIn:  {"cli.queue.signIn", "cli.queue.signedIn"},
	engine.Retry:   {"cli.queue.retry", "cli.queue.retried"},
	engine.Restart: {"cli.help.restart", "cli.queue.restarted"},
	engine.Cancel:  {"cli.queue.cancel", "cli.queue.canceled"},
	engine.Remove:  {"cli.help.remove", "cli.queue.removed"},
}

// eachNamed applies act to the named uploads (by file name, path or id) and
// says the sentence with the key done (of File and Cmd) for each.
func eachNamed(q *engine.Queue, names []string, act func(engine.JobID) error, l *words.Lang, done string, stdout, stderr io.Writer) int {
	code := exitOK
	for _, n := range names {
		found := false
		for _, v := range q.Jobs() {
			if v.Name != n && v.Path != n && string(v.ID) != n && !samePath(v.Path, n) {
				continue
			}
			found = true
			if err := act(v.ID); err != nil {
				fmt.Fprintf(stderr, "%s: %s\n", visible(emailName(l, v)), visible(errWords(l, err)))
				code = exitFailed
				continue
			}
			say(stdout, l, done, words.Args{"File": name(l, emailName(l, v)), "Cmd": cmdWords(l, "hoist send --resume")})
		}
		if !found {
			say(stderr, l, "cli.queue.notListed", words.Args{"File": visible(l.Isolate(n))})
			code = exitFailed
		}
	}
	return code
}

func samePath(a, b string) bool {
	abs, err := filepath.Abs(b)
	return err == nil && abs == a
}

// viewJournal opens the upload list to read it: the list itself, or, while
// another Hoist holds it, a copy of it as it is now.
func viewJournal(path string, l *words.Lang, stderr io.Writer) (*journal.Journal, error) {
	if path == "" {
		path = journal.DefaultPath()
	}
	j, err := openJournal(path, l, stderr)
	if err == nil {
		return j, nil
	}
	if view, verr := journal.OpenView(path); verr == nil {
		return view, nil
	}
	return nil, err
}
