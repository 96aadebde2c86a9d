//go:build !windows || !(amd64 || arm64)

package ui

// takeMailDrags has nothing to do where mail programs drag files the
// toolkit already takes (X11's XDND and Wayland offer files as files).
func (d *desk) takeMailDrags(string) {}
