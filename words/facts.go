package words

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// factKeys is the catalogue key of each fact's sentence.
var factKeys = map[fact.Code]string{
	fact.FileMissing:      "fact.file.missing",
	fact.FileChanged:      "fact.file.changed",
	fact.FileNotAllowed:   "fact.file.notAllowed",
	fact.FolderNotAllowed: "fact.folder.notAllowed",
	fact.FileUnreadable:   "fact.file.unreadable",
	fact.FileLoop:         "fact.file.loop",
	fact.FileIsFolder:     "fact.file.isFolder",
	fact.FileSpecial:      "fact.file.special",
	fact.AlreadyListed:    "fact.file.listed",

	fact.NotEmail:     "fact.refused.notEmail",
	fact.NotEmailType: "fact.refused.notEmailType",
	fact.NotImage:     "fact.refused.notImage",
	fact.Empty:        "fact.refused.empty",
	fact.WrongType:    "fact.refused.type",
	fact.TooLarge:     "fact.refused.tooLarge",

	fact.Canceled:          "fact.upload.canceled",
	fact.Stopped:           "fact.upload.stopped",
	fact.NoSandbox:         "fact.upload.noSandbox",
	fact.AnswerLost:        "fact.upload.answerLost",
	fact.SessionExpired:    "fact.upload.sessionExpired",
	fact.ForeignHost:       "fact.upload.foreignHost",
	fact.Stalled:           "fact.upload.stalled",
	fact.BadResponse:       "fact.upload.badResponse",
	fact.InvalidSettings:   "fact.upload.invalid",
	fact.Failed:            "fact.upload.failed",
	fact.ServerLimit:       "fact.google.limit",
	fact.SignInExpired:     "fact.google.signInExpired",
	fact.ServiceOff:        "fact.google.serviceOff",
	fact.Forbidden:         "fact.google.forbidden",
	fact.NotFound:          "fact.google.notFound",
	fact.ServerTooLarge:    "fact.google.tooLarge",
	fact.ServerTrouble:     "fact.google.trouble",
	fact.RefusedFile:       "fact.google.refusedFileStatus",
	fact.RefusedUpload:     "fact.google.refusedUploadStatus",
	fact.NoServer:          "fact.net.noServer",
	fact.NotVerified:       "fact.net.notVerified",
	fact.NothingAnswered:   "fact.net.nothingAnswered",
	fact.Unreachable:       "fact.net.unreachable",
	fact.TimedOut:          "fact.net.timedOut",
	fact.Dropped:           "fact.net.dropped",
	fact.KeychainLocked:    "fact.auth.keychainLocked",
	fact.NotSignedIn:       "fact.auth.notSignedIn",
	fact.SignInAgain:       "fact.auth.signInAgain",
	fact.MoreAccess:        "fact.auth.moreAccess",
	fact.WhichAccount:      "fact.auth.whichAccount",
	fact.NoKeychain:        "fact.auth.noKeychain",
	fact.TooBig:            "fact.auth.tooBig",
	fact.NoClient:          "fact.auth.noClient",
	fact.NotDesktopClient:  "fact.auth.notDesktopClient",
	fact.NotClientFile:     "fact.auth.notClientFile",
	fact.BadClient:         "fact.auth.badClient",
	fact.AccessDenied:      "fact.auth.accessDenied",
	fact.SignInTimedOut:    "fact.auth.timedOut",
	fact.SignInCanceled:    "fact.auth.canceled",
	fact.NoRefreshToken:    "fact.auth.noRefreshToken",
	fact.NoIdentity:        "fact.auth.noIdentity",
	fact.GoogleUnreachable: "fact.auth.googleUnreachable",
	fact.NotRevoked:        "fact.auth.notRevoked",
	fact.AdminPolicy:       "fact.auth.adminPolicy",
	fact.OrgInternal:       "fact.auth.orgInternal",
	fact.InvalidScope:      "fact.auth.invalidScope",
	fact.ConsentFailed:     "fact.auth.consentFailed",

	fact.PressResume:     "fact.next.resume",
	fact.PressRetry:      "fact.next.retry",
	fact.PressRetryAgain: "fact.next.retryAgain",
	fact.PutBack:         "fact.next.putBack",
	fact.StartOver:       "fact.next.startOver",
	fact.UnlockKeychain:  "fact.next.unlock",
	fact.SignInResume:    "fact.next.signIn",
	fact.RetryIn:         "fact.next.retryIn",
	fact.RestartExpired:  "fact.next.restartExpired",
	fact.RestartLost:     "fact.next.restartLost",

	fact.BatchDone: "fact.batch.done",

	fact.ListNewer:      "fact.journal.newer",
	fact.ListDamaged:    "fact.journal.damaged",
	fact.ListDropped:    "fact.journal.dropped",
	fact.UpgradedSaved:  "fact.upgraded.saved",
	fact.UpgradedListed: "fact.upgraded.listed",

	fact.ManagedUnreadable:      "fact.managed.unreadable",
	fact.ManagedNotJSON:         "fact.managed.notJSON",
	fact.ManagedNewer:           "fact.managed.newer",
	fact.ManagedEntryUnreadable: "fact.managed.entryUnreadable",
	fact.ManagedInvalid:         "fact.managed.invalid",
	fact.ManagedSameName:        "fact.managed.sameName",
	fact.SharedNotHoist:         "fact.shared.notHoist",
	fact.SharedNewer:            "fact.shared.newer",
	fact.SharedUnreadable:       "fact.shared.unreadable",
	fact.SharedNoName:           "fact.shared.noName",

	fact.Required:      "fact.field.required",
	fact.NotNumber:     "fact.field.notNumber",
	fact.NotBool:       "fact.field.notBool",
	fact.NotChoice:     "fact.field.notChoice",
	fact.NotSize:       "fact.field.notSize",
	fact.BadID:         "fact.field.badID",
	fact.BadVersion:    "fact.field.badVersion",
	fact.BadMediaTypes: "fact.field.badMediaTypes",
	fact.BadJSON:       "fact.field.badJSON",
	fact.NotObject:     "fact.field.notObject",
	fact.ChooseKind:    "fact.field.chooseKind",
	fact.BadURL:        "fact.field.badURL",
	fact.GoogleHTTPS:   "fact.field.googleHTTPS",
	fact.ScopeNeeded:   "fact.field.scopeNeeded",
	fact.UnknownKind:   "fact.field.unknownKind",
	fact.NotSetting:    "fact.field.notSetting",
	fact.NotAddress:    "fact.field.notAddress",
	fact.NoHost:        "fact.field.noHost",
	fact.BadPort:       "fact.field.badPort",
	fact.HasQuery:      "fact.field.hasQuery",
	fact.GooglePath:    "fact.field.googlePath",
	fact.BadType:       "fact.field.badType",
	fact.DriveFolder:   "fact.field.driveFolder",
	fact.DriveFile:     "fact.field.driveFile",
	fact.FolderOrFile:  "fact.field.folderOrFile",
	fact.TooLong:       "fact.field.tooLong",
	fact.TooLongBytes:  "fact.field.tooLongBytes",
	fact.NameMissing:   "fact.field.nameMissing",
	fact.NameTaken:     "fact.field.nameTaken",
	fact.ManagedName:   "fact.field.managedName",
	fact.UnknownDest:   "fact.field.unknownDest",
	fact.NoDest:        "fact.field.noDest",
}

