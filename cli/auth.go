package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hoist/dirs"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"hoist/auth"
	"hoist/engine/fact"
	"hoist/words"
)

// NewAuthService is the sign-in service of the command line: the imported
// client and the account list in Hoist's config folder, grants in the
// keychain, warnings (scrubbed of secrets) on stderr.
func NewAuthService(stderr io.Writer) *auth.Service {
	return &auth.Service{Logger: logger(stderr), SystemDir: dirs.System(), HTTPClient: signInClient(stderr)}
}

// sharedAuth is the one service behind every upload of this process, so
// that concurrent uploads of an account share one token and one refresh.
var sharedAuth = sync.OnceValue(func() *auth.Service { return NewAuthService(os.Stderr) })

// authFlags are the flags the sign-in commands share.
type authFlags struct {
	endpoint string // hidden: base URL of a local OAuth server (tests)
}

func newAuthFlagSet(l *words.Lang, name, form, about string, stderr io.Writer, o *authFlags) *flag.FlagSet {
	fs := newFlags(l, name, stderr, func() {
		fmt.Fprintf(stderr, "%s\n%s\n", usageLine(l, form), l.Say(about, nil))
	})
	fs.StringVar(&o.endpoint, "endpoint", "", "base URL of a local OAuth server, instead of Google's") // hidden
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
func parseAuthFlags(fs *flag.FlagSet, l *words.Lang, stderr io.Writer, args []string) (rest []string, status int) {
	if status := parseFlags(fs, l, stderr, args); status >= 0 {
		return nil, status
	}
	return fs.Args(), -1
}

// Login runs "hoist login [--client-secret FILE] [flags]": it imports the
// OAuth client if given, then signs a Google account in through the browser.
func Login(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	var o authFlags
	fs := newAuthFlagSet(l, "hoist login", "hoist login [--client-secret FILE] [flags]", "cli.login.about", stderr, &o)
	clientFile := fs.String("client-secret", "", l.Say("cli.flag.clientSecret", words.Args{"File": l.Isolate("client_secret….json")}))
	scopeList := fs.String("scopes", "", l.Say("cli.flag.scopes", words.Args{"Example": l.Isolate("gmail.insert,dfatrafficking")}))
	account := fs.String("account", "", l.Say("cli.flag.accountAgain", nil))
	inFile := fs.Bool("store-in-file", false, l.Say("cli.flag.storeInFile", nil))
	noBrowser := fs.Bool("no-browser", false, l.Say("cli.flag.noBrowser", nil))
	wait := fs.Duration("timeout", auth.DefaultConsentTimeout, l.Say("cli.flag.timeout", words.Args{"Example": l.Isolate("10m")}))
	rest, status := parseAuthFlags(fs, l, stderr, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 0 {
		complain(stderr, l, "hoist login", "cli.unexpected", words.Args{"Value": quoted(l, rest[0])})
		fs.Usage()
		return exitUsage
	}
	if *wait <= 0 {
		complain(stderr, l, "hoist login", "cli.login.timeout", words.Args{"Flag": "--timeout", "Example": "5m"})
		return exitUsage
	}

	svc := o.service(stderr)
	if *clientFile != "" {
		if err := svc.ImportClientSecret(*clientFile); err != nil {
			return authFailed(stderr, l, "login", err)
		}
		say(stdout, l, "cli.login.imported", words.Args{"File": name(l, *clientFile)})
	}
	if !svc.HasClient() {
		for _, p := range svc.ClientProblems() {
			fmt.Fprintf(stderr, "hoist login: %s\n", p)
		}
		fmt.Fprintf(stderr, "hoist login: %s\n", l.Fact(fact.Fact{Code: fact.NoClient}))
		say(stderr, l, "cli.run", words.Args{"Cmd": cmdWords(l, "hoist login --client-secret FILE")})
		return exitFailed
	}
	if *inFile {
		file, err := svc.FileStore()
		if err != nil {
			return authFailed(stderr, l, "login", err)
		}
		svc.Store, svc.AllowFileStore = file, true
	}
	svc.ConsentTimeout = *wait
	svc.ShowURL = func(u string) {
		fmt.Fprintf(stdout, "%s\n\n    %s\n\n", l.Say("cli.login.open", nil), u)
	}
	svc.OpenBrowser = func(u string) error {
		if *noBrowser {
			return errors.New("not wanted")
		}
		say(stdout, l, "cli.login.opening", nil)
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
		fmt.Fprintf(stderr, "hoist login: %s\n", keychainWords(l, err))
		say(stderr, l, "cli.login.inFile", words.Args{"Cmd": cmdWords(l, "hoist login --store-in-file")})
		return exitFailed
	}
	if err != nil {
		return authFailed(stderr, l, "login", err)
	}
	say(stdout, l, "cli.login.signedIn", words.Args{"Account": l.Isolate(acct.Email), "Scopes": l.Isolate(strings.Join(scopeNames(acct.Scopes), ", "))})
	if acct.LessSafe {
		say(stdout, l, "cli.login.lessSafe", nil)
	}
	return exitOK
}

// Logout runs "hoist logout [ACCOUNT]": it forgets the account's sign-in
// and asks Google to withdraw it.
func Logout(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	var o authFlags
	fs := newAuthFlagSet(l, "hoist logout", "hoist logout [ACCOUNT]", "cli.logout.about", stderr, &o)
	rest, status := parseAuthFlags(fs, l, stderr, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 1 {
		complain(stderr, l, "hoist logout", "cli.logout.one", nil)
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
			return authFailed(stderr, l, "logout", err)
		}
		switch len(list) {
		case 0:
			complain(stderr, l, "hoist logout", "cli.logout.none", nil)
			return exitFailed
		case 1:
			account = list[0].Email
		default:
			complain(stderr, l, "hoist logout", "cli.logout.several", words.Args{
				"Accounts": l.Isolate(strings.Join(auth.Emails(list), ", ")), "Cmd": cmdWords(l, "hoist logout ACCOUNT")})
			return exitUsage
		}
	}
	err := svc.Logout(ctx, account)
	if err != nil && !errors.Is(err, auth.ErrNotRevoked) {
		return authFailed(stderr, l, "logout", err)
	}
	say(stdout, l, "cli.logout.done", words.Args{"Account": name(l, account)})
	if err != nil {
		fmt.Fprintf(stderr, "hoist logout: %s\n", auth.Redact(err.Error()))
	}
	return exitOK
}

// Accounts runs "hoist accounts": the signed-in accounts, their access and
// where each sign-in is kept.
func Accounts(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	var o authFlags
	fs := newAuthFlagSet(l, "hoist accounts", "hoist accounts", "cli.accounts.about", stderr, &o)
	rest, status := parseAuthFlags(fs, l, stderr, args)
	if status >= 0 {
		return status
	}
	if len(rest) > 0 {
		complain(stderr, l, "hoist accounts", "cli.unexpected", words.Args{"Value": quoted(l, rest[0])})
		fs.Usage()
		return exitUsage
	}
	list, err := o.service(stderr).Accounts(ctx)
	if err != nil {
		return authFailed(stderr, l, "accounts", err)
	}
	if len(list) == 0 {
		say(stdout, l, "cli.accounts.none", words.Args{"Cmd": cmdWords(l, "hoist login")})
		return exitOK
	}
	for _, a := range list {
		where := l.Say("cli.accounts.keychain", nil)
		if a.LessSafe {
			where = l.Say("cli.accounts.file", nil)
		}
		fmt.Fprintf(stdout, "%s \u2014 %s\n    %s\n", l.Isolate(a.Email), where,
			l.Say("cli.accounts.scopes", words.Args{"Scopes": l.Isolate(strings.Join(scopeNames(a.Scopes), ", "))}))
	}
	return exitOK
}

// keychainWords says that the keychain is missing or locked, in the
// user's language.
func keychainWords(l *words.Lang, err error) string {
	if f, ok := auth.Fact(err); ok {
		return l.Fact(f)
	}
	if errors.Is(err, auth.ErrKeychainLocked) {
		return l.Fact(fact.Fact{Code: fact.KeychainLocked})
	}
	return l.Fact(fact.Fact{Code: fact.NoKeychain})
}

// authFailed prints err as a plain sentence in the user's language, or,
// for an error that is not the sign-in's own, its words scrubbed of secrets.
func authFailed(stderr io.Writer, l *words.Lang, cmd string, err error) int {
	text := auth.Redact(err.Error())
	if f, ok := auth.Fact(err); ok {
		text = l.Fact(f)
	}
	fmt.Fprintf(stderr, "hoist %s: %s\n", cmd, text)
	return exitFailed
}

// scopeNames are the short names of scopes, sorted, for people to read.
func scopeNames(scopes []string) []string {
	return slices.Sorted(slices.Values(auth.ScopeNames(scopes)))
}
