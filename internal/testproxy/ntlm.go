package testproxy

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"strings"
	"unicode/utf16"

	"golang.org/x/crypto/md4"
)

// WithNTLM makes the proxy ask for an NTLM sign-in (offering NTLM and
// Negotiate) and check the answer for real: it sends a challenge and, on
// the authenticate message, recomputes NTLMv2's proof from this password
// (MS-NLMP 3.3.2). The name may come as domain\user or user@domain.
func WithNTLM(domain, user, password string) Option {
	return func(p *Proxy) { p.ntlm = &ntlmAccount{domain: domain, user: user, password: password} }
}

type ntlmAccount struct{ domain, user, password string }

// ntlmState is one connection's handshake: the challenge it was sent.
type ntlmState struct{ challenge []byte }

const ntlmAsk = "Proxy-Authenticate: NTLM\r\nProxy-Authenticate: Negotiate\r\n"

// checkNTLM says whether req is signed in; otherwise the header lines of
// the 407 to answer (a challenge on a negotiate message).
func (a *ntlmAccount) check(req *http.Request, st *ntlmState) (ok bool, ask string) {
	scheme, token, _ := strings.Cut(req.Header.Get("Proxy-Authorization"), " ")
	msg, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if (scheme != "NTLM" && scheme != "Negotiate") || err != nil || len(msg) < 12 || !bytes.Equal(msg[:8], []byte("NTLMSSP\x00")) {
		return false, ntlmAsk
	}
	switch binary.LittleEndian.Uint32(msg[8:12]) {
	case 1:
		st.challenge = make([]byte, 8)
		_, _ = rand.Read(st.challenge)
		return false, "Proxy-Authenticate: " + scheme + " " + base64.StdEncoding.EncodeToString(a.challengeMessage(st.challenge)) + "\r\n"
	case 3:
		challenge := st.challenge
		st.challenge = nil
		if challenge != nil && a.verify(msg, challenge) {
			return true, ""
		}
	}
	return false, ntlmAsk
}

// challengeMessage is the type-2 message: NTLM, Unicode, NTLMv2 session
// security, the server challenge and target information.
func (a *ntlmAccount) challengeMessage(challenge []byte) []byte {
	name := utf16le(strings.ToUpper(a.domain))
	var info []byte
	info = appendAV(info, 2, name)                   // MsvAvNbDomainName
	info = appendAV(info, 1, utf16le("OFFICEPROXY")) // MsvAvNbComputerName
	info = appendAV(info, 0, nil)                    // MsvAvEOL
	const flags = 0x00000001 | 0x00000004 | 0x00000200 | 0x00008000 | 0x00010000 | 0x00080000 | 0x00800000 | 0x20000000 | 0x80000000
	m := make([]byte, 56)
	copy(m, "NTLMSSP\x00")
	binary.LittleEndian.PutUint32(m[8:], 2)
	putField(m[12:], len(name), 56)
	binary.LittleEndian.PutUint32(m[20:], flags)
	copy(m[24:32], challenge)
	putField(m[40:], len(info), 56+len(name))
	return append(append(m, name...), info...)
}

// verify recomputes NTProofStr = HMAC-MD5(NTOWFv2, serverChallenge + blob)
// with NTOWFv2 = HMAC-MD5(MD4(UTF-16LE(password)), UTF-16LE(UPPER(user) +
// domain)), and checks that the name is the account's.
func (a *ntlmAccount) verify(msg, challenge []byte) bool {
	nt, ok1 := field(msg, 20)
	domainRaw, ok2 := field(msg, 28)
	userRaw, ok3 := field(msg, 36)
	if !ok1 || !ok2 || !ok3 || len(nt) < 16+28 {
		return false
	}
	domain, user := fromUTF16(domainRaw), fromUTF16(userRaw)
	named := strings.EqualFold(user, a.user) && strings.EqualFold(domain, a.domain) ||
		domain == "" && strings.EqualFold(user, a.user+"@"+a.domain)
	if !named {
		return false
	}
	h := md4.New()
	h.Write(utf16le(a.password))
	ntowf := hmacMD5(h.Sum(nil), utf16le(strings.ToUpper(user)+domain))
	proof := hmacMD5(ntowf, append(append([]byte{}, challenge...), nt[16:]...))
	return hmac.Equal(proof, nt[:16])
}

func hmacMD5(key, data []byte) []byte {
	m := hmac.New(md5.New, key)
	m.Write(data)
	return m.Sum(nil)
}

// field is the payload a message's field description at off points to.
func field(msg []byte, off int) ([]byte, bool) {
	if len(msg) < off+8 {
		return nil, false
	}
	n := int(binary.LittleEndian.Uint16(msg[off:]))
	at := int(binary.LittleEndian.Uint32(msg[off+4:]))
	if at < 0 || at+n > len(msg) {
		return nil, false
	}
	return msg[at : at+n], true
}

func putField(b []byte, n, at int) {
	binary.LittleEndian.PutUint16(b, uint16(n))
	binary.LittleEndian.PutUint16(b[2:], uint16(n))
	binary.LittleEndian.PutUint32(b[4:], uint32(at))
}

func appendAV(b []byte, id uint16, value []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, id)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(value)))
	return append(b, value...)
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func fromUTF16(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}
