//go:build windows && (amd64 || arm64)

package oledrop

import (
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// This file builds, for the tests, a data object as Outlook offers one when
// messages or attachments are dragged out of it: FileGroupDescriptorW (the
// names), and FileContents for each index, a message as an IStorage (a
// compound file held in memory), an attachment as an IStream or in memory.
// Outlook offers no CF_HDROP. A data object offering CF_HDROP is what
// Windows Explorer drags.

var (
	procGlobalAlloc                  = kernel32.NewProc("GlobalAlloc")
	procCreateStreamOnHGlobal        = ole32.NewProc("CreateStreamOnHGlobal")
	procCreateILockBytesOnHGlobal    = ole32.NewProc("CreateILockBytesOnHGlobal")
	procStgCreateDocfileOnILockBytes = ole32.NewProc("StgCreateDocfileOnILockBytes")
	procStgOpenStorage               = ole32.NewProc("StgOpenStorage")
)

const (
	dvETymed     = 0x80040069
	dvELindex    = 0x80040068
	dvEFormatEtc = 0x80040064
	eNotImpl     = 0x80004001
	gmemMoveable = 0x0002
	gmemZeroInit = 0x0040
	stgmRead     = 0x00000000
	cfUnicode    = 13
)

// kind is the form in which the test's program gives an item's contents.
type kind int

const (
	asStorage kind = iota // an Outlook message
	asStream              // an attachment, as Outlook gives most
	asMemory              // an attachment in memory
	asFolder              // a folder among the items: no contents
)

// fakeItem is one virtual file of the test's program.
type fakeItem struct {
	name string
	kind kind
	// body: a message's subject (kept in its compound file as Outlook keeps
	// it, UTF-16 in __substg1.0_0037001F) or an attachment's bytes.
	body []byte
	// pad: the memory block is this much larger than the file, as a
	// program's blocks may be; the descriptor says the true size.
	pad int
}

// fakeData is the program's IDataObject.
type fakeData struct {
	vtbl *dataObjectVtbl
	refs atomic.Int32

	items []fakeItem
	files []string // CF_HDROP's paths, offered instead of virtual files
	text  bool     // only text (a web address), which Hoist does not take
	// oneFormAtATime: GetData answers only a question naming one form.
	oneFormAtATime bool
	asked          []formatEtc
}

var theFakeDataVtbl = dataObjectVtbl{
	unknownVtbl: unknownVtbl{
		QueryInterface: syscall.NewCallback(func(d *fakeData, iid *windows.GUID, out **fakeData) uintptr {
			iidIDataObject := windows.GUID{Data1: 0x0000010e, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
			if *iid != iidIUnknown && *iid != iidIDataObject {
				*out = nil
				return eNoInterface
			}
			d.refs.Add(1)
			*out = d
			return sOK
		}),
		AddRef:  syscall.NewCallback(func(d *fakeData) uintptr { return uintptr(d.refs.Add(1)) }),
		Release: syscall.NewCallback(func(d *fakeData) uintptr { return uintptr(d.refs.Add(-1)) }),
	},
	GetData: syscall.NewCallback(func(d *fakeData, f *formatEtc, m *stgMedium) uintptr {
		d.asked = append(d.asked, *f)
		return d.getData(f, m)
	}),
	GetDataHere: syscall.NewCallback(func(d *fakeData, f, m uintptr) uintptr { return eNotImpl }),
	QueryGetData: syscall.NewCallback(func(d *fakeData, f *formatEtc) uintptr {
		if d.has(f.format) && f.tymed&tymedHGlobal != 0 {
			return sOK
		}
		return dvEFormatEtc
	}),
	GetCanonicalFormatEtc: syscall.NewCallback(func(d *fakeData, in, out uintptr) uintptr { return eNotImpl }),
	SetData:               syscall.NewCallback(func(d *fakeData, f, m, release uintptr) uintptr { return eNotImpl }),
	EnumFormatEtc:         syscall.NewCallback(func(d *fakeData, dir, out uintptr) uintptr { return eNotImpl }),
	DAdvise:               syscall.NewCallback(func(d *fakeData, f, flags, sink, conn uintptr) uintptr { return eNotImpl }),
	DUnadvise:             syscall.NewCallback(func(d *fakeData, conn uintptr) uintptr { return eNotImpl }),
	EnumDAdvise:           syscall.NewCallback(func(d *fakeData, out uintptr) uintptr { return eNotImpl }),
}

func newFakeData() *fakeData {
	d := &fakeData{vtbl: &theFakeDataVtbl}
	d.refs.Store(1)
	return d
}

func (d *fakeData) object() *iDataObject { return (*iDataObject)(unsafe.Pointer(d)) }

// has says whether the program offers a format at all (FileContents is
// answered only with an index, as Outlook answers it).
func (d *fakeData) has(format uint16) bool {
	descriptor, contents := formats()
	switch format {
	case cfHDrop:
		return d.files != nil
	case cfUnicode:
		return d.text
	case descriptor, contents:
		return d.items != nil
	}
	return false
}

func (d *fakeData) getData(f *formatEtc, m *stgMedium) uintptr {
	descriptor, contents := formats()
	if !d.has(f.format) {
		return dvEFormatEtc
	}
	single := f.tymed == tymedHGlobal || f.tymed == tymedIStream || f.tymed == tymedIStorage
	switch f.format {
	case cfHDrop:
		if f.tymed&tymedHGlobal == 0 {
			return dvETymed
		}
		return inMemory(m, dropFiles(d.files))
	case cfUnicode:
		return inMemory(m, utf16Bytes("https://example.com/"))
	case descriptor:
		if f.tymed&tymedHGlobal == 0 {
			return dvETymed
		}
		return inMemory(m, d.descriptor())
	case contents:
		if f.index < 0 || int(f.index) >= len(d.items) {
			return dvELindex
		}
		if d.oneFormAtATime && !single {
			return dvETymed
		}
		it := d.items[f.index]
		switch {
		case it.kind == asStorage && f.tymed&tymedIStorage != 0:
			stg, hr := messageStorage(it.body)
			if hr != sOK {
				return hr
			}
			*m = stgMedium{tymed: tymedIStorage, data: unsafe.Pointer(stg)}
			return sOK
		case it.kind == asStream && f.tymed&tymedIStream != 0:
			h, hr := globalWith(it.body, 0)
			if hr != sOK {
				return hr
			}
			var s *iStream
			if hr, _, _ := procCreateStreamOnHGlobal.Call(h, 1, uintptr(unsafe.Pointer(&s))); hr != sOK {
				return hr
			}
			// Left at its end, as a stream just written is: the target
			// must read it from the start.
			var pos uint64
			syscall.SyscallN(s.vtbl.Seek, uintptr(unsafe.Pointer(s)), 0, 2 /* STREAM_SEEK_END */, uintptr(unsafe.Pointer(&pos)))
			*m = stgMedium{tymed: tymedIStream, data: unsafe.Pointer(s)}
			return sOK
		case it.kind == asMemory && f.tymed&tymedHGlobal != 0:
			h, hr := globalWith(it.body, it.pad)
			if hr != sOK {
				return hr
			}
			*m = stgMedium{tymed: tymedHGlobal, data: *(*unsafe.Pointer)(unsafe.Pointer(&h))}
			return sOK
		}
		return dvETymed
	}
	return dvEFormatEtc
}

// descriptor is FILEGROUPDESCRIPTORW for d's items, as Outlook fills it:
// names, sizes where known, folders marked by their attributes.
func (d *fakeData) descriptor() []byte {
	one := int(unsafe.Sizeof(fileDescriptor{}))
	b := make([]byte, 4+one*len(d.items))
	*(*uint32)(unsafe.Pointer(&b[0])) = uint32(len(d.items))
	for i, it := range d.items {
		fd := (*fileDescriptor)(unsafe.Pointer(&b[4+i*one]))
		copy(fd.name[:len(fd.name)-1], windows.StringToUTF16(it.name))
		switch it.kind {
		case asFolder:
			fd.flags = fdAttributes
			fd.attributes = fileAttributeDirectory
		case asMemory, asStream:
			fd.flags = fdFileSize
			fd.sizeLow = uint32(len(it.body))
		}
	}
	return b
}

// inMemory hands b in a block of memory of the system's, which the target
// frees with ReleaseStgMedium.
func inMemory(m *stgMedium, b []byte) uintptr {
	h, hr := globalWith(b, 0)
	if hr != sOK {
		return hr
	}
	*m = stgMedium{tymed: tymedHGlobal, data: *(*unsafe.Pointer)(unsafe.Pointer(&h))}
	return sOK
}

func globalWith(b []byte, pad int) (uintptr, uintptr) {
	h, _, _ := procGlobalAlloc.Call(gmemMoveable|gmemZeroInit, uintptr(max(len(b)+pad, 1)))
	if h == 0 {
		return 0, 0x8007000E // E_OUTOFMEMORY
	}
	mem, unlock, ok := globalMemory(*(*unsafe.Pointer)(unsafe.Pointer(&h)))
	if !ok {
		return 0, eUnexpected
	}
	copy(mem, b)
	for i := len(b); i < len(b)+pad; i++ {
		mem[i] = 0xEE // what lies past the file's end in the block
	}
	unlock()
	return h, sOK
}

// dropFiles is CF_HDROP's DROPFILES: a header, then the paths in UTF-16,
// each ended by a zero, the list by two.
func dropFiles(paths []string) []byte {
	b := make([]byte, 20)
	*(*uint32)(unsafe.Pointer(&b[0])) = 20 // pFiles
	*(*uint32)(unsafe.Pointer(&b[16])) = 1 // fWide
	for _, p := range paths {
		b = append(b, utf16Bytes(p)...)
	}
	return append(b, 0, 0)
}

// utf16Bytes is s in UTF-16 with its ending zero.
func utf16Bytes(s string) []byte {
	u := windows.StringToUTF16(s)
	return unsafe.Slice((*byte)(unsafe.Pointer(&u[0])), 2*len(u))
}

// Names of an Outlook message's parts ([MS-OXMSG]): its subject as a
// Unicode string property, and an attachment's storage with its data.
const (
	subjectStream    = "__substg1.0_0037001F"
	attachStorage    = "__attach_version1.0_#00000000"
	attachDataStream = "__substg1.0_37010102"
)

// messageStorage builds a compound file in memory as Outlook holds a
// message: the subject in its stream, and an attachment in a storage of its
// own (so that copying must go into nested storages).
func messageStorage(subject []byte) (*iStorage, uintptr) {
	var bytes *iStorage // an ILockBytes; only its IUnknown part is used
	if hr, _, _ := procCreateILockBytesOnHGlobal.Call(0, 1, uintptr(unsafe.Pointer(&bytes))); hr != sOK {
		return nil, hr
	}
	defer bytes.release()
	var stg *iStorage
	if hr, _, _ := procStgCreateDocfileOnILockBytes.Call(uintptr(unsafe.Pointer(bytes)), stgmCreate|stgmReadWrite|stgmShareExclusive, 0, uintptr(unsafe.Pointer(&stg))); hr != sOK {
		return nil, hr
	}
	if hr := writeStream(stg, subjectStream, subject); hr != sOK {
		stg.release()
		return nil, hr
	}
	var att *iStorage
	name := windows.StringToUTF16Ptr(attachStorage)
	if hr, _, _ := syscall.SyscallN(stg.vtbl.CreateStorage, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(name)), stgmCreate|stgmReadWrite|stgmShareExclusive, 0, 0, uintptr(unsafe.Pointer(&att))); hr != sOK {
		stg.release()
		return nil, hr
	}
	hr := writeStream(att, attachDataStream, []byte("%PDF-1.4 an attachment inside the message"))
	att.commit()
	att.release()
	if hr == sOK {
		hr = stg.commit()
	}
	if hr != sOK {
		stg.release()
		return nil, hr
	}
	return stg, sOK
}

func writeStream(stg *iStorage, name string, b []byte) uintptr {
	var s *iStream
	n := windows.StringToUTF16Ptr(name)
	if hr, _, _ := syscall.SyscallN(stg.vtbl.CreateStream, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), stgmCreate|stgmReadWrite|stgmShareExclusive, 0, 0, uintptr(unsafe.Pointer(&s))); hr != sOK {
		return hr
	}
	defer syscall.SyscallN(s.vtbl.Release, uintptr(unsafe.Pointer(s)))
	var written uint32
	var p uintptr
	if len(b) > 0 {
		p = uintptr(unsafe.Pointer(&b[0]))
	}
	hr, _, _ := syscall.SyscallN(s.vtbl.Write, uintptr(unsafe.Pointer(s)), p, uintptr(len(b)), uintptr(unsafe.Pointer(&written)))
	return hr
}

