// Package ole holds what both ends of an OLE drag and drop on Windows share:
// the structures the system passes (FORMATETC, STGMEDIUM, FILEDESCRIPTORW),
// the tables of the COM interfaces they meet (IUnknown, IDataObject, IStream,
// IStorage), Outlook's named formats and the HRESULTs both ends answer with.
// Hoist's drop target (ui/oledrop) and the tests' dragging program
// (internal/outlookdrag) are built on it, so the two cannot disagree on a
// layout.
//
// Calls through an interface are made with syscall.SyscallN on the function
// its table holds; no cgo. Outside Windows the package is empty.
package ole
