// Package fact describes what happened to a file or a setting as a typed
// fact: a stable code and its parameters (the file, a size, a limit, a wait,
// Google's own message). It holds no words: package words turns a fact into
// a sentence in the user's language, the same way for the window and the
// command line. The engine and its packages report facts; the journal keeps
// them, and still reads the English sentences older versions stored.
package fact

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Code names a kind of fact. Codes are stable: the journal stores them, and
// every code has a sentence in each language (key "fact." + code).
type Code string

// Facts about a file on this computer.
const (
	FileMissing      Code = "file.missing"      // File: no longer there
	FileChanged      Code = "file.changed"      // File: changed since it was added
	FileNotAllowed   Code = "file.notAllowed"   // File: permissions forbid reading it
	FolderNotAllowed Code = "folder.notAllowed" // File: a folder that may not be opened
	FileUnreadable   Code = "file.unreadable"   // File, Google: the system's own reason
	FileLoop         Code = "file.loop"         // File: a link leading in a circle
	FileIsFolder     Code = "file.isFolder"     // File
	FileSpecial      Code = "file.special"      // File, Args["kind"]: pipe, socket, device, link
	AlreadyListed    Code = "file.listed"       // File, Dest: already in the list for that destination
)

// Facts about a file a destination refuses before any byte is sent.
const (
	Empty        Code = "refused.empty"    // File, Dest
	TooLarge     Code = "refused.tooLarge" // File, Dest, Size, Limit
	NeedsDetails Code = "refused.method"   // File, Dest: details go with the file, a simple upload carries it alone
)

// Facts about an upload that stopped, and why.
const (
	Canceled        Code = "upload.canceled"
	Stopped         Code = "upload.stopped"
	NoSandbox       Code = "upload.noSandbox"
	AnswerLost      Code = "upload.answerLost"     // Dest
	SessionExpired  Code = "upload.sessionExpired" // the session on the server expired
	ForeignHost     Code = "upload.foreignHost"    // the server sent the upload elsewhere
	Stalled         Code = "upload.stalled"
	BadResponse     Code = "upload.badResponse" // Dest
	InvalidSettings Code = "upload.invalid"
	ServerLimit     Code = "google.limit" // Dest
	SignInExpired   Code = "google.signInExpired"
	ServiceOff      Code = "google.serviceOff"    // Google
	Forbidden       Code = "google.forbidden"     // Dest, Args["advertiser"]
	NotFound        Code = "google.notFound"      // Dest, Args: user, draft, profile, advertiser, resource
	ServerTooLarge  Code = "google.tooLarge"      // Dest
	ServerTrouble   Code = "google.trouble"       // Dest, Status
	RefusedFile     Code = "google.refusedFile"   // Dest, Status, Google (quoted apart)
	RefusedUpload   Code = "google.refusedUpload" // Dest, Status, Google (quoted apart)
	Failed          Code = "upload.failed"        // Google: the error's own (redacted) words
	NoServer        Code = "net.noServer"         // the name did not resolve
	NotVerified     Code = "net.notVerified"      // the server's certificate
	NothingAnswered Code = "net.nothingAnswered"
	Unreachable     Code = "net.unreachable"
	TimedOut        Code = "net.timedOut"
	Dropped         Code = "net.dropped"
	KeychainLocked  Code = "auth.keychainLocked"
	NotSignedIn     Code = "auth.notSignedIn"
	SignInAgain     Code = "auth.signInAgain"
	MoreAccess      Code = "auth.moreAccess"   // Args["scopes"]
	WhichAccount    Code = "auth.whichAccount" // Args["accounts"], Args["flag"]: several signed in, none named
)

// Facts about the office's proxy (Args["proxy"]: its address or its PAC
// script's, Args["origin"]: where the setting was found, a proxy.Origin) and
// the organisation's certificates.
const (
	ProxyUnreachable Code = "net.proxyUnreachable" // proxy, origin: nothing answered at the proxy
	ProxySignIn      Code = "net.proxySignIn"      // proxy, origin: the proxy asks for a sign-in
	ProxyRefused     Code = "net.proxyRefused"     // proxy, origin: the proxy refused the sign-in given
	PACUnavailable   Code = "net.pacUnavailable"   // proxy, origin, Google: the PAC script could not be fetched or run; Hoist goes direct
	ProxyBadSetting  Code = "net.proxyBadSetting"  // proxy, origin: the setting cannot be read as a proxy's address
	OrgCertificate   Code = "net.orgCertificate"   // Args["issuer"]: who signed the certificate seen, which no trusted authority vouches for
)

