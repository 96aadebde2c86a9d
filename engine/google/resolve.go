package google

import (
	"fmt"
	"strings"
)

// UnknownLabelError says a label typed by hand is neither the id nor the
// name of a label of the mailbox.
type UnknownLabelError struct{ Typed []string }

func (e *UnknownLabelError) Error() string {
	quoted := make([]string, len(e.Typed))
	for i, t := range e.Typed {
		quoted[i] = "\u201c" + t + "\u201d"
	}
	if len(quoted) == 1 {
		return fmt.Sprintf("This mailbox has no label %s. Choose labels from the list, or create the label in Gmail first.", quoted[0])
	}
	return fmt.Sprintf("This mailbox has no labels %s. Choose labels from the list, or create them in Gmail first.", strings.Join(quoted, ", "))
}

// ResolveLabels turns labels typed by hand, ids or names, into the ids
// Gmail takes. An id is kept as it is; a name (ignoring case) becomes its
// label's id. Anything else is refused, before any upload.
func ResolveLabels(labels []Label, typed []string) ([]string, error) {
	byID := make(map[string]string, len(labels))
	byName := make(map[string]string, len(labels))
	for _, l := range labels {
		byID[l.ID] = l.ID
		byName[strings.ToLower(l.Name)] = l.ID
	}
	var ids []string
	var unknown []string
	seen := map[string]bool{}
	for _, t := range typed {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		id, ok := byID[t]
		if !ok {
			id, ok = byName[strings.ToLower(t)]
		}
		if !ok {
			unknown = append(unknown, t)
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(unknown) > 0 {
		return ids, &UnknownLabelError{Typed: unknown}
	}
	return ids, nil
}

// systemLabels are the ids of Gmail's own labels.
var systemLabels = map[string]bool{
	"INBOX": true, "SPAM": true, "TRASH": true, "UNREAD": true, "STARRED": true, "IMPORTANT": true,
	"SENT": true, "DRAFT": true, "CHAT": true, "CATEGORY_PERSONAL": true, "CATEGORY_SOCIAL": true,
	"CATEGORY_PROMOTIONS": true, "CATEGORY_UPDATES": true, "CATEGORY_FORUMS": true,
}

// LooksLikeLabelID reports whether s is written as a Gmail label id (a
// system label such as INBOX, or Label_123), not as a label's name.
func LooksLikeLabelID(s string) bool {
	s = strings.TrimSpace(s)
	if systemLabels[s] {
		return true
	}
	rest, ok := strings.CutPrefix(s, "Label_")
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// HasLabelNames reports whether labels holds names (to resolve with
// ResolveLabels) rather than ids only.
func HasLabelNames(labels []string) bool {
	for _, l := range labels {
		if !LooksLikeLabelID(l) {
			return true
		}
	}
	return false
}
