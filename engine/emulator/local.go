package emulator

import (
	"hash/fnv"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
)

// AddrEnv names the environment variable that says where a sandbox on
// this computer listens (e.g. HOIST_SANDBOX_ADDR=127.0.0.1:9000).
const AddrEnv = "HOIST_SANDBOX_ADDR"

// User ports lie below every system's range of ports handed out at random
// (Linux from 32768, Windows and macOS from 49152), so no program that asks
// for any free port is given one by chance.
const (
	userPortLow  = 20000
	userPortHigh = 32767
)

// UserAddr is the loopback address of this user's own sandbox: a port
// that follows from the user (on Unix its number, elsewhere a hash of its
// name and home folder), so that two people on one computer never share a
// sandbox by accident, and each finds the same port from one start to the
// next.
func UserAddr() string {
	id := strconv.Itoa(os.Getuid())
	if os.Getuid() < 0 { // Windows
		id = "?"
		if u, err := user.Current(); err == nil {
			id = u.Uid + "|" + u.Username + "|" + u.HomeDir
		}
	}
	return "127.0.0.1:" + strconv.Itoa(UserPort(id))
}

// UserPort is the port of the user id: consecutive Unix user numbers get
// consecutive ports; any other id a port by its hash.
func UserPort(id string) int {
	const span = userPortHigh - userPortLow + 1
	if n, err := strconv.Atoi(id); err == nil && n >= 0 {
		return userPortLow + n%span
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return userPortLow + int(h.Sum32()%span)
}

// AnnounceFile is the file, in the user's private settings folder, in
// which a running window's sandbox gives its address, so that the same
// user's `hoist send --to sandbox` finds it wherever it listens.
const AnnounceFile = "sandbox-address"

// Announce writes url into dir's AnnounceFile, readable by the user
// alone; the returned function removes it, unless another sandbox has
// announced itself since.
func Announce(dir, url string) (withdraw func(), err error) {
	path := filepath.Join(dir, AnnounceFile)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(url+"\n"), 0o600); err != nil {
		return func() {}, err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return func() {}, err
	}
	return func() {
		if Announced(dir) == url {
			_ = os.Remove(path)
		}
	}, nil
}

// Announced is the address a sandbox announced in dir, or "".
func Announced(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, AnnounceFile))
	if err != nil {
		return ""
	}
	url := strings.TrimSpace(string(b))
	if !strings.HasPrefix(url, "http://127.0.0.1:") && !strings.HasPrefix(url, "http://[::1]:") {
		return "" // only a sandbox on this computer is ever announced
	}
	return url
}