// Facts about signing in to Google.
const (
	NoKeychain        Code = "auth.noKeychain"
	TooBig            Code = "auth.tooBig"
	NoClient          Code = "auth.noClient"
	NotDesktopClient  Code = "auth.notDesktopClient"
	NotClientFile     Code = "auth.notClientFile"
	BadClient         Code = "auth.badClient"
	AccessDenied      Code = "auth.accessDenied"
	SignInTimedOut    Code = "auth.timedOut"
	SignInCanceled    Code = "auth.canceled"
	NoRefreshToken    Code = "auth.noRefreshToken"
	NoIdentity        Code = "auth.noIdentity"
	GoogleUnreachable Code = "auth.googleUnreachable"
	NotRevoked        Code = "auth.notRevoked"
	AdminPolicy       Code = "auth.adminPolicy"
	OrgInternal       Code = "auth.orgInternal"
	InvalidScope      Code = "auth.invalidScope"
	ConsentFailed     Code = "auth.consentFailed" // Google: the OAuth error code
)

// More facts about a file, and about an upload that stopped.
const (
	FileUnknownSize    Code = "file.unknownSize"        // File: says 0 bytes but has content (/proc)
	FileNotEmail       Code = "file.notEmail"           // File: named like an email file, its first lines are not headers
	OutlookContact     Code = "file.outlookContact"     // File: an Outlook contact, not an email
	OutlookAppointment Code = "file.outlookAppointment" // File: an Outlook calendar item, not an email
	OutlookTask        Code = "file.outlookTask"        // File: an Outlook task, not an email
	OutlookNote        Code = "file.outlookNote"        // File: an Outlook note, not an email
	OutlookJournal     Code = "file.outlookJournal"     // File: an Outlook journal entry, not an email
	OutlookItem        Code = "file.outlookItem"        // File: another Outlook item that is not an email
	OutlookDamaged     Code = "file.outlookDamaged"     // File: named or made as an Outlook message, but its parts cannot be read
	OutlookTooLarge    Code = "file.outlookTooLarge"    // File: an Outlook message too large to be made into an email
	FileReadChanged    Code = "file.readChanged"        // File: changed while Hoist was reading it
	ChangedWhileSent   Code = "upload.changedWhileSent" // File
	Incomplete         Code = "upload.incomplete"       // Dest, Size: the file's, Received: what the server holds
	Mismatch           Code = "upload.mismatch"         // Dest, Args: check, server, file (the two values as written)
	Retired            Code = "google.retired"          // Dest, Google, Args: version (may be ""), current (the kind's)
	SignInToSend       Code = "auth.signInToSend"       // the job waits for its account's sign-in
	ResumeFrom         Code = "next.resumeFrom"         // Dest: a paused upload continues from where the server stands
	CheckServer        Code = "next.checkServer"        // Dest: see what the server holds, then send again
	NotNoted           Code = "next.notNoted"           // Google: why the list of uploads could not be written
	ListNotSaved       Code = "journal.notSaved"        // Google: why the list of uploads could not be saved
	ListDiskFull       Code = "journal.diskFull"        // File: the list's folder, on a disk with no room left
)

// Facts about a mailbox file (.mbox), whose emails are sent one by one.
const (
	MailboxNotMailbox Code = "mailbox.notMailbox" // File: named as a mailbox, it does not start as one
	MailboxEmpty      Code = "mailbox.empty"      // File: a mailbox with no email in it
	MailboxTooMany    Code = "mailbox.tooMany"    // File, Count: the most emails one mailbox may add
)

// Why a file inside a folder was left out (File), in a few words.
const (
	SkippedHiddenFile     Code = "skipped.hiddenFile"
	SkippedHiddenFolder   Code = "skipped.hiddenFolder"
	SkippedSystemFile     Code = "skipped.systemFile"
	SkippedSystemFolder   Code = "skipped.systemFolder"
	SkippedOfficeTemp     Code = "skipped.officeTemp"
	SkippedIncluded       Code = "skipped.included"
	SkippedFolderIncluded Code = "skipped.folderIncluded"
	SkippedSpecial        Code = "skipped.special" // Args["kind"], as fact.FileSpecial's
)

