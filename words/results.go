package words

import (
	"maps"
	"strings"

	"hoist/engine/fact"
)

func init() { maps.Copy(factKeys, moreFactKeys) }

// moreFactKeys are the catalogue keys of the facts of what a stopped upload
// met beyond factKeys', and of what a destination made of a finished one.
var moreFactKeys = map[fact.Code]string{
	fact.FileUnknownSize:  "fact.file.unknownSize",
	fact.FileNotEmail:     "fact.file.notEmail",
	fact.FileReadChanged:  "fact.file.readChanged",
	fact.NotVideo:         "fact.refused.notVideo",
	fact.NeedsDetails:     "fact.refused.method",
	fact.ChangedWhileSent: "fact.upload.changedWhileSent",
	fact.Incomplete:       "fact.upload.incomplete",
	fact.Mismatch:         "fact.upload.mismatch",
	fact.Retired:          "fact.google.retired",
	fact.PlayGamesGone:    "fact.google.playGamesGone",
	fact.NoChannel:        "fact.google.noChannel",
	fact.DailyLimit:       "fact.google.dailyLimit",
	fact.SignInToSend:     "fact.auth.signInToSend",
	fact.ResumeFrom:       "fact.next.resumeFrom",
	fact.CheckServer:      "fact.next.checkServer",
	fact.NotNoted:         "fact.next.notNoted",
	fact.ListNotSaved:     "fact.journal.notSaved",
	fact.ListDiskFull:     "fact.journal.diskFull",

	fact.Uploaded:          "fact.result.uploaded",
	fact.SavedInMailbox:    "fact.result.gmailInsert",
	fact.ImportedToMailbox: "fact.result.gmailImport",
	fact.SentEmail:         "fact.result.gmailSend",
	fact.SavedDraft:        "fact.result.gmailDraft",
	fact.UpdatedDraft:      "fact.result.gmailDraftUpdated",
	fact.AddedToCM360:      "fact.result.cm360",
	fact.SavedInDrive:      "fact.result.drive",
	fact.NewDriveVersion:   "fact.result.driveVersion",
	fact.UploadedToYouTube: "fact.result.youtube",
	fact.AchievementIcon:   "fact.result.achievementIcon",
	fact.LeaderboardIcon:   "fact.result.leaderboardIcon",
	fact.GameIcon:          "fact.result.gameIcon",
	fact.AnswerUnreadable:  "fact.result.unreadable",

	fact.SkippedHiddenFile:     "fact.skipped.hiddenFile",
	fact.SkippedHiddenFolder:   "fact.skipped.hiddenFolder",
	fact.SkippedSystemFile:     "fact.skipped.systemFile",
	fact.SkippedSystemFolder:   "fact.skipped.systemFolder",
	fact.SkippedOfficeTemp:     "fact.skipped.officeTemp",
	fact.SkippedIncluded:       "fact.skipped.included",
	fact.SkippedFolderIncluded: "fact.skipped.folderIncluded",
	fact.SkippedSpecial:        "fact.skipped.special",
}

// retiredKey is the sentence of a retired API version: Campaign Manager
// 360's names the version to set, or says Hoist's own is the one retired.
func retiredKey(f fact.Fact) string {
	version, current := f.Arg("version"), f.Arg("current")
	switch {
	case current != "" && version == current:
		return "fact.google.retired.cm360Current"
	case current != "" && version != "":
		return "fact.google.retired.cm360"
	case version == "":
		return "fact.google.retired.noVersion"
	}
	return "fact.google.retired"
}

// cm360VersionFlag is the command line's flag that sets CM360's API version.
const cm360VersionFlag = "--api-version"

// moreArgs sets what the sentences of moreFactKeys' facts say beyond
// Fact's own: their values (versions, checksums, types) each kept whole
// inside a right-to-left sentence, and the flag that sets a version.
func (l *Lang) moreArgs(f fact.Fact, args Args) {
	if _, ok := moreFactKeys[f.Code]; !ok {
		return
	}
	for k, v := range f.Args {
		if k != "name" && k != "who" {
			args[k] = l.Isolate(v)
		}
	}
	args["Flag"] = l.Isolate(cm360VersionFlag)
	if f.Code == fact.SkippedSpecial {
		args["Kind"] = l.Say(specialKinds[f.Arg("kind")], nil)
	}
}

// resultDetails are the sentences after a result's own: what the server
// named the file, its id, its visibility, its address and Google's notes,
// each as the server wrote it.
func (l *Lang) resultDetails(f fact.Fact) string {
	var s string
	for _, d := range []struct{ arg, key string }{
		{"title", "fact.result.name"}, {"id", "fact.result.id"},
	} {
		if v := f.Arg(d.arg); v != "" {
			s = l.Join(s, l.Say(d.key, Args{d.arg: l.Isolate(v)}))
		}
	}
	switch f.Arg("privacy") {
	case "private":
		s = l.Join(s, l.Say("fact.result.private", nil))
	case "unlisted":
		s = l.Join(s, l.Say("fact.result.unlisted", nil))
	case "public":
		s = l.Join(s, l.Say("fact.result.public", nil))
	}
	if v := f.Arg("url"); v != "" {
		s = l.Join(s, l.Say("fact.result.url", Args{"url": l.Isolate(v)}))
	}
	if v := f.Arg("warned"); v != "" {
		s = l.Join(s, l.Say("fact.result.warned", Args{"warned": l.Isolate(v)}))
	}
	return s
}

// isResult reports whether f says what a destination made of a file.
func isResult(f fact.Fact) bool {
	return strings.HasPrefix(string(f.Code), "result.")
}

// QuotesGoogle reports whether f's sentence holds Google's own words, so
// that whoever shows it need not quote them a second time.
func (l *Lang) QuotesGoogle(f fact.Fact) bool {
	if f.Google == "" {
		return false
	}
	switch f.Code {
	case fact.Failed, fact.FileUnreadable,
		fact.ConsentFailed, fact.ServiceOff, fact.NotNoted, fact.ListNotSaved:
		return true
	}
	return false
}

// Sentence is Say's text starting with a capital letter, for the languages
// that have them: "The server said: …".
func (l *Lang) Sentence(key string, args Args) string { return CapitalFirst(l.Say(key, args)) }
