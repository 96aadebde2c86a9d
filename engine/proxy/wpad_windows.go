package proxy

import (
	"context"
	"unsafe"

	"golang.org/x/sys/windows"
)

// WinHTTP's automatic detection, and the kernel's way to free its answer.
var (
	winHTTP            = windows.NewLazySystemDLL("winhttp.dll")
	detectAutoProxyURL = winHTTP.NewProc("WinHttpDetectAutoProxyConfigUrl")
	kernel32           = windows.NewLazySystemDLL("kernel32.dll")
	globalFree         = kernel32.NewProc("GlobalFree")
)

// Kinds of detection WinHttpDetectAutoProxyConfigUrl runs.
const (
	autoDetectDHCP = 0x1 // WINHTTP_AUTO_DETECT_TYPE_DHCP
	autoDetectDNS  = 0x2 // WINHTTP_AUTO_DETECT_TYPE_DNS_A
)

// systemDHCP asks WinHTTP, which reads the DHCP lease's option 252 and
// then walks the DNS domain as Windows itself does.
func (Detector) systemDHCP() (func(ctx context.Context) (string, error), string) {
	return winHTTPDetect, ByWinHTTP
}

// winHTTPDetect runs WinHTTP's detection. The call cannot be stopped: it
// runs in a goroutine of its own that ends when WinHTTP answers, and the
// caller stops waiting when ctx ends.
func winHTTPDetect(ctx context.Context) (string, error) {
	type result struct {
		address string
		err     error
	}
	done := make(chan result, 1)
	go func() {
		var answer *uint16
		r, _, err := detectAutoProxyURL.Call(autoDetectDHCP|autoDetectDNS, uintptr(unsafe.Pointer(&answer)))
		if r == 0 {
			done <- result{err: err}
			return
		}
		address := windows.UTF16PtrToString(answer)
		_, _, _ = globalFree.Call(uintptr(unsafe.Pointer(answer)))
		done <- result{address: address}
	}()
	select {
	case r := <-done:
		return r.address, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// systemDomains is the computer's primary DNS domain, which Windows does
// not write in a resolver's file.
func systemDomains() []string {
	n := uint32(256)
	buf := make([]uint16, n)
	if windows.GetComputerNameEx(windows.ComputerNameDnsDomain, &buf[0], &n) != nil || n == 0 {
		return nil
	}
	return []string{windows.UTF16ToString(buf[:n])}
}
