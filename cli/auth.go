package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"hoist/auth"
)

// NewAuthService is the sign-in service of the command line: the imported
// client and the account list in Hoist's config folder, grants in the
// keychain, warnings (scrubbed of secrets) on stderr.
func NewAuthService(stderr io.Writer) *auth.Service {
	return &auth.Service{Logger: logger(stderr)}
}

// sharedAuth is the one service behind every upload of this process, so
// that concurrent uploads of an account share one token and one refresh.
var sharedAuth = sync.OnceValue(func() *auth.Service { return NewAuthService(os.Stderr) })

// accounts hand the queue the sign-in of this process's service.
type accounts struct{ *auth.Service }

// Client gives an HTTP client signed in as account, or as the only account
// signed in when account is "".
func (a accounts) Client(ctx context.Context, account string, scopes []string) (*http.Client, error) {
	svc := a.Service
	if account == "" {
		list, err := svc.Accounts(ctx)
		if err != nil {
			return nil, err
		}
		switch len(list) {
		case 0:
			return nil, errors.New("No Google account is signed in. Run \"hoist login\" first.")
		case 1:
			account = list[0].Email
		default:
			return nil, fmt.Errorf("Several Google accounts are signed in (%s). Choose one with --account.", strings.Join(emails(list), ", "))
		}
	}
	return svc.Client(ctx, account, scopes)
}

// authFlags are the flags the sign-in commands share.
type authFlags struct {
	endpoint string // hidden: base URL of a local OAuth server (tests)
}

// hiddenFlags are left out of the help text.
var hiddenFlags = map[string]bool{"endpoint": true}

func newAuthFlagSet(name, usageLine, about string, stderr io.Writer, o *authFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.endpoint, "endpoint", "", "base URL of a local OAuth server, instead of Google's")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n%s\n", usageLine, about)
		fs.VisitAll(func(f *flag.Flag) {
			if hiddenFlags[f.Name] {
				return
			}
			arg, help := flag.UnquoteUsage(f)
			fmt.Fprintf(stderr, "  --%s %s\n    \t%s\n", f.Name, arg, help)
		})
	}
	return fs
}

// service builds the auth service the flags describe.
func (o authFlags) service(stderr io.Writer) *auth.Service {
	svc := NewAuthService(stderr)
	if o.endpoint != "" {
		svc.Endpoints = auth.EndpointsAt(o.endpoint)
	}
	return svc
}

// parseAuthFlags parses args; status is -1 to go on, else the exit status.
func parseAuthFlags(fs *flag.FlagSet, args []string) (rest []string, status int) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitOK
		}
		return nil, exitUsage
	}
	return fs.Args(), -1
}

// Login runs "hoist login [--client-secret FILE] [flags]": it imports the
// OAuth client if given, then signs a Google account in through the browser.
func Login(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o authFlags
	fs := newAuthFlagSet("hoist login", "hoist login [--client-secret FILE] [flags]",
		"Signs in with Google in your browser. Hoist keeps the sign-in in the keychain.", stderr, &o)
	clientFile := fs.String("client-secret", "", "the client_secret….json of a \u201cDesktop app\u201d OAuth client, from Google Cloud Console")
	scopeList := fs.String("scopes", "", "extra access to ask for, comma-separated (e.g. gmail.insert,dfatrafficking); by default only your email address")
	account := fs.String("account", "", "the account to sign in as again, adding the new access to what it has")
	inFile := fs.Bool("store-in-file", false, "keep the sign-in in a file only you can read instead of the keychain (less safe)")
	noBrowser := fs.Bool("no-browser", false, "print the sign-in address instead of opening the browser")
	wait := fs.Duration("timeout", auth.DefaultConsentTimeout, "how long to wait for the sign-in in the browser, e.g. 10m")
	rest, status := parseAuthFlags(fs, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "hoist login: unexpected %q\n", rest[0])
		fs.Usage()
		return exitUsage
	}
	if *wait <= 0 {
		fmt.Fprintln(stderr, "hoist login: --timeout must be longer than zero, e.g. 5m")
		return exitUsage
	}

	svc := o.service(stderr)
	if *clientFile != "" {
		if err := svc.ImportClientSecret(*clientFile); err != nil {
			return authFailed(stderr, "login", err)
		}
		fmt.Fprintf(stdout, "Imported the Google client from %s.\n", *clientFile)
	}
	if !svc.HasClient() {
		fmt.Fprintf(stderr, "hoist login: %s\nRun: hoist login --client-secret FILE\n", auth.ErrNoClient)
		return exitFailed
	}
	if *inFile {
		file, err := svc.FileStore()
		if err != nil {
			return authFailed(stderr, "login", err)
		}
		svc.Store, svc.AllowFileStore = file, true
	}
	svc.ConsentTimeout = *wait
	svc.ShowURL = func(u string) {
		fmt.Fprintf(stdout, "Open this address in your browser to sign in with Google:\n\n    %s\n\n", u)
	}
	svc.OpenBrowser = func(u string) error {
		if *noBrowser {
			return errors.New("not wanted")
		}
		fmt.Fprintln(stdout, "Opening Google's sign-in page in your browser…")
		return auth.OpenSystemBrowser(u)
	}

	var scopes []string
	for _, s := range strings.Split(*scopeList, ",") {
		if s = auth.ParseScope(s); s != "" {
			scopes = append(scopes, s)
		}
	}
	var opts []auth.LoginOption
	if *account != "" {
		opts = append(opts, auth.ForAccount(*account))
	}
	acct, err := svc.Login(ctx, scopes, opts...)
	if errors.Is(err, auth.ErrNoKeychain) || errors.Is(err, auth.ErrKeychainLocked) {
		fmt.Fprintf(stderr, "hoist login: %s\nTo keep the sign-in in a file only you can read instead (less safe), run: hoist login --store-in-file\n", err)
		return exitFailed
	}
	if err != nil {
		return authFailed(stderr, "login", err)
	}
	fmt.Fprintf(stdout, "Signed in as %s (%s).\n", acct.Email, strings.Join(scopeNames(acct.Scopes), ", "))
	if acct.LessSafe {
		fmt.Fprintln(stdout, "The sign-in is stored in a file only you can read (less safe than the keychain).")
	}
	return exitOK
}

