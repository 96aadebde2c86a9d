package authtest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Page is what the browser ended up showing.
type Page struct {
	Status int
	Body   string
	Err    error
}

// Browser plays the user's browser: Open visits the consent page (the
// server agrees at once) and follows the redirect back to the app's
// loopback listener, in the background as a real browser would.
type Browser struct {
	// BeforeReturn, if set, runs with the redirect address before the
	// browser follows it (to send forged or repeated callbacks first).
	BeforeReturn func(callbackURL string)

	wg     sync.WaitGroup
	mu     sync.Mutex
	opened []string
	pages  []Page
}

// Open implements Service.OpenBrowser.
func (b *Browser) Open(authURL string) error {
	b.mu.Lock()
	b.opened = append(b.opened, authURL)
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		page := b.visit(authURL)
		b.mu.Lock()
		b.pages = append(b.pages, page)
		b.mu.Unlock()
	}()
	return nil
}

func (b *Browser) visit(authURL string) Page {
	callback, err := Consent(authURL)
	if err != nil {
		return Page{Err: err}
	}
	if b.BeforeReturn != nil {
		b.BeforeReturn(callback)
	}
	return Get(callback)
}

// Wait waits for every visit to end and returns the pages shown.
func (b *Browser) Wait() []Page {
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Page(nil), b.pages...)
}

// Opened lists the addresses the browser was asked to open.
func (b *Browser) Opened() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.opened...)
}

// Consent visits the consent page and returns where it redirects to.
func Consent(authURL string) (string, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	resp, err := client.Get(authURL)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusFound {
		return "", fmt.Errorf("consent page answered %s: %s", resp.Status, body)
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return "", errors.New("consent page redirected nowhere")
	}
	return loc, nil
}

// Get fetches u and returns the page.
func Get(u string) Page {
	resp, err := http.Get(u)
	if err != nil {
		return Page{Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return Page{Status: resp.StatusCode, Body: string(body), Err: err}
}
