package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"hoist/engine"
	"hoist/engine/media"
)

// Queue runs `hoist queue` (list every upload) and `hoist queue clear --done`.
func Queue(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hoist queue", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "one JSON object per upload")
	journalPath := fs.String("journal", "", "the upload list file (default: in Hoist's config folder)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: hoist queue [--json]            list uploads with their state and progress")
		fmt.Fprintln(stderr, "       hoist queue clear --done        forget finished uploads")
		fmt.Fprintln(stderr, "       hoist queue ACTION FILE...      do ACTION to these uploads, where the list allows it:")
		for _, a := range engine.AllActions() {
			fmt.Fprintf(stderr, "         %-9s %s\n", a, queueActions[a].help)
		}
	}
	var clear, done bool
	var action engine.Action
	if len(args) > 0 && args[0] == "clear" {
		clear = true
		args = args[1:]
		fs.BoolVar(&done, "done", false, "forget finished uploads (done, canceled, refused)")
	}
	if len(args) > 0 {
		if _, ok := queueActions[engine.Action(args[0])]; ok {
			action = engine.Action(args[0])
			args = args[1:]
		}
	}
	if err := fs.Parse(interleave(args, fs)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	named := action != ""
	if (fs.NArg() > 0 && !named) || (named && fs.NArg() == 0) || (clear && !done) {
		fs.Usage()
		return exitUsage
	}
	j, err := openJournal(*journalPath, stderr)
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
		fmt.Fprintln(stderr, n)
	}

	if clear {
		before := len(q.Jobs())
		q.ClearFinished()
		n := before - len(q.Jobs())
		fmt.Fprintf(stdout, "Forgot %d finished %s.\n", n, pluralize(n, "upload", "uploads"))
		return exitOK
	}
	if named {
		do := func(id engine.JobID) error { return q.Do(id, action) }
		return eachNamed(q, fs.Args(), do, queueActions[action].done, stdout, stderr)
	}
	views := q.Jobs()
	if *asJSON {
		show := newJSONDisplay(stdout)
		for _, v := range views {
			_ = show.enc.Encode(toJSON("job", v))
		}
		return exitOK
	}
	if len(views) == 0 {
		fmt.Fprintln(stdout, "No uploads. Add some with \"hoist send\" or the window.")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tSIZE\tDESTINATION\tSTATE\tPROGRESS\tACTIONS\tDETAILS")
	for _, v := range views {
		pct := "—"
		if v.Size > 0 {
			pct = fmt.Sprintf("%d%%", v.Committed*100/v.Size)
		} else if v.State == engine.Done {
			pct = "100%"
		}
		details := v.Reason
		if w := v.Said(); w != "" {
			details += " " + w
		}
		if v.State == engine.Done && v.Result != nil {
			details = v.Result.Summary
		}
		if details == "" {
			details = nextWords(v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", visible(v.Name), media.FormatSize(v.Size), visible(v.Destination), stateWords(v), pct, strings.Join(actionNames(v), ","), visible(details))
	}
	tw.Flush()
	s := q.Summary()
	fmt.Fprintf(stdout, "%d of %d %s done, %s of %s.\n", s.Done, s.Files, pluralize(s.Files, "file", "files"), media.FormatSize(s.BytesDone), media.FormatSize(s.Bytes))
	return exitOK
}

// queueActions are the words of "hoist queue ACTION": what each does, and
// what is said when it is done (a format taking the file's name).
var queueActions = map[engine.Action]struct{ help, done string }{
	engine.Pause:   {"stop a waiting upload from starting", "%s is paused.\n"},
	engine.Resume:  {"let a paused upload go on", "%s will go on: run \"hoist send --resume\".\n"},
	engine.SignIn:  {"let an upload go on after \"hoist login\"", "%s will go on with the new sign-in: run \"hoist send --resume\".\n"},
	engine.Retry:   {"try a failed, canceled or refused upload again", "%s will be tried again: run \"hoist send --resume\".\n"},
	engine.Restart: {"upload these again from the start (a file that changed)", "%s will be uploaded again from the start: run \"hoist send --resume\".\n"},
	engine.Cancel:  {"stop these for good", "%s is canceled.\n"},
	engine.Remove:  {"take these off the list", "%s is off the list.\n"},
}

// eachNamed applies act to the named uploads (by file name, path or id) and
// says done, a format taking the file's name, for each.
func eachNamed(q *engine.Queue, names []string, act func(engine.JobID) error, done string, stdout, stderr io.Writer) int {
	code := exitOK
	for _, name := range names {
		found := false
		for _, v := range q.Jobs() {
			if v.Name != name && v.Path != name && string(v.ID) != name && !samePath(v.Path, name) {
				continue
			}
			found = true
			if err := act(v.ID); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", visible(v.Name), err)
				code = exitFailed
				continue
			}
			fmt.Fprintf(stdout, done, visible(v.Name))
		}
		if !found {
			fmt.Fprintf(stderr, "%s is not in the list of uploads.\n", visible(name))
			code = exitFailed
		}
	}
	return code
}

func samePath(a, b string) bool {
	abs, err := filepath.Abs(b)
	return err == nil && abs == a
}
