package auth

import (
	"runtime"
	"strings"
	"testing"
)

func TestKeychainWordsNameEachSystemsKeychain(t *testing.T) {
	tests := []struct {
		goos, name string
	}{
		{"windows", "Windows Credential Manager"},
		{"darwin", "macOS keychain"},
		{"linux", "keychain"},
		{"freebsd", "keychain"},
	}
	for _, tt := range tests {
		none, locked := keychainWords(tt.goos)
		for _, s := range []string{none, locked} {
			if !strings.Contains(s, tt.name) {
				t.Errorf("%s: %q does not name %q", tt.goos, s, tt.name)
			}
			if !strings.HasSuffix(s, ".") {
				t.Errorf("%s: %q is not a sentence", tt.goos, s)
			}
		}
		if none == locked {
			t.Errorf("%s: the missing and the locked keychain read the same", tt.goos)
		}
	}
	none, locked := keychainWords(runtime.GOOS)
	if ErrNoKeychain.Error() != none || ErrKeychainLocked.Error() != locked {
		t.Errorf("this system's keychain errors do not use its words")
	}
}
