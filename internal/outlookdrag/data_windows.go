//go:build windows && (amd64 || arm64)

package outlookdrag

import (
	"bytes"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// Kind is the form in which the program gives an item's contents.
type Kind int

const (
	Message Kind = iota // an Outlook message: an IStorage
	Stream              // an attachment, as Outlook gives most: an IStream
	Memory              // an attachment in memory: an HGLOBAL
	Folder              // a folder among the items: no contents
)

// Item is one virtual file of the program.
type Item struct {
	Name string
	Kind Kind
	// Body: a message's subject (kept in its compound file as Outlook keeps
	// it, in UTF-16, in SubjectStream) or an attachment's bytes.
	Body []byte
	// Pad: the memory block is this much larger than the file, as a
	// program's blocks may be; the descriptor says the true size.
	Pad int
}

// Asked is one question a drop target asked the data object.
type Asked struct {
	Format uint16
	Index  int32
	Tymed  uint32
}

// Data is the dragging program's IDataObject. Its first word is its table,
// so that a pointer to it is a COM pointer.
type Data struct {
	vtbl *ole.DataObjectVtbl
	refs atomic.Int32

	Items []Item
	Files []string // CF_HDROP's paths, offered instead of virtual files
	Text  bool     // only text (a web address)
	// OneFormAtATime: FileContents is given only to a question naming one
	// form.
	OneFormAtATime bool
	Asked          []Asked
}

// New returns a data object offering nothing yet.
func New() *Data {
	d := &Data{vtbl: &theDataVtbl}
	d.refs.Store(1)
	return d
}

// Pointer is d as the IDataObject* a drop target is handed.
func (d *Data) Pointer() unsafe.Pointer { return unsafe.Pointer(d) }

// Outlook is what Outlook offers when two messages with the same subject, a
// message with an Arabic subject, a folder of attachments and two
// attachments (one in each form it gives them) are dragged out of it
// together.
func Outlook() *Data {
	d := New()
	d.Items = []Item{
		{Name: "RE Budget.msg", Kind: Message, Body: UTF16("RE: Budget")},
		{Name: "RE Budget.msg", Kind: Message, Body: UTF16("RE: Budget (the second)")},
		{Name: "تقرير الميزانية.msg", Kind: Message, Body: UTF16("تقرير الميزانية")},
		{Name: "Attachments", Kind: Folder},
		{Name: `Attachments\گزارش.pdf`, Kind: Stream, Body: bytes.Repeat([]byte("%PDF stream "), 50000)},
		{Name: "photo: 1.jpg", Kind: Memory, Body: []byte("\xff\xd8\xff\xe0 a picture"), Pad: 100},
	}
	return d
}

var theDataVtbl = ole.DataObjectVtbl{
	UnknownVtbl: ole.UnknownVtbl{
		QueryInterface: syscall.NewCallback(func(d *Data, iid *windows.GUID, out **Data) uintptr {
			if *iid != ole.IIDIUnknown && *iid != iidIDataObject {
				*out = nil
				return ole.ENoInterface
			}
			d.refs.Add(1)
			*out = d
			return ole.SOK
		}),
		AddRef:  syscall.NewCallback(func(d *Data) uintptr { return uintptr(d.refs.Add(1)) }),
		Release: syscall.NewCallback(func(d *Data) uintptr { return uintptr(d.refs.Add(-1)) }),
	},
	GetData: syscall.NewCallback(func(d *Data, f *ole.FormatEtc, m *ole.StgMedium) uintptr {
		d.Asked = append(d.Asked, Asked{Format: f.Format, Index: f.Index, Tymed: f.Tymed})
		return d.getData(f, m)
	}),
	GetDataHere: syscall.NewCallback(func(d *Data, f, m uintptr) uintptr { return eNotImpl }),
	QueryGetData: syscall.NewCallback(func(d *Data, f *ole.FormatEtc) uintptr {
		if d.has(f.Format) && f.Tymed&ole.TymedHGlobal != 0 {
			return ole.SOK
		}
		return dvEFormatEtc
	}),
	GetCanonicalFormatEtc: syscall.NewCallback(func(d *Data, in, out uintptr) uintptr { return eNotImpl }),
	SetData:               syscall.NewCallback(func(d *Data, f, m, release uintptr) uintptr { return eNotImpl }),
	EnumFormatEtc:         syscall.NewCallback(func(d *Data, dir, out uintptr) uintptr { return eNotImpl }),
	DAdvise:               syscall.NewCallback(func(d *Data, f, flags, sink, conn uintptr) uintptr { return eNotImpl }),
	DUnadvise:             syscall.NewCallback(func(d *Data, conn uintptr) uintptr { return eNotImpl }),
	EnumDAdvise:           syscall.NewCallback(func(d *Data, out uintptr) uintptr { return eNotImpl }),
}

// has says whether the program offers a format at all (FileContents is
// answered only with an index, as Outlook answers it).
func (d *Data) has(format uint16) bool {
	descriptor, contents := Formats()
	switch format {
	case ole.CFHDrop:
		return d.Files != nil
	case cfUnicodeText:
		return d.Text
	case descriptor, contents:
		return d.Items != nil
	}
	return false
}

func (d *Data) getData(f *ole.FormatEtc, m *ole.StgMedium) uintptr {
	descriptor, contents := Formats()
	if !d.has(f.Format) {
		return dvEFormatEtc
	}
	single := f.Tymed == ole.TymedHGlobal || f.Tymed == ole.TymedIStream || f.Tymed == ole.TymedIStorage
	switch f.Format {
	case ole.CFHDrop:
		if f.Tymed&ole.TymedHGlobal == 0 {
			return dvETymed
		}
		return inMemory(m, dropFiles(d.Files))
	case cfUnicodeText:
		return inMemory(m, UTF16("https://example.com/"))
	case descriptor:
		if f.Tymed&ole.TymedHGlobal == 0 {
			return dvETymed
		}
		return inMemory(m, d.descriptor())
	case contents:
		if f.Index < 0 || int(f.Index) >= len(d.Items) {
			return dvELindex
		}
		if d.OneFormAtATime && !single {
			return dvETymed
		}
		it := d.Items[f.Index]
		switch {
		case it.Kind == Message && f.Tymed&ole.TymedIStorage != 0:
			stg, hr := messageStorage(it.Body)
			if hr != ole.SOK {
				return hr
			}
			*m = ole.StgMedium{Tymed: ole.TymedIStorage, Data: unsafe.Pointer(stg)}
			return ole.SOK
		case it.Kind == Stream && f.Tymed&ole.TymedIStream != 0:
			h, hr := globalWith(it.Body, 0)
			if hr != ole.SOK {
				return hr
			}
			var s *ole.Stream
			if hr, _, _ := procCreateStreamOnHGlobal.Call(h, 1, uintptr(unsafe.Pointer(&s))); hr != ole.SOK {
				return hr
			}
			// Left at its end, as a stream just written is: the target
			// must read it from the start.
			var pos uint64
			syscall.SyscallN(s.Vtbl.Seek, uintptr(unsafe.Pointer(s)), 0, 2 /* STREAM_SEEK_END */, uintptr(unsafe.Pointer(&pos)))
			*m = ole.StgMedium{Tymed: ole.TymedIStream, Data: unsafe.Pointer(s)}
			return ole.SOK
		case it.Kind == Memory && f.Tymed&ole.TymedHGlobal != 0:
			h, hr := globalWith(it.Body, it.Pad)
			if hr != ole.SOK {
				return hr
			}
			*m = ole.StgMedium{Tymed: ole.TymedHGlobal, Data: handle(h)}
			return ole.SOK
		}
		return dvETymed
	}
	return dvEFormatEtc
}

// descriptor is FILEGROUPDESCRIPTORW for d's items, as Outlook fills it:
// names, sizes where known, folders marked by their attributes.
func (d *Data) descriptor() []byte {
	one := int(unsafe.Sizeof(ole.FileDescriptor{}))
	b := make([]byte, 4+one*len(d.Items))
	*(*uint32)(unsafe.Pointer(&b[0])) = uint32(len(d.Items))
	for i, it := range d.Items {
		fd := (*ole.FileDescriptor)(unsafe.Pointer(&b[4+i*one]))
		copy(fd.Name[:len(fd.Name)-1], windows.StringToUTF16(it.Name))
		switch it.Kind {
		case Folder:
			fd.Flags = ole.FDAttributes
			fd.Attributes = ole.FileAttributeDirectory
		case Memory, Stream:
			fd.Flags = ole.FDFileSize
			fd.SizeLow = uint32(len(it.Body))
		}
	}
	return b
}

// handle is an HGLOBAL as the pointer STGMEDIUM holds: memory of the
// system's, never of Go's.
func handle(h uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&h)) }

