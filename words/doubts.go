package words

import (
	"maps"
	"strconv"
	"strings"
	"time"

	"hoist/engine/fact"
)

// commandKeys are the command line's words for the same next steps.
var commandKeys = map[fact.Code]string{
	fact.LookFor:    "cli.next.lookFor",
	fact.AskAgain:   "cli.next.askAgain",
	fact.AllowLook:  "cli.next.allowLook",
	fact.WrongCopy:  "cli.next.wrongCopy",
	fact.RetryAt:    "cli.next.retryAt",
	fact.RetryLater: "cli.next.retryLater",
	fact.CheckFirst: "cli.next.checkFirst",

	fact.ChangeAndSend: "cli.next.changeAndSend",
	fact.TooLargeThere: "cli.next.tooLargeThere",
	fact.AskAccess:     "cli.next.askAccess",
}

// scopePrefix starts a Google scope written as a URL: a permission's words
// are look.what.<the rest> (look.what.gmail.metadata), by rule.
const scopePrefix = "https://www.googleapis.com/auth/"

// doubtArgs sets what the sentences of an upload in doubt say: when it
// went out (in the user's time zone), what to look for, what a permission
// asked for lets Hoist see.
func (l *Lang) doubtArgs(f fact.Fact, args Args) {
	if at, err := time.Parse(time.RFC3339, f.Arg("at")); err == nil {
		args["At"] = l.Date(at.Local())
	} else {
		args["At"] = l.Say("time.unknown", nil)
	}
	args["Item"] = l.Isolate(f.Arg("item"))
	// How the answer was lost: the connection broke, or the server (or a
	// front end before it) answered only that it broke down, after the
	// whole file went out (Status).
	broke := Args{"Who": l.who(f), "Status": l.Digits(strconv.Itoa(f.Status))}
	if f.Status >= 500 {
		args["Broke"] = l.Say("lost.trouble", broke)
	} else {
		args["Broke"] = l.Say("lost.broke", broke)
	}
	what := "look.what.any"
	for _, s := range strings.Fields(f.Arg("scopes")) {
		if k := "look.what." + strings.TrimPrefix(s, scopePrefix); has(k) {
			what = k
		}
	}
	args["What"] = l.Say(what, nil)
}

// copySentence names the copy a destination holds that is not the file.
func (l *Lang) copySentence(f fact.Fact, who string) string {
	if f.Code != fact.Incomplete && f.Code != fact.Mismatch {
		return ""
	}
	var s string
	if id := f.Arg("id"); id != "" {
		s = l.Say("fact.copy.id", Args{"Who": who, "id": l.Isolate(id)})
	}
	if u := f.Arg("url"); u != "" {
		s = l.Join(s, l.Say("fact.copy.url", Args{"url": l.Isolate(u)}))
	}
	return s
}

// CommandNext is a next step of an upload in doubt in command-line terms,
// with the commands that carry it out (Cmd, Restart, Remove, Login, Retry); ""
// for a fact that is not one.
func (l *Lang) CommandNext(f fact.Fact, cmds Args) string {
	key, ok := commandKeys[f.Code]
	if !ok {
		return ""
	}
	args := Args{"Where": l.where(f), "Who": l.who(f)}
	l.doubtArgs(f, args)
	maps.Copy(args, cmds)
	return l.Say(key, args)
}