// Next steps, said after a reason.
const (
	PressResume     Code = "next.resume"
	PressRetry      Code = "next.retry"
	PressRetryAgain Code = "next.retryAgain"
	PutBack         Code = "next.putBack"
	StartOver       Code = "next.startOver"
	UnlockKeychain  Code = "next.unlock"
	SignInResume    Code = "next.signIn"
	RetryIn         Code = "next.retryIn" // Wait
	AskIn           Code = "next.askIn"   // Dest, Wait: the destination is asked again whether an upload arrived
	RestartExpired  Code = "next.restartExpired"
	RestartLost     Code = "next.restartLost" // Dest: the server no longer had the earlier part
)

// Facts about what a destination made of a finished upload. Args may hold
// id, title, url (as the server gave them; "name" is a custom
// destination's own), a choice setting's value by its key (said with the
// setting's words), warned (validation rules, comma-separated, as Google
// wrote them). A kind of destination declares its own results, and any
// other fact only it says, in its own file (engine/dest); their sentences
// are "fact." + code, like every other's.
const (
	Uploaded         Code = "result.uploaded"   // Dest
	AnswerUnreadable Code = "result.unreadable" // the upload went through; its answer could not be read
)

// Facts about the queue as a whole.
const (
	NotNow    Code = "action.notNow" // Args["action"], Args["state"]: the job's state does not allow the action
	Closing   Code = "queue.closing" // Hoist is closing: files were not added
	BatchDone Code = "batch.done"    // Count uploaded, Args["failed"] needing attention
)

// Facts said once when Hoist starts. File is where the old list of uploads
// is kept; Args["current"] the API version destinations moved to.
const (
	ListNewer      Code = "journal.newer"    // the list was written by a newer Hoist and set aside
	ListDamaged    Code = "journal.damaged"  // the list could not be read and was set aside
	ListRestored   Code = "journal.restored" // the list was damaged; its last good copy, Wait old, was put back
	ListDropped    Code = "journal.dropped"  // Count damaged uploads left out of the list
	ListMended     Code = "journal.mended"   // Count damaged uploads put back from the last good copy, Wait old; Args["dropped"] left out
	UpgradedSaved  Code = "upgraded.saved"   // Count saved destinations moved to a current API version
	UpgradedListed Code = "upgraded.listed"  // Count listed uploads moved to a current API version
)

// Facts about a list Google keeps of a setting's values (Args["list"]:
// its name, Dest: the destination's kind).
const (
	ListNeeds       Code = "list.needs"        // Field: the setting to choose first
	ListRefused     Code = "list.refused"      // Status, Google
	ListSignInAgain Code = "list.signInAgain"  // Status, Google: the sign-in is no longer valid
	ListForbidden   Code = "list.forbidden"    // Status, Google: the account may not see it
	ListUnreachable Code = "list.unreachable"  // Google: the system's reason
	ListUnreadable  Code = "list.unreadable"   // Google's answer could not be read
	UnknownNames    Code = "list.unknownNames" // Field, Count, Args["names"]: values neither ids nor names in it
)

// Facts about the destinations an organisation set up for everyone. File
// is their file; Count a destination's place in it, Args["name"] its name
// (when it has one), Google what is wrong in the file's own terms.
const (
	ManagedUnreadable      Code = "managed.unreadable"      // the file cannot be read; Google: why
	ManagedNotJSON         Code = "managed.notJSON"         // Google: where the JSON breaks
	ManagedNewer           Code = "managed.newer"           // Count: the file's format
	ManagedEntryUnreadable Code = "managed.entryUnreadable" // Count, Google
	ManagedInvalid         Code = "managed.invalid"         // Count, Args["name"]: its settings are wrong
	ManagedSameName        Code = "managed.sameName"        // Count, Args["name"]: another has its name
	ManagedReadOnly        Code = "managed.readOnly"        // Args["name"]: it cannot be changed or deleted here
)

// Facts about the user's saved destinations.
const (
	NoSettingsFolder Code = "presets.noFolder" // no folder for settings: nothing can be saved
	NoPreset         Code = "presets.none"     // Args["name"]: no saved destination has it
	PresetsDamaged   Code = "presets.damaged"  // File, Google: the file of saved destinations cannot be read as JSON
)

