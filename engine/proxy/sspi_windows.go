package proxy

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The user's own Windows sign-in, through the Security Support Provider
// Interface in secur32.dll: the system makes Negotiate's (Kerberos or
// NTLM) or NTLM's messages for the signed-in user, who types nothing.

var (
	secur32                        = windows.NewLazySystemDLL("secur32.dll")
	procAcquireCredentialsHandleW  = secur32.NewProc("AcquireCredentialsHandleW")
	procInitializeSecurityContextW = secur32.NewProc("InitializeSecurityContextW")
	procCompleteAuthToken          = secur32.NewProc("CompleteAuthToken")
	procFreeContextBuffer          = secur32.NewProc("FreeContextBuffer")
	procDeleteSecurityContext      = secur32.NewProc("DeleteSecurityContext")
	procFreeCredentialsHandle      = secur32.NewProc("FreeCredentialsHandle")
)

// From sspi.h.
const (
	secpkgCredOutbound          = 2
	securityNativeDrep          = 0x10
	iscReqAllocateMemory        = 0x100
	iscReqConnection            = 0x800
	secbufferToken              = 2
	secbufferVersion            = 0
	secEOK                      = 0
	secIContinueNeeded          = 0x00090312
	secICompleteNeeded          = 0x00090313
	secICompleteAndContinue     = 0x00090314
	secWinntAuthIdentityUnicode = 2
)

type secHandle struct{ lower, upper uintptr }

func (h *secHandle) set() bool { return h.lower != 0 || h.upper != 0 }

type secBuffer struct {
	size  uint32
	kind  uint32
	bytes *byte
}

type secBufferDesc struct {
	version uint32
	count   uint32
	buffers *secBuffer
}

// authIdentity is SEC_WINNT_AUTH_IDENTITY_W: lengths in characters, without the end.
type authIdentity struct {
	user           *uint16
	userLength     uint32
	domain         *uint16
	domainLength   uint32
	password       *uint16
	passwordLength uint32
	flags          uint32
}

// systemSignIn signs in to a proxy as the signed-in Windows user.
var systemSignIn startHandshake = func(scheme, proxy string) (handshake, error) {
	h, err := newSSPI(scheme, proxy, nil)
	if err != nil {
		return nil, err
	}
	return h, nil
}

// sspiHandshake is one sign-in through SSPI: its credentials and context.
type sspiHandshake struct {
	target  []uint16 // HTTP/<proxy host>
	cred    secHandle
	ctx     secHandle
	done    bool
	started bool
}

// newSSPI acquires the credentials of package (Negotiate or NTLM) for the
// proxy at host:port: the signed-in user's when as is nil; as is only for
// tests, where no user is signed in to a domain.
func newSSPI(pkg, proxy string, as *explicitLogin) (*sspiHandshake, error) {
	name, err := windows.UTF16PtrFromString(pkg)
	if err != nil {
		return nil, err
	}
	target, err := windows.UTF16FromString("HTTP/" + hostOnly(proxy))
	if err != nil {
		return nil, err
	}
	h := &sspiHandshake{target: target}
	var id *authIdentity
	var keep [3][]uint16
	if as != nil {
		id = &authIdentity{flags: secWinntAuthIdentityUnicode}
		for i, f := range []struct {
			s   string
			p   **uint16
			len *uint32
		}{{as.user, &id.user, &id.userLength}, {as.domain, &id.domain, &id.domainLength}, {as.password, &id.password, &id.passwordLength}} {
			if keep[i], err = windows.UTF16FromString(f.s); err != nil {
				return nil, err
			}
			*f.p, *f.len = &keep[i][0], uint32(len(keep[i])-1)
		}
	}
	var expiry int64
	r, _, _ := procAcquireCredentialsHandleW.Call(0, uintptr(unsafe.Pointer(name)), secpkgCredOutbound, 0,
		uintptr(unsafe.Pointer(id)), 0, 0, uintptr(unsafe.Pointer(&h.cred)), uintptr(unsafe.Pointer(&expiry)))
	runtime.KeepAlive(keep)
	runtime.KeepAlive(id)
	if status := uint32(r); status != secEOK {
		return nil, &sspiError{call: "AcquireCredentialsHandle(" + pkg + ")", status: status}
	}
	return h, nil
}

// explicitLogin is a name and password given to SSPI instead of the
// signed-in user's: for tests only.
type explicitLogin struct{ domain, user, password string }

// Next gives the first message (challenge nil) or the answer to the proxy's challenge.
func (h *sspiHandshake) Next(challenge []byte) ([]byte, error) {
	if h.done || (h.started && challenge == nil) {
		return nil, errHandshakeDone
	}
	var in *secBufferDesc
	if challenge != nil {
		in = &secBufferDesc{version: secbufferVersion, count: 1,
			buffers: &secBuffer{size: uint32(len(challenge)), kind: secbufferToken, bytes: &challenge[0]}}
	}
	outBuf := secBuffer{kind: secbufferToken}
	out := secBufferDesc{version: secbufferVersion, count: 1, buffers: &outBuf}
	var ctx *secHandle
	if h.started {
		ctx = &h.ctx
	}
	var attrs uint32
	var expiry int64
	r, _, _ := procInitializeSecurityContextW.Call(uintptr(unsafe.Pointer(&h.cred)), uintptr(unsafe.Pointer(ctx)),
		uintptr(unsafe.Pointer(&h.target[0])), iscReqAllocateMemory|iscReqConnection, 0, securityNativeDrep,
		uintptr(unsafe.Pointer(in)), 0, uintptr(unsafe.Pointer(&h.ctx)), uintptr(unsafe.Pointer(&out)),
		uintptr(unsafe.Pointer(&attrs)), uintptr(unsafe.Pointer(&expiry)))
	runtime.KeepAlive(challenge)
	runtime.KeepAlive(in)
	h.started = true
	status := uint32(r)
	if status == secICompleteNeeded || status == secICompleteAndContinue {
		if c, _, _ := procCompleteAuthToken.Call(uintptr(unsafe.Pointer(&h.ctx)), uintptr(unsafe.Pointer(&out))); uint32(c) != secEOK {
			status = uint32(c)
		}
	}
	var token []byte
	if outBuf.bytes != nil {
		token = append(token, unsafe.Slice(outBuf.bytes, outBuf.size)...)
		procFreeContextBuffer.Call(uintptr(unsafe.Pointer(outBuf.bytes)))
	}
	switch status {
	case secEOK, secICompleteNeeded:
		h.done = true
	case secIContinueNeeded, secICompleteAndContinue:
	default:
		return nil, &sspiError{call: "InitializeSecurityContext(" + windows.UTF16ToString(h.target) + ")", status: status}
	}
	if len(token) == 0 {
		return nil, errHandshakeDone
	}
	return token, nil
}

// sspiError is a call to SSPI that failed, with its SECURITY_STATUS in hex
// as Microsoft's documents list them (SEC_E_NO_CREDENTIALS is 0x8009030E).
type sspiError struct {
	call   string
	status uint32
}

func (e *sspiError) Error() string { return fmt.Sprintf("%s answered 0x%08X", e.call, e.status) }
func (e *sspiError) Unwrap() error { return windows.Errno(e.status) }

// Close frees the context and the credentials.
func (h *sspiHandshake) Close() {
	if h.ctx.set() {
		procDeleteSecurityContext.Call(uintptr(unsafe.Pointer(&h.ctx)))
		h.ctx = secHandle{}
	}
	if h.cred.set() {
		procFreeCredentialsHandle.Call(uintptr(unsafe.Pointer(&h.cred)))
		h.cred = secHandle{}
	}
}