// Logout runs "hoist logout [ACCOUNT]": it forgets the account's sign-in
// and asks Google to withdraw it.
func Logout(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o authFlags
	fs := newAuthFlagSet("hoist logout", "hoist logout [ACCOUNT]",
		"Signs a Google account out of Hoist and withdraws Hoist's access to it.", stderr, &o)
	rest, status := parseAuthFlags(fs, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 1 {
		fmt.Fprintln(stderr, "hoist logout: name one account at a time.")
		fs.Usage()
		return exitUsage
	}
	svc := o.service(stderr)
	var account string
	if len(rest) == 1 {
		account = rest[0]
	} else {
		list, err := svc.Accounts(ctx)
		if err != nil {
			return authFailed(stderr, "logout", err)
		}
		switch len(list) {
		case 0:
			fmt.Fprintln(stderr, "hoist logout: No Google account is signed in.")
			return exitFailed
		case 1:
			account = list[0].Email
		default:
			fmt.Fprintf(stderr, "hoist logout: Several Google accounts are signed in (%s). Say which one: hoist logout ACCOUNT\n",
				strings.Join(emails(list), ", "))
			return exitUsage
		}
	}
	err := svc.Logout(ctx, account)
	if err != nil && !errors.Is(err, auth.ErrNotRevoked) {
		return authFailed(stderr, "logout", err)
	}
	fmt.Fprintf(stdout, "Signed out %s.\n", account)
	if err != nil {
		fmt.Fprintf(stderr, "hoist logout: %s\n", auth.Redact(err.Error()))
	}
	return exitOK
}

// Accounts runs "hoist accounts": the signed-in accounts, their access and
// where each sign-in is kept.
func Accounts(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o authFlags
	fs := newAuthFlagSet("hoist accounts", "hoist accounts", "Lists the Google accounts signed in to Hoist.", stderr, &o)
	rest, status := parseAuthFlags(fs, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "hoist accounts: unexpected %q\n", rest[0])
		fs.Usage()
		return exitUsage
	}
	list, err := o.service(stderr).Accounts(ctx)
	if err != nil {
		return authFailed(stderr, "accounts", err)
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No Google account is signed in. Run \"hoist login\" to sign in.")
		return exitOK
	}
	for _, a := range list {
		where := "stored in the keychain"
		if a.LessSafe {
			where = "stored in a file (less safe)"
		}
		fmt.Fprintf(stdout, "%s \u2014 %s\n    scopes: %s\n", a.Email, where, strings.Join(scopeNames(a.Scopes), ", "))
	}
	return exitOK
}

// authFailed prints err as a plain sentence, scrubbed of secrets.
func authFailed(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "hoist %s: %s\n", cmd, auth.Redact(err.Error()))
	return exitFailed
}

// scopeNames are the short names of scopes, sorted, for people to read.
func scopeNames(scopes []string) []string {
	return slices.Sorted(slices.Values(auth.ScopeNames(scopes)))
}

func emails(list []auth.Account) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.Email
	}
	return out
}
