package auth

import (
	"errors"
	"strings"

	"github.com/godbus/dbus/v5"
)

// keychainPreflight reports a missing session bus as ErrNoKeychain before
// go-keyring turns it into an error that cannot be told apart.
func keychainPreflight() error {
	if _, err := dbus.SessionBus(); err != nil {
		return failure(ErrNoKeychain, err)
	}
	return nil
}

// isNoSecretService reports a session bus on which nothing provides the
// Secret Service.
func isNoSecretService(err error) bool {
	var name string
	var value dbus.Error
	var pointer *dbus.Error
	switch {
	case errors.As(err, &value):
		name = value.Name
	case errors.As(err, &pointer):
		name = pointer.Name
	default:
		return false
	}
	return name == "org.freedesktop.DBus.Error.ServiceUnknown" ||
		name == "org.freedesktop.DBus.Error.NameHasNoOwner" ||
		strings.HasPrefix(name, "org.freedesktop.DBus.Error.Spawn.")
}
