package handover

import "golang.org/x/sys/windows"

// processEnded reports whether process pid has ended (its program file is
// free to be replaced once it has).
func processEnded(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		// No such process any more (ERROR_INVALID_PARAMETER); a process
		// this user may not open is not one of this user's Hoists.
		return true
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}