// Facts about a destination's file someone shared, refused on import.
const (
	SharedNotHoist   Code = "shared.notHoist"   // not a destination exported by Hoist
	SharedNewer      Code = "shared.newer"      // Count: the file's format, newer than this Hoist reads
	SharedUnreadable Code = "shared.unreadable" // Google: where the destination in it breaks
	SharedNoName     Code = "shared.noName"     // the destination in it has no name
	SharedIncomplete Code = "shared.incomplete" // its settings are wrong (the error's FieldErrors say which)
)

// Facts about a value typed into a destination's form (Field is its label).
const (
	Required      Code = "field.required"
	NotNumber     Code = "field.notNumber"
	NotBool       Code = "field.notBool"
	NotChoice     Code = "field.notChoice" // Args["choices"]
	NotSize       Code = "field.notSize"
	BadID         Code = "field.badID"
	BadVersion    Code = "field.badVersion"
	BadMediaTypes Code = "field.badMediaTypes" // Google: the value that is not one
	BadJSON       Code = "field.badJSON"       // Count: the character near the problem
	NotObject     Code = "field.notObject"
	ChooseKind    Code = "field.chooseKind"
	BadURL        Code = "field.badURL"
	GoogleHTTPS   Code = "field.googleHTTPS"
	ScopeNeeded   Code = "field.scopeNeeded"
	UnknownKind   Code = "field.unknownKind"  // Args["kind"]
	NotSetting    Code = "field.notSetting"   // Args["setting"]; Dest: the kind it is not a setting of
	NotAddress    Code = "field.notAddress"   // not a web address starting with https:// or http://
	NoHost        Code = "field.noHost"       // a web address without a server
	BadPort       Code = "field.badPort"      // Args["port"]
	HasQuery      Code = "field.hasQuery"     // something after ? or # where nothing may be
	GooglePath    Code = "field.googlePath"   // a Google upload URL without /upload/
	BadType       Code = "field.badType"      // Google: the type the metadata names
	TooLong       Code = "field.tooLong"      // Count: the most characters, without < or >
	TooLongBytes  Code = "field.tooLongBytes" // Count: the most bytes, without < or >
	NameMissing   Code = "field.nameMissing"  // a saved destination without a name
	NameTaken     Code = "field.nameTaken"    // Args["name"]: a built-in kind's name
	NameUsed      Code = "field.nameUsed"     // Args["name"]: another saved destination has it
	ManagedName   Code = "field.managedName"  // Args["name"]: a destination the organisation offers
	UnknownDest   Code = "field.unknownDest"  // Args["name"] (quoted), Args["kinds"]: neither a kind nor a saved destination
	NoDest        Code = "field.noDest"       // Args["example"], Args["kinds"]: no destination named at all
)

// Fact is one thing that happened, with what a sentence about it needs.
// Only the parameters its code uses are set.
type Fact struct {
	Code   Code          `json:"code"`
	File   string        `json:"file,omitempty"`   // the file's name (not its path)
	Field  string        `json:"field,omitempty"`  // a setting's key (of the kind Dest names), or "name", "baseURL"
	Dest   string        `json:"dest,omitempty"`   // the destination's kind, e.g. "cm360"
	Size   int64         `json:"size,omitempty"`   // bytes
	Limit  int64         `json:"limit,omitempty"`  // bytes
	Wait   time.Duration `json:"wait,omitempty"`   // before the next try
	Count  int           `json:"count,omitempty"`  // how many
	Status int           `json:"status,omitempty"` // the server's HTTP status
	// Received is how many bytes the server says it holds.
	Received int64 `json:"received,omitempty"`
	// Google is the server's or the system's own message, shown as it is
	// (never translated); it never holds a token or a session address.
	Google string `json:"google,omitempty"`
	// GaveUp says Hoist tried several times and stopped trying for now.
	GaveUp bool `json:"gave_up,omitempty"`
	// Args holds any other named value of the code (an advertiser's id…).
	Args map[string]string `json:"args,omitempty"`
}

// String is the fact for logs: its code and its parameters, in no
// language. The words catalogue (package words) says it to people.
func (f Fact) String() string {
	var b strings.Builder
	b.WriteString(string(f.Code))
	put := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, " %s=%q", k, v)
		}
	}
	put("file", f.File)
	put("field", f.Field)
	put("dest", f.Dest)
	for _, n := range []struct {
		k string
		v int64
	}{{"size", f.Size}, {"limit", f.Limit}, {"count", int64(f.Count)}, {"status", int64(f.Status)}, {"received", f.Received}} {
		if n.v != 0 {
			fmt.Fprintf(&b, " %s=%d", n.k, n.v)
		}
	}
	if f.Wait != 0 {
		fmt.Fprintf(&b, " wait=%s", f.Wait)
	}
	for _, k := range slices.Sorted(maps.Keys(f.Args)) {
		put(k, f.Args[k])
	}
	put("google", f.Google)
	if f.GaveUp {
		b.WriteString(" gave_up")
	}
	return b.String()
}