// specialKinds name what a special file is.
var specialKinds = map[string]string{
	"pipe": "special.pipe", "socket": "special.socket", "device": "special.device",
	"link": "special.link", "": "special.file",
}

// Fact is the sentence (or sentences) that say f in this language.
func (l *Lang) Fact(f fact.Fact) string {
	key, ok := factKeys[f.Code]
	if !ok {
		// A fact from a newer Hoist, read from the journal: say what can be said.
		return l.Say("fact.unknown", Args{"Code": string(f.Code)})
	}
	if k, ok := said(f).Keys[f.Code]; ok { // the destination says it its own way
		key = k
	}
	if f.Code == fact.NotFound && f.Arg("draft") != "" {
		key = "fact.google.notFound.draft"
	}
	if f.Code == fact.NotFound && f.Dest == "drive" {
		switch {
		case f.Arg("file") != "": // a new version of this file
			key = "fact.google.notFound.driveFile"
		case f.Arg("folder") != "":
			key = "fact.google.notFound.driveFolder"
		}
	}
	if f.Code == fact.Retired {
		key = retiredKey(f)
	}
	args := Args{
		"File":   l.Isolate(f.File),
		"Field":  l.Isolate(f.Field),
		"Where":  l.where(f),
		"Who":    l.who(f),
		"Wait":   l.Duration(f.Wait),
		"N":      f.Count,
		"Status": strconv.Itoa(f.Status),
		"Google": l.Isolate(f.Google),
	}
	switch f.Code {
	case fact.TooLarge:
		args["Size"], args["Limit"] = l.sizesApart(f.Size, f.Limit)
	case fact.Incomplete:
		args["Received"], args["Size"] = l.sizesApart(f.Received, f.Size)
	default:
		args["Size"], args["Limit"] = l.Size(f.Size), l.Size(f.Limit)
	}
	if f.Code == fact.FileSpecial {
		args["Kind"] = l.Say(specialKinds[f.Arg("kind")], nil)
	}
	if n := f.Arg("name"); n != "" && (f.Code == fact.ManagedInvalid || f.Code == fact.ManagedSameName || f.Code == fact.ManagedEntryUnreadable) {
		args["N"] = l.Say("fact.managed.named", Args{"Name": l.Isolate(n)}) // its name, not its place in the file
	}
	for k, v := range f.Args {
		args[k] = v
	}
	l.moreArgs(f, args)
	l.doubtArgs(f, args)
	s := l.Say(key, args)
	s = l.Join(s, l.copySentence(f, args["Who"].(string)))
	if who := args["Who"].(string); strings.HasPrefix(s, who) {
		s = CapitalFirst(s) // "The sandbox gave an answer…"
	}
	switch f.Code {
	case fact.ServiceOff:
		if f.Google != "" {
			s = l.Join(s, l.Say("fact.googleSays", Args{"Google": l.Isolate(f.Google)}))
		}
	case fact.BatchDone:
		if n, _ := strconv.Atoi(f.Arg("failed")); n > 0 {
			s = l.Join(s, l.Say("fact.batch.attention", Args{"N": n}))
		}
	}
	if isResult(f) {
		s = l.Join(s, l.resultDetails(f))
	}
	if f.GaveUp {
		s = l.Join(s, l.Say("fact.gaveUp", nil))
	}
	return s
}

