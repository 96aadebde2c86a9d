//go:build !linux

package auth

func keychainPreflight() error { return nil }

func isNoSecretService(error) bool { return false }
