// Looking at a file: what it is, and whether it breaks a rule of its
// destination, before it is queued or sent again.

package engine

import (
	"errors"

	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// checkFile applies the destination's rules to the file (its settings were
// validated with the batch), and refuses a simple upload (media), which
// carries the file alone, to a destination that has details to send with
// it: they would be lost without a word. The request itself is built when
// the file is sent.
func checkFile(d dest.Destination, info media.Info, method upload.Method) error {
	if err := checkRules(d, info); err != nil {
		return err
	}
	if method != upload.Media {
		return nil
	}
	plan, err := build(d, info)
	if err != nil {
		return err
	}
	return d.RefuseSimple(info, plan)
}

// inspect looks at the file at path and checks it against the rules of d,
// whose settings the caller validated.
func inspect(path string, d dest.Destination, method upload.Method) *inspection {
	info, err := media.Inspect(path)
	if errors.Is(err, media.ErrNotEmail) {
		err = nil // the destination decides whether it needs an email
	}
	if err != nil {
		return &inspection{err: err}
	}
	if media.IsOutlook(info) && d.TakesEmail() {
		// An Outlook item goes as the email it is; elsewhere, as the file.
		if info, err = media.AsEmail(info); err != nil {
			return &inspection{info: info, read: true, err: err}
		}
	}
	return &inspection{info: info, read: true, err: checkFile(d, info, method)}
}

// inspectEmail looks again at one email of a mailbox and checks it
// against the rules of d, as inspect does a file.
func inspectEmail(info media.Info, d dest.Destination, method upload.Method) *inspection {
	info, err := media.InspectPart(info)
	if err != nil {
		return &inspection{err: err}
	}
	return &inspection{info: info, read: true, err: checkFile(d, info, method)}
}

// inspection is what looking at a file found.
type inspection struct {
	info media.Info
	read bool  // info was read from the file
	err  error // the file is gone, unreadable or breaks a rule of the destination
}

// The destination's checks, as the queue makes them: each once per file
// (a batch's settings once), counted by the tests.
var (
	validate   = dest.Destination.Validate // the settings
	checkRules = dest.Destination.Check    // the file against the kind's rules
	build      = dest.Destination.Build    // the request that sends it
)
