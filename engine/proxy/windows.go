package proxy

import (
	"encoding/binary"
	"strings"
)

// Registry reads values of Windows' registry; key begins with its hive
// (`HKCU\…` or `HKLM\…`); ok is false for a key or value that is not there.
type Registry interface {
	String(key, name string) (value string, ok bool)
	Integer(key, name string) (value uint64, ok bool)
	Binary(key, name string) (value []byte, ok bool)
}

// Where Windows keeps its proxy settings.
const (
	internetSettings = `Software\Microsoft\Windows\CurrentVersion\Internet Settings`
	policySettings   = `Software\Policies\Microsoft\Windows\CurrentVersion\Internet Settings`
	connections      = `HKCU\` + internetSettings + `\Connections`
	winHTTPSettings  = `HKLM\` + internetSettings + `\Connections`
)

// Flags of a connection's settings (DefaultConnectionSettings, WinHttpSettings).
const (
	connProxy      = 0x2
	connScript     = 0x4
	connAutoDetect = 0x8
)

// FromRegistry is the setting Windows' registry holds, as WinHTTP reads it:
// values Group Policy set (the computer's, then the user's), then the user's
// Internet Options — a PAC address, a fixed proxy with its bypass list,
// automatic detection — then the computer's WinHTTP proxy (netsh winhttp).
func FromRegistry(r Registry) (Setting, bool) {
	for _, k := range []struct {
		key    string
		origin Origin
	}{
		{`HKLM\` + policySettings, FromWindowsPolicy},
		{`HKCU\` + policySettings, FromWindowsPolicy},
		{`HKCU\` + internetSettings, FromWindows},
	} {
		if s, ok := internetOptions(r, k.key, k.origin); ok {
			return s, true
		}
	}
	if blob, ok := r.Binary(connections, "DefaultConnectionSettings"); ok {
		if flags, _, _, _, ok := connectionSettings(blob); ok && flags&connAutoDetect != 0 {
			return Setting{Origin: FromWindows, Where: connections, Mode: Script, Detect: true}, true
		}
	}
	if blob, ok := r.Binary(winHTTPSettings, "WinHttpSettings"); ok {
		if flags, server, bypass, _, ok := connectionSettings(blob); ok && flags&connProxy != 0 && server != "" {
			s := fixed(server, bypass)
			s.Origin, s.Where = FromWinHTTP, winHTTPSettings
			return s, true
		}
	}
	return Setting{}, false
}

func internetOptions(r Registry, key string, o Origin) (Setting, bool) {
	if pac, ok := r.String(key, "AutoConfigURL"); ok && strings.TrimSpace(pac) != "" {
		return Setting{Origin: o, Where: key, Mode: Script, PAC: strings.TrimSpace(pac)}, true
	}
	on, _ := r.Integer(key, "ProxyEnable")
	server, _ := r.String(key, "ProxyServer")
	if on == 0 || strings.TrimSpace(server) == "" {
		return Setting{}, false
	}
	bypass, _ := r.String(key, "ProxyOverride")
	s := fixed(server, bypass)
	s.Origin, s.Where = o, key
	return s, true
}

// fixed reads ProxyServer ("host:port", or "http=h:p;https=h:p;socks=h:p")
// and ProxyOverride ("a;b;<local>").
func fixed(server, bypass string) Setting {
	s := Setting{Mode: Manual}
	if !strings.Contains(server, "=") {
		s.HTTP, s.HTTPS = strings.TrimSpace(server), strings.TrimSpace(server)
	} else {
		for _, part := range strings.FieldsFunc(server, func(r rune) bool { return r == ';' || r == ' ' }) {
			scheme, addr, _ := strings.Cut(part, "=")
			switch strings.ToLower(scheme) {
			case "http":
				s.HTTP = addr
			case "https":
				s.HTTPS = addr
			case "socks":
				s.SOCKS = addr
			}
		}
	}
	for _, b := range strings.FieldsFunc(bypass, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' || r == '\r' || r == '\n' }) {
		s.Bypass = append(s.Bypass, b)
	}
	return s
}

// connectionSettings reads a connection's settings as Windows stores them
// (a version, a counter, flags, then the proxy, the bypass list and the PAC
// address, each a length and its bytes); ok is false for a short blob.
func connectionSettings(b []byte) (flags uint32, server, bypass, pac string, ok bool) {
	if len(b) < 12 {
		return 0, "", "", "", false
	}
	flags = binary.LittleEndian.Uint32(b[8:12])
	b = b[12:]
	next := func() (string, bool) {
		if len(b) < 4 {
			return "", false
		}
		n := binary.LittleEndian.Uint32(b[:4])
		if uint64(n) > uint64(len(b)-4) {
			return "", false
		}
		s := string(b[4 : 4+n])
		b = b[4+n:]
		return s, true
	}
	if server, ok = next(); !ok {
		return flags, "", "", "", true
	}
	bypass, _ = next()
	pac, _ = next()
	return flags, server, bypass, pac, true
}
