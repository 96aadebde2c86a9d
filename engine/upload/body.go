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

	mu        sync.Mutex
	detached  bool
	srcErr    error // reading the file failed; set under mu
	delivered bool  // a reader handed out the last byte; set under mu
	handed    int64 // the end of the file's bytes handed out, as an offset in the file; set under mu
}

func (p *payload) length() int64 { return int64(len(p.head)) + p.n + int64(len(p.tail)) }

// open returns a fresh reader over the whole body; the transport may ask for
// another one (GetBody) to replay the request.
func (p *payload) open() io.ReadCloser { return &payloadReader{p: p} }

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
	r.advanceLocked(int64(n))
	return n, nil
}

// advanceLocked moves the reader on by n bytes that went to the transport.
func (r *payloadReader) advanceLocked(n int64) {
	p := r.p
	before := r.pos
	r.pos += n
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

// Len is the number of the body's bytes not read yet.
func (r *payloadReader) Len() int64 {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	return r.p.length() - r.pos
}

// sendAhead is how many blocks are read ahead of the connection.
const sendAhead = 4

// WriteTo writes the rest of the body to w. The file's section is read
// and summed on a goroutine of its own, up to sendAhead blocks ahead of w,
// so that the goroutine writing to the connection only writes: reading and
// summing the file go on at once with sending it, on another core. A
// connection that takes the body this way (engine's, over plain HTTP/1.1)
// sends a checked file as fast as an unchecked one.
func (r *payloadReader) WriteTo(w io.Writer) (int64, error) {
	p := r.p
	head, fileEnd, total := int64(len(p.head)), int64(len(p.head))+p.n, p.length()
	var written int64
	if r.pos < head {
		n, err := r.writeFraming(w, p.head[r.pos:])
		written += n
		if err != nil {
			return written, err
		}
	}
	if r.pos < fileEnd {
		n, err := r.writeSection(w, p.off+r.pos-head, p.off+p.n)
		written += n
		if err != nil {
			return written, err
		}
	}
	if r.pos < total {
		n, err := r.writeFraming(w, p.tail[r.pos-fileEnd:])
		written += n
		if err != nil {
			return written, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.detached {
		return written, errDetached
	}
	p.delivered = true
	return written, nil
}

// writeFraming writes b, a rest of the multipart framing.
func (r *payloadReader) writeFraming(w io.Writer, b []byte) (int64, error) {
	if err := r.take(len(b)); err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// take hands the next n bytes of the body to the connection, as Read does
// when it returns them: the reader moves on before they are written, so
// that an answer coming as soon as they arrive finds them counted. It fails
// once the request is over.
func (r *payloadReader) take(n int) error {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	if r.p.detached {
		return errDetached
	}
	r.advanceLocked(int64(n))
	return nil
}

// block is a read of the file's section: buf[:n] from off, or err.
type block struct {
	buf *[]byte
	n   int
	err error
}

// writeSection writes the file's bytes [from, to) to w, read ahead and
// summed by readAhead.
func (r *payloadReader) writeSection(w io.Writer, from, to int64) (int64, error) {
	stop := make(chan struct{})
	free := make(chan *[]byte, sendAhead)
	read := make(chan block, sendAhead)
	for range sendAhead {
		free <- sendBlocks.Get().(*[]byte)
	}
	var reader sync.WaitGroup
	reader.Go(func() { r.p.readAhead(from, to, free, read, stop) })
	defer func() {
		close(stop)
		reader.Wait()
		for b := range read {
			sendBlocks.Put(b.buf)
		}
		for len(free) > 0 {
			sendBlocks.Put(<-free)
		}
	}()
	var written int64
	for b := range read {
		err := b.err
		if err == nil {
			err = r.take(b.n)
		}
		if err == nil {
			var n int
			n, err = w.Write((*b.buf)[:b.n])
			written += int64(n)
		}
		free <- b.buf // never blocks: free holds every block
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// readAhead reads the file's bytes [from, to) into free blocks, sums
// them and hands them on in order, until the end, an error or stop. It
// reads nothing once the request is over, and closes read when it returns.
func (p *payload) readAhead(from, to int64, free chan *[]byte, read chan<- block, stop <-chan struct{}) {
	defer close(read)
	for off := from; off < to; {
		var buf *[]byte
		select {
		case buf = <-free:
		case <-stop:
			return
		}
		want := min(int64(len(*buf)), to-off)
		n, err := p.readFile((*buf)[:want], off)
		if err == nil && p.sum != nil {
			p.sum.add(off, (*buf)[:n])
		}
		select {
		case read <- block{buf: buf, n: n, err: err}:
		case <-stop:
			sendBlocks.Put(buf)
			return
		}
		if err != nil {
			return
		}
		off += want
	}
}

// readFile fills b from the file at off, unless the request is over.
func (p *payload) readFile(b []byte, off int64) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.detached {
		return 0, errDetached
	}
	n, err := p.src.ReadAt(b, off)
	if n == len(b) {
		return n, nil
	}
	return n, p.fileFailed(err)
}