// Arg is the named value, or "".
func (f Fact) Arg(name string) string { return f.Args[name] }

// Said is a reason or next step as kept in the journal: a fact, or the
// English sentence an older version of Hoist wrote. The zero Said says
// nothing.
type Said struct {
	Fact   *Fact
	Legacy string
}

// Of wraps a fact.
func Of(f Fact) Said { return Said{Fact: &f} }

// IsZero reports whether nothing is said (for omitzero).
func (s Said) IsZero() bool { return s.Fact == nil && s.Legacy == "" }

// MarshalJSON writes a fact as an object and a legacy sentence as a string,
// so a journal written now reads the same way as one written before.
func (s Said) MarshalJSON() ([]byte, error) {
	if s.Fact != nil {
		return json.Marshal(s.Fact)
	}
	return json.Marshal(s.Legacy)
}

// UnmarshalJSON reads either form.
func (s *Said) UnmarshalJSON(b []byte) error {
	*s = Said{}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Legacy)
	}
	if string(b) == "null" {
		return nil
	}
	var f Fact
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	s.Fact = &f
	return nil
}

// Facts about an upload that may have reached its destination, or reached
// it wrong, so that sending it again could make a second copy: Args["at"]
// is when it last went out (RFC 3339), Args["look"] how it can be settled
// ("look": the user looks; "ask": the destination can be asked again;
// "allow": asking needs Args["scopes"], space-separated), Args["item"] what
// to look for, Args["id"] and Args["url"] the copy the destination holds.
const (
	LostLook Code = "upload.lostLook" // Dest, File: the answer was lost; the destination cannot be asked
	// Dest, File: the answer was lost; the destination could be asked, but
	// the file lacks the mark it is found by (an email without a Message-ID).
	LostUnmarked Code = "upload.lostUnmarked"
	LostAsk      Code = "upload.lostAsk"   // Dest, File: the answer was lost; asking failed for now
	LostAllow    Code = "upload.lostAllow" // Dest, File: the answer was lost; asking needs a permission
	NoID         Code = "upload.noID"      // Dest, File: a success answer that named nothing
	Settling     Code = "upload.settling"  // Dest, File: not there yet and may still arrive: asked again before it is sent again
	LookFor      Code = "next.lookFor"     // Dest: look for Args["item"]; Restart sends it again
	AskAgain     Code = "next.askAgain"    // Resume asks again; Restart sends it again
	AllowLook    Code = "next.allowLook"   // sign in to allow looking; Restart sends it again
	WrongCopy    Code = "next.wrongCopy"   // Restart sends a new, whole copy
	RetryAt      Code = "next.retryAt"     // Args["at"]: the server asked to wait until then
	// Args["at"]: Hoist's own backoff waits until then, longer than a run waits.
	RetryLater Code = "next.retryLater"
)

// Next steps after a refusal that sending the same file again would meet again.
const (
	ChangeAndSend Code = "next.changeAndSend" // Dest: the settings or the file are wrong: mend, then send anew
	TooLargeThere Code = "next.tooLargeThere" // Dest: no attempt will take a file this large
	AskAccess     Code = "next.askAccess"     // Dest: the account may not upload there: ask for access, then retry
)

// Facts about an upload canceled while its answer was awaited: it may have
// arrived, so Retry asks its destination before it sends it again.
const (
	CanceledInDoubt Code = "upload.canceledInDoubt" // Dest, File, Args["at"]: when it went out
	CheckFirst      Code = "next.checkFirst"        // Dest: Retry asks whether it arrived before sending it again
)

// A file not added because the same bytes went, whole, to the same place
// before: File, Dest, Args["at"] when that upload finished (RFC 3339).
const AlreadySent Code = "file.sent"

// Some emails of a mailbox not added, as they went whole to the same place
// before; its new emails are added: File, Dest, Count, Args["at"].
const SomeEmailsSent Code = "mailbox.someSent"
