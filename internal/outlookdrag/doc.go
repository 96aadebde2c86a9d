// Package outlookdrag is for tests only: on Windows, it drags what Outlook
// drags out of itself, built as Outlook builds it, onto a window with OLE's
// own drag and drop. Outlook's data object offers FileGroupDescriptorW (the
// names of "virtual files") and FileContents for each index: a message as
// an IStorage (a compound file held in memory, which saved is a .msg), an
// attachment as an IStream or in memory; it offers no CF_HDROP. The same
// object can instead offer CF_HDROP (files, as Explorer drags them) or only
// text (a web address).
//
// The Windows tests of ui/oledrop hand its data objects to Hoist's drop
// target; scripts/windows/dragmail drags them onto Hoist's own window under
// Wine.
package outlookdrag
