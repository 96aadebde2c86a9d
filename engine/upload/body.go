package upload

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
	"sync"
)

// metadataType is the content type of the metadata part and session body.
const metadataType = "application/json; charset=UTF-8"

// multipartBody is an RFC 2387 multipart/related body of exactly two
// parts, metadata then media, whose media bytes are streamed from the file.
type multipartBody struct {
	contentType string // multipart/related; boundary=...
	head, tail  []byte // everything before and after the media bytes
}

// newMultipart frames metadata and a media part of the given type with a
// random boundary that does not occur in metadata.
func newMultipart(metadata []byte, mediaType string) (multipartBody, error) {
	var boundary string
	for {
		var raw [24]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return multipartBody{}, fmt.Errorf("making a multipart boundary: %w", err)
		}
		boundary = "hoist_" + hex.EncodeToString(raw[:])
		if !bytes.Contains(metadata, []byte(boundary)) {
			break
		}
	}
	var head bytes.Buffer
	head.Grow(len(metadata) + 2*len(boundary) + len(mediaType) + 80)
	head.WriteString("--" + boundary + "\r\n")
	head.WriteString("Content-Type: " + metadataType + "\r\n\r\n")
	head.Write(metadata)
	head.WriteString("\r\n--" + boundary + "\r\n")
	head.WriteString("Content-Type: " + mediaType + "\r\n\r\n")
	return multipartBody{
		contentType: mime.FormatMediaType("multipart/related", map[string]string{"boundary": boundary}),
		head:        head.Bytes(),
		tail:        []byte("\r\n--" + boundary + "--\r\n"),
	}, nil
}

// size is the exact length of the body around size media bytes.
func (m multipartBody) size(media int64) int64 {
	return int64(len(m.head)) + media + int64(len(m.tail))
}

// checkMediaType refuses a content type that cannot go into a header.
func checkMediaType(t string) error {
	for i := 0; i < len(t); i++ {
		if c := t[i]; (c < ' ' && c != '\t') || c > '~' {
			return fmt.Errorf("%w: the content type has characters a header cannot carry", ErrInvalid)
		}
	}
	if mt, _, err := mime.ParseMediaType(t); err != nil || !strings.Contains(mt, "/") {
		return fmt.Errorf("%w: the content type %q is not a media type", ErrInvalid, t)
	}
	return nil
}

// errDetached ends a body read after its request is over.
var errDetached = errors.New("the request is over")

// payload is the body of one request: optional framing around a section of
// the file. Its readers share one lock so that, once detach returns, the
// transport can no longer touch the file or the observer, even if it goes
// on reading in its own goroutine after Do returned.
type payload struct {
	src        io.ReaderAt
	off, n     int64  // the file's section
	head, tail []byte // multipart framing, nil for raw bytes
	obs        Observer
	watch      *watch
	sum        *fileSum // follows the file's bytes as they are read; nil: none
	// once: the body may go out once only. The transport may not send it
	// again on its own (HTTP/2 replays a request after some stream resets,
	// unseen): a second copy of a one-request upload is a second object.
	once bool
	// last, when set, is called once, under mu, just before the body's
	// last bytes go to the transport: from then on the whole request may
	// reach the server. An error keeps them back: the request fails with it.
	last func() error

	mu        sync.Mutex
	detached  bool
	srcErr    error // reading the file failed; set under mu
	delivered bool  // a reader handed out the last byte; set under mu
	handed    int64 // the end of the file's bytes handed out, as an offset in the file; set under mu
	begun     bool  // a reader handed out a byte; set under mu
	ended     bool  // last was called; set under mu
}

func (p *payload) length() int64 { return int64(len(p.head)) + p.n + int64(len(p.tail)) }

// open returns a fresh reader over the whole body; the transport may ask for
// another one (GetBody) to replay the request.
func (p *payload) open() io.ReadCloser { return &payloadReader{p: p} }

// errNoReplay refuses the transport a second copy of a body that may go out once.
var errNoReplay = errors.New("the request's body went out once and is not sent again unseen")

// replay is the body again from its start, for the transport's GetBody;
// refused for a body that may go out once and has begun to.
func (p *payload) replay() (io.ReadCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.once && p.begun {
		return nil, errNoReplay
	}
	return p.open(), nil
}

// detach ends every reader of p and reports what happened to the body:
// whether all of it went out, how far into the file, and a read error.
func (p *payload) detach() (delivered bool, handed int64, srcErr error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.detached = true
	return p.delivered, p.handed, p.srcErr
}

// payloadReader reads the body from its start: the framing's head, the
// file's section, the framing's tail.
type payloadReader struct {
	p   *payload
	pos int64 // bytes of the body handed out so far
}

func (r *payloadReader) Read(b []byte) (int, error) {
	p := r.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.detached {
		return 0, errDetached
	}
	head, fileEnd, total := int64(len(p.head)), int64(len(p.head))+p.n, p.length()
	var n int
	var err error
	switch {
	case r.pos == total:
		p.delivered = true
		return 0, io.EOF
	case len(b) == 0:
		return 0, nil
	case r.pos < head:
		n = copy(b, p.head[r.pos:])
	case r.pos < fileEnd:
		want := min(int64(len(b)), fileEnd-r.pos)
		n, err = p.src.ReadAt(b[:want], p.off+r.pos-head)
		if int64(n) == want {
			err = nil
			if p.sum != nil {
				p.sum.add(p.off+r.pos-head, b[:n])
			}
		} else if err = p.fileFailed(err); err != nil {
			r.pos += int64(n)
			return n, err
		}
	default:
		n = copy(b, p.tail[r.pos-fileEnd:])
	}
	if r.pos+int64(n) == total && p.last != nil && !p.ended {
		p.ended = true
		if err := p.last(); err != nil {
			p.srcErr = err
			return 0, err
		}
	}
	r.advanceLocked(int64(n))
	if r.pos == total {
		// Its last byte is handed to the transport: the body went out,
		// whether or not the transport asks again for the end (with a
		// known length it may not, and the answer may come first).
		p.delivered = true
	}
	return n, nil
}

// advanceLocked moves the reader on by n bytes that went to the transport.
func (r *payloadReader) advanceLocked(n int64) {
	p := r.p
	before := r.pos
	r.pos += n
	if n > 0 {
		p.begun = true
	}
	if n > 0 && p.watch != nil {
		p.watch.touch()
	}
	head := int64(len(p.head))
	if r.pos > head && before < head+p.n {
		at := p.off + min(r.pos, head+p.n) - head
		p.handed = max(p.handed, at)
		p.obs.Sent(at)
	}
}

// fileFailed records why the file's section could not be read in full: a
// file that came to its end early got shorter, anything else is a read
// error. Both mean the file is no longer the one queued.
func (p *payload) fileFailed(err error) error {
	if err == nil || err == io.EOF {
		err = fmt.Errorf("%w: it is shorter than when it was added", ErrFileChanged)
	} else {
		err = fmt.Errorf("%w: it could not be read: %w", ErrFileChanged, err)
	}
	p.srcErr = err
	return err
}

func (r *payloadReader) Close() error { return nil }
