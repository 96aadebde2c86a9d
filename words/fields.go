package words

import (
	"strings"

	"hoist/engine/dest"
)

// fieldKeys are the catalogue keys of each destination setting's label and
// help, by the kind's family and the setting's key: the window's form and
// the command line's flags say them alike.
var fieldKeys = map[string][2]string{
	"cm360.profileId":          {"ui.form.cm360.profileId", "ui.help.cm360.profileId"},
	"cm360.advertiserId":       {"ui.form.cm360.advertiserId", "ui.help.cm360.advertiserId"},
	"cm360.assetType":          {"ui.form.cm360.assetType", "ui.help.cm360.assetType"},
	"cm360.apiVersion":         {"ui.form.cm360.apiVersion", "ui.help.cm360.apiVersion"},
	"custom.url":               {"ui.form.custom.url", "ui.help.custom.url"},
	"custom.httpMethod":        {"ui.form.custom.httpMethod", "ui.help.custom.httpMethod"},
	"custom.metadata":          {"ui.form.custom.metadata", "ui.help.custom.metadata"},
	"custom.scope":             {"ui.form.custom.scope", "ui.help.custom.scope"},
	"custom.maxSize":           {"ui.form.custom.maxSize", "ui.help.custom.maxSize"},
	"custom.accept":            {"ui.form.custom.accept", "ui.help.custom.accept"},
	"drive.folder":             {"ui.form.drive.folder", "ui.help.drive.folder"},
	"drive.fileId":             {"ui.form.drive.fileId", "ui.help.drive.fileId"},
	"gmail.user":               {"ui.form.gmail.user", "ui.help.gmail.user"},
	"gmail.labels":             {"ui.form.gmail.labels", "ui.help.gmail.labels"},
	"gmail.threadId":           {"ui.form.gmail.threadId", "ui.help.gmail.threadId"},
	"gmail.deleted":            {"ui.form.gmail.deleted", "ui.help.gmail.deleted"},
	"gmail.internalDateSource": {"ui.form.gmail.date", "ui.help.gmail.date"},
	"gmail.neverMarkSpam":      {"ui.form.gmail.neverSpam", "ui.help.gmail.neverSpam"},
	"gmail.processForCalendar": {"ui.form.gmail.calendar", "ui.help.gmail.calendar"},
	"gmail.draftId":            {"ui.form.gmail.draftId", "ui.help.gmail.draftId"},
	"playgames.resourceId":     {"ui.form.playgames.resourceId", "ui.help.playgames.resourceId"},
	"playgames.imageType":      {"ui.form.playgames.imageType", "ui.help.playgames.imageType"},
	"sandbox.url":              {"ui.form.sandbox.url", "ui.help.sandbox.url"},
	"youtube.title":            {"ui.form.youtube.title", "ui.help.youtube.title"},
	"youtube.description":      {"ui.form.youtube.description", "ui.help.youtube.description"},
	"youtube.privacy":          {"ui.form.youtube.privacy", "ui.help.youtube.privacy"},
}

// Field is a destination setting's label and help in l's language (the
// engine's English where the catalogue has no words for it).
func (l *Lang) Field(k dest.Kind, f dest.Field) (label, help string) {
	keys, ok := fieldKeys[k.Family()+"."+f.Key]
	if !ok {
		return f.Label, f.Help
	}
	return l.Say(keys[0], nil), l.Say(keys[1], Args{"Version": dest.CM360Version})
}

// kindKeys are the catalogue keys of the kinds of destination's names.
var kindKeys = map[dest.Kind]string{
	dest.GmailInsert: "ui.kind.gmailInsert", dest.GmailImport: "ui.kind.gmailImport",
	dest.GmailSend: "ui.kind.gmailSend", dest.GmailDraft: "ui.kind.gmailDraft",
	dest.CM360: "ui.kind.cm360", dest.Drive: "ui.kind.drive", dest.YouTube: "ui.kind.youtube",
	dest.PlayGames: "ui.kind.playgames", dest.Sandbox: "ui.kind.sandbox", dest.Custom: "ui.kind.custom",
}

// KindName names a kind of destination as the window's picker does.
func (l *Lang) KindName(k dest.Kind) string {
	if key, ok := kindKeys[k]; ok {
		return l.Say(key, nil)
	}
	return k.Info().Label
}

// flagKindKeys name the kinds whose short names are words, not products.
var flagKindKeys = map[dest.Kind]string{
	dest.Custom:  "cli.flagKind.custom",
	dest.Sandbox: "cli.flagKind.sandbox",
}

// FlagHelp is the help of a command-line flag that sets destinations'
// settings: for each family of kinds it sets, the kind's short name and
// the setting's help, with the values a choice takes where the help does
// not name them.
func (l *Lang) FlagHelp(f dest.Flag) string {
	parts := make([]string, 0, len(f.Uses))
	for _, u := range f.Uses {
		who := u.Kind.Info().Short
		if key, ok := flagKindKeys[u.Kind]; ok {
			who = l.Say(key, nil)
		}
		_, help := l.Field(u.Kind, u.Field)
		text := l.Say("cli.flagFor", Args{"Kind": who, "Help": help})
		if choices := u.Field.ChoicesUnsaid(help); choices != nil {
			text = l.Say("cli.flagChoices", Args{"Help": text, "Choices": strings.Join(choices, ", ")})
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}
