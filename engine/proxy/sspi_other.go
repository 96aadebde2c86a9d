//go:build !windows

package proxy

// systemSignIn is nil: only Windows signs in to a proxy as the user.
var systemSignIn startHandshake
