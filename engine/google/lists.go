// Package google fetches the lists behind Hoist's pickers, so people choose
// names instead of typing ids: Campaign Manager 360 user profiles and
// advertisers, and Gmail labels. It takes an HTTP client that already
// carries the account's authorization; it knows nothing of signing in.
package google

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Scopes the lists need. CM360's lists use the scope its uploads use; Gmail's
// labels need their own, asked for only when a label picker opens.
const (
	ScopeCM360       = "https://www.googleapis.com/auth/dfatrafficking"
	ScopeGmailLabels = "https://www.googleapis.com/auth/gmail.labels"
)

// Google's hosts for the lists, replaced by Lister.BaseURL when it is set.
const (
	CM360Host = "https://dfareporting.googleapis.com"
	GmailHost = "https://gmail.googleapis.com"
)

// maxPages bounds how many pages of advertisers are fetched for one list.
const maxPages = 20

// maxBody bounds what is read of one answer.
const maxBody = 8 << 20

// Lister fetches lists from Google with an account's authorized client.
type Lister struct {
	Client *http.Client // carries the account's authorization
	// BaseURL, when set, replaces Google's scheme and host (the sandbox).
	BaseURL string
}

// Profile is a Campaign Manager 360 user profile.
type Profile struct {
	ID          string `json:"profileId"`
	UserName    string `json:"userName"`
	AccountID   string `json:"accountId"`
	AccountName string `json:"accountName"`
}

// Words is how a picker shows the profile.
func (p Profile) Words() string {
	switch {
	case p.AccountName != "" && p.UserName != "":
		return p.AccountName + " — " + p.UserName
	case p.AccountName != "":
		return p.AccountName
	}
	return p.UserName
}

// Advertiser is a Campaign Manager 360 advertiser.
type Advertiser struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Label is a Gmail label: its id is what Gmail takes, its name what people know.
type Label struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"` // "system" or "user"
}

// Error is an error answer from Google; Message is Google's own words.
type Error struct {
	Status  int
	Reason  string
	Message string
	What    string // what was being fetched, e.g. "the advertisers"
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Message)
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	lead := fmt.Sprintf("Google did not give %s", e.What)
	switch e.Status {
	case http.StatusUnauthorized:
		lead += " because the sign-in is no longer valid; sign in again"
	case http.StatusForbidden:
		lead += " because this account may not see them"
	}
	return fmt.Sprintf("%s. Google said: \u201c%s\u201d (%d)", lead, strings.TrimSuffix(msg, "."), e.Status)
}

// ErrUnreachable matches a list that could not be fetched for want of a network.
var ErrUnreachable = errors.New("Hoist could not reach Google to fetch the list. Check the internet connection, or type the ID.")

// Profiles lists the account's Campaign Manager 360 user profiles.
func (l *Lister) Profiles(ctx context.Context) ([]Profile, error) {
	var out struct {
		Items []Profile `json:"items"`
	}
	err := l.get(ctx, CM360Host, "/dfareporting/v5/userprofiles", nil, "the user profiles", &out)
	return out.Items, err
}

// Advertisers lists the advertisers a profile may see, those whose name
// contains search when it is not empty.
func (l *Lister) Advertisers(ctx context.Context, profileID, search string) ([]Advertiser, error) {
	profileID = strings.TrimSpace(profileID)
	if profileID == "" {
		return nil, errors.New("Choose the user profile first: the advertisers are listed for it.")
	}
	var all []Advertiser
	q := url.Values{"maxResults": {"1000"}, "sortField": {"NAME"}}
	if s := strings.TrimSpace(search); s != "" {
		q.Set("searchString", s)
	}
	for range maxPages {
		var page struct {
			Advertisers   []Advertiser `json:"advertisers"`
			NextPageToken string       `json:"nextPageToken"`
		}
		path := "/dfareporting/v5/userprofiles/" + url.PathEscape(profileID) + "/advertisers"
		if err := l.get(ctx, CM360Host, path, q, "the advertisers", &page); err != nil {
			return all, err
		}
		all = append(all, page.Advertisers...)
		if page.NextPageToken == "" {
			break
		}
		q.Set("pageToken", page.NextPageToken)
	}
	return all, nil
}

// Labels lists the labels of a mailbox ("me" when user is empty).
func (l *Lister) Labels(ctx context.Context, user string) ([]Label, error) {
	if user = strings.TrimSpace(user); user == "" {
		user = "me"
	}
	var out struct {
		Labels []Label `json:"labels"`
	}
	err := l.get(ctx, GmailHost, "/gmail/v1/users/"+url.PathEscape(user)+"/labels", nil, "the labels", &out)
	return out.Labels, err
}

func (l *Lister) get(ctx context.Context, host, path string, q url.Values, what string, into any) error {
	base := host
	if l.BaseURL != "" {
		base = strings.TrimRight(l.BaseURL, "/")
	}
	u := base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("fetching %s: %w", what, err)
	}
	req.Header.Set("Accept", "application/json")
	client := l.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var signIn interface{ Retryable() bool }
		if errors.As(err, &signIn) {
			return err // the sign-in's own sentence
		}
		return fmt.Errorf("%w (%w)", ErrUnreachable, stripURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("%w (%w)", ErrUnreachable, stripURL(err))
	}
	if resp.StatusCode/100 != 2 {
		return googleError(resp.StatusCode, body, what)
	}
	if err := json.Unmarshal(body, into); err != nil {
		return fmt.Errorf("Google's list of %s could not be read; type the ID instead.", strings.TrimPrefix(what, "the "))
	}
	return nil
}

// stripURL keeps the request's address (which may carry ids) out of the message.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// googleError reads Google's JSON error shape, falling back to the status.
func googleError(status int, body []byte, what string) error {
	var shape struct {
		Error struct {
			Message string `json:"message"`
			Errors  []struct {
				Reason string `json:"reason"`
			} `json:"errors"`
		} `json:"error"`
	}
	e := &Error{Status: status, What: what}
	if json.Unmarshal(body, &shape) == nil {
		e.Message = shape.Error.Message
		if len(shape.Error.Errors) > 0 {
			e.Reason = shape.Error.Errors[0].Reason
		}
	}
	return e
}
