package cli

import (
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// windowsShell is the command line Hoist was started from: the Command
// Prompt when its parent process is cmd.exe, else PowerShell (Windows'
// own terminal opens it, and it reads single quotes).
func windowsShell() shell {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return powerShell
	}
	defer windows.CloseHandle(snap)
	parents := map[uint32]uint32{}
	names := map[uint32]string{}
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		parents[e.ProcessID] = e.ParentProcessID
		names[e.ProcessID] = windows.UTF16ToString(e.ExeFile[:])
	}
	parent := names[parents[uint32(os.Getpid())]]
	if strings.EqualFold(filepath.Base(parent), "cmd.exe") {
		return cmdShell
	}
	return powerShell
}
