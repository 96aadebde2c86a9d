package media

import (
	"errors"
	"os"
	"testing"
	"time"

	"hoist/engine/upload"
)

// editedInPlace is what Check says of a file written in place with its
// size and modification time kept.
const editedInPlace = "file.changed file=\"report.eml.bin\": " + writtenWhileSent

// A file written in place while it is sent, its size kept and its
// modification time put back, is still noticed: the status change time
// cannot be put back.
func TestCheckSeesAWriteWhoseTimeWasPutBack(t *testing.T) {
	p := write(t, t.TempDir(), "photo.bin", make([]byte, 64<<10))
	then := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(p, then, then); err != nil {
		t.Fatal(err)
	}
	info, err := Inspect(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(info)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Check(); err != nil {
		t.Fatalf("unchanged file: %v", err)
	}
	time.Sleep(20 * time.Millisecond) // the status change time must be able to move
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteAt([]byte("edited"), 1000); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := os.Chtimes(p, then, then); err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); !errors.Is(err, upload.ErrFileChanged) {
		t.Fatalf("Check = %v, want the file changed", err)
	}
}
