package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"hoist/engine/fact"
)

// Result is what the destination made of the file, in its own terms.
type Result struct {
	ID       string // Gmail message or draft id, CM360 asset id, object id
	ThreadID string // Gmail conversation
	Name     string // CM360 asset name, object name
	URL      string // Play Games image URL, or a link to the object
	Summary  string // one plain sentence
	// Fact says Summary in no language: its code and what the server gave.
	Fact fact.Fact
	Raw  json.RawMessage
}

// resultFact is a fact of what a destination made of a file, with the
// values the server gave that are not "".
func resultFact(code fact.Code, r *Result, more ...string) fact.Fact {
	f := fact.Fact{Code: code}
	set := func(k, v string) {
		if v == "" {
			return
		}
		if f.Args == nil {
			f.Args = map[string]string{}
		}
		f.Args[k] = v
	}
	set("id", r.ID)
	set("title", r.Name)
	set("url", r.URL)
	for i := 0; i+1 < len(more); i += 2 {
		set(more[i], more[i+1])
	}
	return f
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
		if r, ok := d.of().emptyAnswer(d); ok {
			return r, nil
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
	d.of().result(d, a, &r)
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