// inMemory hands b in a block of memory of the system's, which the target
// frees with ReleaseStgMedium.
func inMemory(m *ole.StgMedium, b []byte) uintptr {
	h, hr := globalWith(b, 0)
	if hr != ole.SOK {
		return hr
	}
	*m = ole.StgMedium{Tymed: ole.TymedHGlobal, Data: handle(h)}
	return ole.SOK
}

func globalWith(b []byte, pad int) (uintptr, uintptr) {
	size := max(len(b)+pad, 1)
	h, _, _ := procGlobalAlloc.Call(gmemMoveable|gmemZeroInit, uintptr(size))
	if h == 0 {
		return 0, eOutOfMemory
	}
	p, _, _ := procGlobalLock.Call(h)
	if p == 0 {
		return 0, eOutOfMemory
	}
	mem := unsafe.Slice((*byte)(handle(p)), size)
	copy(mem, b)
	for i := len(b); i < len(b)+pad; i++ {
		mem[i] = 0xEE // what lies past the file's end in the block
	}
	procGlobalUnlock.Call(h)
	return h, ole.SOK
}

// dropFiles is CF_HDROP's DROPFILES: a header, then the paths in UTF-16,
// each ended by a zero, the list by two.
func dropFiles(paths []string) []byte {
	b := make([]byte, 20)
	*(*uint32)(unsafe.Pointer(&b[0])) = 20 // pFiles
	*(*uint32)(unsafe.Pointer(&b[16])) = 1 // fWide
	for _, p := range paths {
		b = append(b, UTF16(p)...)
	}
	return append(b, 0, 0)
}

