// Package oledrop lets Hoist's window on Windows take what is dragged onto it
// through OLE, as Windows' own programs offer it: ordinary files (CF_HDROP),
// and the "virtual files" of a mail program, which have a name but no path
// (FileGroupDescriptorW with FileContents). Outlook offers its messages and
// their attachments only so: a message as a compound file (an IStorage, kept
// as a .msg), an attachment as a stream or a block of memory. Each virtual
// file is saved in a folder of its own under the folder it is given, so that
// the window can queue it like a file dropped from the file manager.
//
// A window that only accepts file drops (as the toolkit's does, through
// DragAcceptFiles) refuses such a drag; a window registered as an OLE drop
// target takes both. The package uses no cgo: its COM objects are Go structs
// whose first word points to a table of callbacks.
//
// Outside Windows the package holds only what names a saved file, which is
// the same everywhere.
package oledrop
