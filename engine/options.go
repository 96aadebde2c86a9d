package engine

import (
	"context"
	"hoist/engine/dest"
	"log/slog"
	"net/http"
	"time"

	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
)

// Options configure a Queue. Zero values mean sensible defaults.
type Options struct {
	// Journal keeps jobs across quit, crash and restart; nil keeps them in memory only.
	Journal *journal.Journal
	// Accounts give the HTTP client (carrying the account's authorization)
	// for a destination that needs sign-in, and say what its failures mean.
	// Destinations that need none get a plain client.
	Accounts Accounts
	// SandboxURL is the base URL of the built-in sandbox, for sandbox destinations
	// that name none.
	SandboxURL string

	Method          upload.Method // the upload type new jobs use; "" or Auto chooses by size
	Parallel        int           // uploads at once; default 4
	ChunkSize       int64         // bytes per request of a resumable upload; 0 = whole file; upload.ChunkAuto = sized by the link
	Threshold       int64         // files under this go in one request; default 5 MiB
	BandwidthLimit  int64         // bytes per second across all uploads; 0 = no limit
	AutoResume      bool          // unfinished jobs from the journal start again by themselves
	Idle            bool          // never start an upload: for listing and editing the list
	SessionLifetime time.Duration // older sessions are not resumed; default 7 days
	HistoryFor      time.Duration // finished jobs older than this are forgotten at open; 0 = kept
	StallTimeout    time.Duration // a request making no progress this long is retried; default 60 s
	// MaxWait bounds the time each job waits before trying again, in all,
	// in this run (the command line's --max-wait); 0 = no bound. A job the
	// server asks to wait longer goes back to the list "waiting until" the
	// time it may try again (JobView.RetryAt, JobView.Later), for a later
	// run or the window to carry on then.
	MaxWait time.Duration
	// LeanResults leaves the server's whole answer (Result.Raw) of a job
	// finished in an earlier run in the journal, not in memory, and of an
	// upload an earlier run finished whole all but what the list needs at
	// a glance (see shelved): for the window, which never shows the
	// answers, with a long list of finished uploads.
	LeanResults bool
	// MailboxEmails is the most emails one mailbox file adds to the list
	// (the rest are said, not added); 0 = MaxMailboxEmails.
	MailboxEmails int

	Clock   upload.Clock   // nil = real time
	Backoff upload.Backoff // nil = the protocol's exponential backoff
	Logger  *slog.Logger   // nil = discard
	OnEvent func(Event)    // batch finished, a job needs the user; called without locks held

	// Transport underlies the plain client of destinations that need no sign-in.
	Transport http.RoundTripper
}

// EventKind says what an Event is about.
type EventKind int

const (
	BatchDone      EventKind = iota // nothing is waiting or uploading any more
	NeedsAttention                  // a job stopped and needs the user
	SaveFailed                      // the list of uploads could not be written to disk
)

// Event is something worth telling the user outside the window (a notification).
type Event struct {
	Kind EventKind
	Job  JobID // for NeedsAttention
	// Fact says what happened, in no language: the window words it.
	Fact *fact.Fact
}

// markClients gives d's clients for noting where it stands before an
// upload: with scopes the sign-in already allows, never asking for more.
func (o *Options) markClients(d dest.Destination) dest.Clients {
	return func(ctx context.Context, scopes []string) (*http.Client, error) {
		if !d.NeedsAuth() || o.Accounts == nil {
			return named(&http.Client{Transport: o.Transport}), nil
		}
		c, err := o.Accounts.Client(ctx, d.Account, scopes)
		if err != nil {
			return nil, err
		}
		return named(c), nil
	}
}

// client is the HTTP client for d: the account's for Google, a plain one otherwise.
func (o *Options) client(ctx context.Context, d dest.Destination) (*http.Client, error) {
	if d.NeedsAuth() && o.Accounts != nil {
		c, err := o.Accounts.Client(ctx, d.Account, d.Scopes())
		if err != nil {
			return nil, err
		}
		return named(c), nil
	}
	return named(&http.Client{Transport: o.Transport}), nil
}
