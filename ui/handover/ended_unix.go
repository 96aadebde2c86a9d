//go:build !windows

package handover

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// processEnded reports whether process pid has ended: it is gone, or it
// has exited and only waits for its parent to read its status (a zombie,
// which holds no file open any more).
func processEnded(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	// Linux says a zombie's state in /proc; elsewhere only "gone" is known.
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// "pid (name) S ...": the name may hold spaces and parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z' || stat[i+2] == 'X'
	}
	return false
}
