// Command keychaincheck stores, reads and deletes a sign-in in the system's
// keychain through Hoist's own keychain store, and says whether each step
// did what it should. The Windows test runs it under Wine, where the keychain
// is the Windows Credential Manager; it runs on any system.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"hoist/auth"
)

func main() {
	if err := check(context.Background()); err != nil {
		fmt.Fprintf(os.Stderr, "keychaincheck: FAIL: %v\n", err)
		os.Exit(1)
	}
	fmt.Println("keychaincheck: ok: stored, read back and deleted a sign-in")
}

func check(ctx context.Context) error {
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return err
	}
	k := &auth.Keychain{Service: "Hoist keychain check", Timeout: 30 * time.Second}
	const account = "keychain-check@example.com"
	want := auth.Grant{
		RefreshToken: "1//check-" + hex.EncodeToString(raw[:]),
		Scopes:       []string{"https://www.googleapis.com/auth/gmail.insert"},
		ClientID:     "check.apps.googleusercontent.com",
	}
	if err := k.Set(ctx, account, want); err != nil {
		return fmt.Errorf("storing: %w", err)
	}
	got, err := k.Get(ctx, account)
	if err != nil {
		return fmt.Errorf("reading back: %w", err)
	}
	if got.RefreshToken != want.RefreshToken || got.ClientID != want.ClientID {
		return errors.New("the sign-in read back differs from the one stored")
	}
	if err := k.Delete(ctx, account); err != nil {
		return fmt.Errorf("deleting: %w", err)
	}
	if _, err := k.Get(ctx, account); !errors.Is(err, auth.ErrNotSignedIn) {
		return fmt.Errorf("reading after deleting = %v, want ErrNotSignedIn", err)
	}
	return nil
}