// UTF16 is s in UTF-16 with its ending zero, as Outlook keeps a Unicode
// string property.
func UTF16(s string) []byte {
	u := windows.StringToUTF16(s)
	return unsafe.Slice((*byte)(unsafe.Pointer(&u[0])), 2*len(u))
}

// Names of an Outlook message's parts ([MS-OXMSG]): its subject as a
// Unicode string property, and an attachment's storage with its data.
const (
	SubjectStream    = "__substg1.0_0037001F"
	AttachStorage    = "__attach_version1.0_#00000000"
	AttachDataStream = "__substg1.0_37010102"
)

// messageStorage builds a compound file in memory as Outlook holds a
// message: the subject in its stream, and an attachment in a storage of its
// own (so that copying must go into nested storages).
func messageStorage(subject []byte) (*ole.Storage, uintptr) {
	var lockBytes *ole.Storage // an ILockBytes; only its IUnknown part is used
	if hr, _, _ := procCreateILockBytesOnHGlobal.Call(0, 1, uintptr(unsafe.Pointer(&lockBytes))); hr != ole.SOK {
		return nil, hr
	}
	defer lockBytes.Release()
	var stg *ole.Storage
	if hr, _, _ := procStgCreateDocfileOnILockBytes.Call(uintptr(unsafe.Pointer(lockBytes)), ole.STGMCreate|ole.STGMReadWrite|ole.STGMShareExclusive, 0, uintptr(unsafe.Pointer(&stg))); hr != ole.SOK {
		return nil, hr
	}
	if hr := writeStream(stg, SubjectStream, subject); hr != ole.SOK {
		stg.Release()
		return nil, hr
	}
	var att *ole.Storage
	name := windows.StringToUTF16Ptr(AttachStorage)
	if hr, _, _ := syscall.SyscallN(stg.Vtbl.CreateStorage, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(name)), ole.STGMCreate|ole.STGMReadWrite|ole.STGMShareExclusive, 0, 0, uintptr(unsafe.Pointer(&att))); hr != ole.SOK {
		stg.Release()
		return nil, hr
	}
	hr := writeStream(att, AttachDataStream, []byte("%PDF-1.4 an attachment inside the message"))
	att.Commit()
	att.Release()
	if hr == ole.SOK {
		hr = stg.Commit()
	}
	if hr != ole.SOK {
		stg.Release()
		return nil, hr
	}
	return stg, ole.SOK
}