// readStream reads a stream of the compound file at path ("a/b" for a
// stream b inside storage a): what a reader of .msg files would find.
func readStream(path string, parts ...string) ([]byte, uintptr) {
	var stg *iStorage
	p := windows.StringToUTF16Ptr(path)
	if hr, _, _ := procStgOpenStorage.Call(uintptr(unsafe.Pointer(p)), 0, stgmRead|stgmShareExclusive, 0, 0, uintptr(unsafe.Pointer(&stg))); hr != sOK {
		return nil, hr
	}
	defer stg.release()
	for _, part := range parts[:len(parts)-1] {
		var sub *iStorage
		n := windows.StringToUTF16Ptr(part)
		if hr, _, _ := syscall.SyscallN(stg.vtbl.OpenStorage, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), 0, stgmRead|stgmShareExclusive, 0, 0, uintptr(unsafe.Pointer(&sub))); hr != sOK {
			return nil, hr
		}
		defer sub.release()
		stg = sub
	}
	var s *iStream
	n := windows.StringToUTF16Ptr(parts[len(parts)-1])
	if hr, _, _ := syscall.SyscallN(stg.vtbl.OpenStream, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), 0, stgmRead|stgmShareExclusive, 0, uintptr(unsafe.Pointer(&s))); hr != sOK {
		return nil, hr
	}
	defer syscall.SyscallN(s.vtbl.Release, uintptr(unsafe.Pointer(s)))
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, hr := s.read(buf)
		if hr != sOK && hr != sFalse {
			return nil, hr
		}
		if n == 0 {
			return out, sOK
		}
		out = append(out, buf[:n]...)
	}
}
