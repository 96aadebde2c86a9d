package proxy

import (
	"bufio"
	"encoding/base64"
	"errors"
	"net"
	"net/http"

	"github.com/Azure/go-ntlmssp"
)

// handshake is one sign-in's messages to a proxy, on one connection: Next
// is given the proxy's challenge (nil at first) and gives the message to
// send back.
type handshake interface {
	Next(challenge []byte) ([]byte, error)
	// Close frees what the system holds for the handshake.
	Close()
}

// errHandshakeDone is a handshake's answer when it has nothing more to
// send: a proxy that still asks has refused it.
var errHandshakeDone = errors.New("the sign-in has no more messages")

// startHandshake begins the user's own sign-in with scheme (Negotiate or
// NTLM, also the name of the system's package) at a proxy's host:port.
type startHandshake func(scheme, proxy string) (handshake, error)

// typedNTLM is NTLM's three messages made with a typed name and password.
type typedNTLM struct {
	user, password string
	sent           int
}

func (t *typedNTLM) Next(challenge []byte) ([]byte, error) {
	t.sent++
	switch {
	case t.sent == 1:
		return ntlmssp.NewNegotiateMessage("", "")
	case t.sent == 2 && challenge != nil:
		return ntlmssp.NewAuthenticateMessage(challenge, t.user, t.password, nil)
	}
	return nil, errHandshakeDone
}

func (t *typedNTLM) Close() {}

// maxRounds bounds the messages of one sign-in: NTLM takes two, Kerberos one.
const maxRounds = 4

// handshakeError is a sign-in that could not make its next message.
type handshakeError struct{ err error }

func (e *handshakeError) Error() string { return "the sign-in to the office proxy: " + e.err.Error() }
func (e *handshakeError) Unwrap() error { return e.err }

// exchange sends h's messages under scheme, each answering the proxy's
// challenge, on one connection: the proxy's last answer.
func exchange(c net.Conn, br *bufio.Reader, h handshake, scheme, target string) (*http.Response, error) {
	var challenge []byte
	var res *http.Response
	for range maxRounds {
		token, err := h.Next(challenge)
		if errors.Is(err, errHandshakeDone) && res != nil {
			return res, nil // the proxy asks again after the last message: refused
		}
		if err != nil {
			return nil, &handshakeError{err}
		}
		res, err = connect(c, br, target, scheme+" "+base64.StdEncoding.EncodeToString(token))
		if err != nil || res.StatusCode != http.StatusProxyAuthRequired {
			return res, err
		}
		if challenge = challengeIn(res, scheme); challenge == nil {
			return res, nil // the proxy does not go on with these messages: refused
		}
	}
	return res, nil
}
