package auth

import (
	"fmt"
	"testing"

	"hoist/engine/fact"
)

// TestErrorsAreFacts: every sign-in error the command line and the window
// show has a fact, wrapped or not; other errors have none.
func TestErrorsAreFacts(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want fact.Code
	}{
		{fmt.Errorf("loading: %w", ErrKeychainLocked), fact.KeychainLocked},
		{failure(ErrNoIdentity, fmt.Errorf("ID token is not a JWT")), fact.NoIdentity},
		{&SignInAgainError{Missing: []string{"https://www.googleapis.com/auth/drive.file"}}, fact.MoreAccess},
		{&SignInAgainError{}, fact.SignInAgain},
		{&ConsentError{Code: "org_internal"}, fact.OrgInternal},
		{&ConsentError{Code: "temporarily_unavailable"}, fact.ConsentFailed},
	} {
		f, ok := Fact(tt.err)
		if !ok || f.Code != tt.want {
			t.Errorf("Fact(%v) = %+v, %v; want %s", tt.err, f, ok, tt.want)
		}
	}
	if f, ok := Fact(&ConsentError{Code: "temporarily_unavailable"}); f.Google != "temporarily_unavailable" {
		t.Errorf("the consent page's code is not kept: %+v, %v", f, ok)
	}
	if f, ok := Fact(organisationClientError("/etc/hoist/client.json", ErrNotDesktopClient, "it is for a web application.")); ok {
		t.Errorf("a sentence that names the file became the fact %+v", f)
	}
	if f, ok := Fact(fmt.Errorf("something else")); ok {
		t.Errorf("an error that is not the sign-in's has the fact %+v", f)
	}
}