func writeStream(stg *ole.Storage, name string, b []byte) uintptr {
	var s *ole.Stream
	n := windows.StringToUTF16Ptr(name)
	if hr, _, _ := syscall.SyscallN(stg.Vtbl.CreateStream, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), ole.STGMCreate|ole.STGMReadWrite|ole.STGMShareExclusive, 0, 0, uintptr(unsafe.Pointer(&s))); hr != ole.SOK {
		return hr
	}
	defer s.Release()
	var written uint32
	var p uintptr
	if len(b) > 0 {
		p = uintptr(unsafe.Pointer(&b[0]))
	}
	hr, _, _ := syscall.SyscallN(s.Vtbl.Write, uintptr(unsafe.Pointer(s)), p, uintptr(len(b)), uintptr(unsafe.Pointer(&written)))
	return hr
}

// ReadStream reads a stream of the compound file at path (parts: the
// storages inside it, then the stream): what a reader of .msg files finds.
func ReadStream(path string, parts ...string) ([]byte, error) {
	var stg *ole.Storage
	p := windows.StringToUTF16Ptr(path)
	if hr, _, _ := procStgOpenStorage.Call(uintptr(unsafe.Pointer(p)), 0, stgmRead|ole.STGMShareExclusive, 0, 0, uintptr(unsafe.Pointer(&stg))); hr != ole.SOK {
		return nil, hresult(hr)
	}
	defer stg.Release()
	for _, part := range parts[:len(parts)-1] {
		var sub *ole.Storage
		n := windows.StringToUTF16Ptr(part)
		if hr, _, _ := syscall.SyscallN(stg.Vtbl.OpenStorage, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), 0, stgmRead|ole.STGMShareExclusive, 0, 0, uintptr(unsafe.Pointer(&sub))); hr != ole.SOK {
			return nil, hresult(hr)
		}
		defer sub.Release()
		stg = sub
	}
	var s *ole.Stream
	n := windows.StringToUTF16Ptr(parts[len(parts)-1])
	if hr, _, _ := syscall.SyscallN(stg.Vtbl.OpenStream, uintptr(unsafe.Pointer(stg)), uintptr(unsafe.Pointer(n)), 0, stgmRead|ole.STGMShareExclusive, 0, uintptr(unsafe.Pointer(&s))); hr != ole.SOK {
		return nil, hresult(hr)
	}
	defer s.Release()
	var out []byte
	buf := make([]byte, 4096)
	for {
		var got uint32
		hr, _, _ := syscall.SyscallN(s.Vtbl.Read, uintptr(unsafe.Pointer(s)), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(unsafe.Pointer(&got)))
		if hr != ole.SOK && hr != ole.SFalse {
			return nil, hresult(hr)
		}
		if got == 0 {
			return out, nil
		}
		out = append(out, buf[:got]...)
	}
}