// Said is a reason or next step from the journal: a fact in this language,
// or the sentence an older Hoist stored, as it is.
func (l *Lang) Said(s fact.Said) string {
	if s.Fact != nil {
		return l.Fact(*s.Fact)
	}
	return s.Legacy
}

// Isolate marks s (a file name, a label, Google's own words) as a unit of
// its own direction inside a right-to-left sentence (U+2068 … U+2069), so
// "דוח 2026.eml" keeps its order there; English sentences need no marks.
// The window's bidi text follows the marks and does not draw them.
func (l *Lang) Isolate(s string) string {
	if s == "" || !l.RTL() {
		return s
	}
	return "\u2068" + s + "\u2069"
}

// Join puts two sentences one after the other.
func (l *Lang) Join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// sizesApart writes a size and a limit so that they read differently: in
// exact bytes when rounding makes them look the same.
func (l *Lang) sizesApart(size, limit int64) (string, string) {
	s, m := l.Size(size), l.limit(limit)
	if s == m {
		return l.Say("unit.bytes", Args{"N": size}), l.Say("unit.bytes", Args{"N": limit})
	}
	return s, m
}

// limit writes a limit as Google's documentation does, and as the
// engine's English does: 15 MiB is "15 MB".
func (l *Lang) limit(n int64) string {
	for _, u := range []struct {
		shift uint
		key   string
	}{{30, "unit.gb"}, {20, "unit.mb"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return l.Say(u.key, Args{"N": n >> u.shift})
		}
	}
	return l.Size(n)
}

// said names the sentences of the fact's destination, from its kind.
func said(f fact.Fact) dest.FactWords { return dest.Kind(f.Dest).FactWords() }

// where names the place a file was going.
func (l *Lang) where(f fact.Fact) string {
	if key := said(f).Where; key != "" {
		return l.Say(key, nil)
	}
	if n := strings.TrimSpace(f.Arg("name")); n != "" {
		return l.Isolate(n)
	}
	return l.Say("dest.this", nil)
}

// who is the server that answered: Google, the sandbox, or the server.
func (l *Lang) who(f fact.Fact) string {
	if f.Arg("who") == "server" {
		return l.Say("who.server", nil)
	}
	if key := said(f).Who; key != "" {
		return l.Say(key, nil)
	}
	if f.Arg("who") == "google" {
		return l.Say("who.google", nil)
	}
	return l.Say("who.server", nil)
}

// CapitalFirst starts a sentence with a capital letter, for the languages
// that have them.
func CapitalFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
