package journal

import "fmt"

// powerCutChild is the process whose power is cut (see
// TestPowerCutKeepsWhatWasSaid): it opens a new journal, adds, removes and
// compacts, closes it, opens it again (which tidies it) and adds more. It
// says each change on stdout once the journal has returned from it, which
// is when the journal promises that the change outlives a power cut (and
// each removal before it too, as the record may go from then on).
func powerCutChild(path string, say func(string, ...any)) int {
	fail := func(err error) int {
		say("error %v", err)
		return 1
	}
	j, err := Open(path, Options{})
	if err != nil {
		return fail(err)
	}
	put := func(n int) error {
		id := fmt.Sprintf("r%02d", n)
		if err := j.Put(Record{ID: id, Path: "/photos/" + id + ".png", Size: int64(n) << 20, State: "queued"}); err != nil {
			return err
		}
		say("put %s", id)
		return nil
	}
	for n := 1; n <= 5; n++ {
		if err := put(n); err != nil {
			return fail(err)
		}
	}
	say("deleting r01")
	if err := j.Delete("r01"); err != nil {
		return fail(err)
	}
	say("deleted r01")
	if err := j.Compact(); err != nil {
		return fail(err)
	}
	say("compacted")
	for n := 6; n <= 8; n++ {
		if err := put(n); err != nil {
			return fail(err)
		}
	}
	say("deleting r02")
	if err := j.Delete("r02"); err != nil {
		return fail(err)
	}
	say("deleted r02")
	if err := j.Close(); err != nil {
		return fail(err)
	}
	// Opened again, the journal tidies what r02 left in the file: a
	// compaction of its own, at the start.
	if j, err = Open(path, Options{}); err != nil {
		return fail(err)
	}
	say("reopened")
	for n := 9; n <= 10; n++ {
		if err := put(n); err != nil {
			return fail(err)
		}
	}
	if err := j.Close(); err != nil {
		return fail(err)
	}
	say("closed")
	return 0
}
