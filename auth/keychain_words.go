package auth

// keychainWords are the sentences of ErrNoKeychain and ErrKeychainLocked on
// goos (a runtime.GOOS value), naming the keychain as that system does and
// saying what the user can do there.
func keychainWords(goos string) (none, locked string) {
	switch goos {
	case "windows":
		return "Windows Credential Manager cannot be reached, so Hoist has no safe place to keep your Google sign-in.",
			"Windows Credential Manager refused or did not answer. Sign out of Windows and in again, then try again."
	case "darwin":
		return "The macOS keychain cannot be reached, so Hoist has no safe place to keep your Google sign-in.",
			"The macOS keychain is locked or did not answer. Unlock the login keychain (in Keychain Access, or by signing in to your Mac again) and try again."
	}
	return "This computer has no keychain where Hoist can keep your Google sign-in safe.",
		"The keychain is locked or did not answer. Unlock it (for example by signing in to your computer again) and try again."
}
