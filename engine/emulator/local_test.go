package emulator

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestEachUserHasAPortOfTheirOwn: every Unix user number up to the size of
// the range gets a port no other gets, none the well-known 8765, all below
// the ports systems hand out at random; an id that is no number (Windows)
// gets one in the same range.
func TestEachUserHasAPortOfTheirOwn(t *testing.T) {
	seen := map[int]int{}
	for uid := 0; uid <= userPortHigh-userPortLow; uid++ {
		p := UserPort(strconv.Itoa(uid))
		if p < userPortLow || p > userPortHigh || p == 8765 {
			t.Fatalf("user %d gets port %d", uid, p)
		}
		if other, ok := seen[p]; ok {
			t.Fatalf("users %d and %d share port %d", other, uid, p)
		}
		seen[p] = uid
	}
	if p := UserPort("S-1-5-21-1|maryam|C:\\Users\\maryam"); p < userPortLow || p > userPortHigh {
		t.Errorf("a Windows user gets port %d", p)
	}
	if UserPort("a|maryam|x") == UserPort("a|david|y") {
		t.Error("two Windows users share a port")
	}
	if want := "127.0.0.1:" + strconv.Itoa(UserPort(strconv.Itoa(os.Getuid()))); os.Getuid() >= 0 && UserAddr() != want {
		t.Errorf("UserAddr = %s, want %s", UserAddr(), want)
	}
}

// TestAnnouncedAddress: the address is kept for the user alone, read back,
// and taken back only by the sandbox that gave it; an address off this
// computer is never taken from the file.
func TestAnnouncedAddress(t *testing.T) {
	dir := t.TempDir()
	withdraw, err := Announce(dir, "http://127.0.0.1:20123")
	if err != nil {
		t.Fatal(err)
	}
	if got := Announced(dir); got != "http://127.0.0.1:20123" {
		t.Fatalf("Announced = %q", got)
	}
	fi, err := os.Stat(dir + "/" + AnnounceFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file is %v (%v), want 0600", fi.Mode(), err)
	}
	later, _ := Announce(dir, "http://127.0.0.1:20124")
	withdraw() // the first sandbox closing leaves the second's address
	if got := Announced(dir); got != "http://127.0.0.1:20124" {
		t.Fatalf("after the first withdrew, Announced = %q", got)
	}
	later()
	if got := Announced(dir); got != "" {
		t.Fatalf("after both withdrew, Announced = %q", got)
	}
	os.WriteFile(dir+"/"+AnnounceFile, []byte("http://203.0.113.5:80\n"), 0o600)
	if got := Announced(dir); got != "" || strings.Contains(got, "203") {
		t.Errorf("an address off this computer was taken: %q", got)
	}
}
