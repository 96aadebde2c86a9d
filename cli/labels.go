package cli

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"hoist/auth"
	"hoist/engine/dest"
	"hoist/engine/google"
	"hoist/words"
)

// resolveLabelNames turns Gmail label names given with --labels into the
// ids Gmail takes, with the mailbox's own list, before any upload; a name
// the mailbox does not have is refused in a sentence.
func resolveLabelNames(ctx context.Context, d *dest.Destination, noAuth bool) error {
	if d.Kind.ListOf("labels") != dest.LabelList || !google.HasLabelNames(dest.SplitList(d.Params["labels"])) {
		return nil
	}
	l := &google.Lister{BaseURL: d.BaseURL}
	switch {
	case d.BaseURL != "" && !d.NeedsAuth():
		l.Client = &http.Client{}
	case noAuth:
		return &sentence{"cli.labels.noSignIn", words.Args{"Examples": "INBOX, Label_12", "Flag": "--labels"}}
	default:
		c, err := (auth.Uploads{Service: sharedAuth()}).Client(ctx, d.Account, []string{google.ScopeGmailLabels})
		if errors.Is(err, auth.ErrSignInAgain) || errors.Is(err, auth.ErrNotSignedIn) {
			return &sentence{"cli.labels.needScope", words.Args{"Examples": "INBOX, Label_12", "Flag": "--labels",
				"Cmd": "hoist login --scopes gmail.labels" + accountFlag(d.Account)}}
		}
		if err != nil {
			return err
		}
		l.Client = c
	}
	labels, err := l.Labels(ctx, d.Param("user"))
	if err != nil {
		return err
	}
	ids, err := google.ResolveLabels(labels, dest.SplitList(d.Params["labels"]))
	if err != nil {
		return err
	}
	d.Params["labels"] = strings.Join(ids, ",")
	return nil
}

func accountFlag(account string) string {
	if account == "" {
		return ""
	}
	return " --account " + account
}
