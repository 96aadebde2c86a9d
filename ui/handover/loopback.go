package handover

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// AddressFile is the file, in Hoist's settings folder, that tells a second
// Hoist on Windows the window's port and secret. It is 0600 like the folder.
const AddressFile = "window.json"

// loopback is the channel on Windows: a TCP port on 127.0.0.1, whose
// hand-overs must carry a fresh random secret that only the user can read
// (AddressFile). Other users of the computer can reach the port but not
// know the secret, which is compared in constant time.
type loopback struct{}

type address struct {
	Port   int    `json:"port"`
	Secret string `json:"secret"`
}

func (loopback) name() string { return "loopback port" }

func (loopback) listen(dir string) (net.Listener, string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, "", err
	}
	secret := hex.EncodeToString(raw[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := writeAddress(dir, address{Port: port, Secret: secret}); err != nil {
		_ = ln.Close()
		return nil, "", err
	}
	return ln, secret, nil
}

// writeAddress replaces AddressFile in one step, so a second Hoist reads
// either the old file or the new one, never half of one.
func writeAddress(dir string, a address) error {
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, AddressFile+".*")
	if err != nil {
		return fmt.Errorf("writing the window's address: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		_ = tmp.Close()
		return fmt.Errorf("protecting the window's address: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, AddressFile))
	}
	if err != nil {
		return fmt.Errorf("writing the window's address: %w", err)
	}
	return nil
}

func (loopback) dial(ctx context.Context, dir string) (net.Conn, string, error) {
	data, err := os.ReadFile(filepath.Join(dir, AddressFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", ErrNotRunning
	}
	if err != nil {
		return nil, "", fmt.Errorf("handover: reading the window's address: %w", err)
	}
	var a address
	if err := json.Unmarshal(data, &a); err != nil || a.Port <= 0 || a.Port > 65535 || a.Secret == "" {
		return nil, "", fmt.Errorf("handover: the window's address in %s is damaged", AddressFile)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port)))
	if err != nil {
		if isRefused(err) {
			return nil, "", ErrNotRunning
		}
		return nil, "", fmt.Errorf("handover: reaching the Hoist window: %w", err)
	}
	return conn, a.Secret, nil
}
