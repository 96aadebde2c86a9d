package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
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
	}
	var clear, done bool
	if len(args) > 0 && args[0] == "clear" {
		clear = true
		args = args[1:]
		fs.BoolVar(&done, "done", false, "forget finished uploads (done, canceled, refused)")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 || (clear && !done) {
		fs.Usage()
		return exitUsage
	}
	j, err := openJournal(*journalPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist queue: %v\n", err)
		return exitFailed
	}
	defer j.Close()
	q, err := engine.Open(ctx, engine.Options{Journal: j, Logger: logger(stderr)})
	if err != nil {
		fmt.Fprintf(stderr, "hoist queue: %v\n", err)
		return exitFailed
	}
	defer q.Close(context.Background())

	if clear {
		before := len(q.Jobs())
		q.ClearFinished()
		n := before - len(q.Jobs())
		fmt.Fprintf(stdout, "Forgot %d finished %s.\n", n, pluralize(n, "upload", "uploads"))
		return exitOK
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
	fmt.Fprintln(tw, "FILE\tSIZE\tDESTINATION\tSTATE\tPROGRESS\tDETAILS")
	for _, v := range views {
		pct := "—"
		if v.Size > 0 {
			pct = fmt.Sprintf("%d%%", v.Committed*100/v.Size)
		} else if v.State == engine.Done {
			pct = "100%"
		}
		details := v.Reason
		if v.State == engine.Done && v.Result != nil {
			details = v.Result.Summary
		}
		if details == "" {
			details = v.Next
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", v.Name, media.FormatSize(v.Size), v.Destination, stateWords(v), pct, details)
	}
	tw.Flush()
	s := q.Summary()
	fmt.Fprintf(stdout, "%d of %d files done, %s of %s.\n", s.Done, s.Files, media.FormatSize(s.BytesDone), media.FormatSize(s.Bytes))
	return exitOK
}
