package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Result is what the destination made of the file, in its own terms.
type Result struct {
	ID       string // Gmail message or draft id, CM360 asset id, object id
	ThreadID string // Gmail conversation
	Name     string // CM360 asset name, object name
	URL      string // Play Games image URL, or a link to the object
	Summary  string // one plain sentence
	Raw      json.RawMessage
}

// ErrBadAnswer is matched (errors.Is) by ParseResult's errors: the upload
// went through but the answer could not be read.
var ErrBadAnswer = errors.New("the answer could not be read")

// answerError says what is wrong with an answer, in words that follow
// "the answer could not be read:".
type answerError struct{ what string }

func (e *answerError) Error() string        { return e.what }
func (e *answerError) Is(target error) bool { return target == ErrBadAnswer }

// id is an identifier the server may write as a JSON string or a number.
type id string

func (i *id) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*i = id(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*i = id(n.String())
	return nil
}

// answer holds every field Hoist reads from any destination's answer.
type answer struct {
	ID         id     `json:"id"`
	ThreadID   string `json:"threadId"`
	Name       string `json:"name"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	SelfLink   string `json:"selfLink"`
	MediaLink  string `json:"mediaLink"`
	WebView    string `json:"webViewLink"`
	ResourceID string `json:"resourceId"`
	ImageType  string `json:"imageType"`
	Message    *struct {
		ID       string `json:"id"`
		ThreadID string `json:"threadId"`
	} `json:"message"`
	AssetIdentifier *struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"assetIdentifier"`
	Warned  []string `json:"warnedValidationRules"`
	Snippet *struct {
		Title string `json:"title"`
	} `json:"snippet"`
}

// ParseResult reads the server's answer to a finished upload.
func ParseResult(d Destination, body []byte) (Result, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if d.Kind == Custom || d.Kind == Sandbox {
			return Result{Summary: "Uploaded."}, nil
		}
		return Result{}, &answerError{"it is empty"}
	}
	var a answer
	if err := json.Unmarshal(trimmed, &a); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) && syntax.Offset >= int64(len(trimmed)) {
			return Result{}, &answerError{"it is cut short (the JSON does not end)"}
		}
		if errors.As(err, &syntax) {
			return Result{}, &answerError{fmt.Sprintf("it is not valid JSON (the problem is near character %d)", syntax.Offset)}
		}
		return Result{}, &answerError{"it is not the kind of answer this destination gives"}
	}
	r := Result{Raw: json.RawMessage(bytes.Clone(trimmed))}
	switch d.Kind {
	case GmailInsert, GmailImport, GmailSend:
		r.ID, r.ThreadID = string(a.ID), a.ThreadID
		verb := map[Kind]string{GmailInsert: "Saved in the mailbox", GmailImport: "Imported into the mailbox", GmailSend: "Sent"}[d.Kind]
		r.Summary = verb + "."
		if r.ID != "" {
			r.Summary = fmt.Sprintf("%s (message %s).", verb, r.ID)
		}
	case GmailDraft:
		r.ID = string(a.ID)
		if a.Message != nil {
			r.ThreadID = a.Message.ThreadID
		}
		switch {
		case d.Param("draftId") != "" && r.ID != "":
			r.Summary = fmt.Sprintf("Draft %s updated.", r.ID)
		case d.Param("draftId") != "":
			r.Summary = "Draft updated."
		case r.ID != "":
			r.Summary = fmt.Sprintf("Saved as draft %s.", r.ID)
		default:
			r.Summary = "Saved as a draft."
		}
	case CM360:
		r.ID = string(a.ID)
		if a.AssetIdentifier != nil {
			r.Name = a.AssetIdentifier.Name
		}
		switch {
		case r.ID != "" && r.Name != "":
			r.Summary = fmt.Sprintf("Added to Campaign Manager 360 as asset %s (%s).", r.ID, r.Name)
		case r.Name != "":
			r.Summary = fmt.Sprintf("Added to Campaign Manager 360 as %s.", r.Name)
		default:
			r.Summary = "Added to Campaign Manager 360."
		}
		if len(a.Warned) > 0 {
			r.Summary += " Google noted: " + strings.Join(a.Warned, ", ") + "."
		}
	case PlayGames:
		r.ID, r.URL = a.ResourceID, a.URL
		what := "achievement or leaderboard"
		switch a.ImageType {
		case "ACHIEVEMENT_ICON":
			what = "achievement"
		case "LEADERBOARD_ICON":
			what = "leaderboard"
		}
		r.Summary = "The image is now the icon of the " + what
		if r.ID != "" {
			r.Summary = fmt.Sprintf("The image is now the icon of %s %s", what, r.ID)
		}
		if r.URL != "" {
			r.Summary += ", at " + r.URL
		}
		r.Summary += "."
	default:
		r.ID = string(a.ID)
		r.Name = firstOf(a.Name, a.Title)
		if a.Snippet != nil {
			r.Name = firstOf(r.Name, a.Snippet.Title)
		}
		r.URL = firstOf(a.MediaLink, a.SelfLink, a.WebView, a.URL)
		where := "Uploaded"
		if d.Kind == Sandbox {
			where = "Uploaded to the sandbox"
		}
		switch {
		case r.Name != "" && r.ID != "" && r.Name != r.ID:
			r.Summary = fmt.Sprintf("%s as %s (id %s).", where, r.Name, r.ID)
		case r.Name != "":
			r.Summary = fmt.Sprintf("%s as %s.", where, r.Name)
		case r.ID != "":
			r.Summary = fmt.Sprintf("%s (id %s).", where, r.ID)
		default:
			r.Summary = where + "."
		}
	}
	return r, nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
