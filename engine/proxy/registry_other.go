//go:build !windows

package proxy

// systemRegistry is nil where there is no Windows registry.
func (Finder) systemRegistry() Registry { return nil }
