package handover

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// SocketName is the Unix socket, in Hoist's settings folder, of the window.
const SocketName = "hoist.sock"

// maxSocketPath is the shortest limit among supported systems, less its NUL.
const maxSocketPath = 103

// unixSocket is the channel on Unix: a socket file only the user can open
// (0600, in the 0700 settings folder), so no secret is needed.
type unixSocket struct{}

func (unixSocket) name() string { return "socket" }

func (unixSocket) listen(dir string) (net.Listener, string, error) {
	sock, err := socketPath(dir)
	if err != nil {
		return nil, "", err
	}
	if err := os.Remove(sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("removing an old socket: %w", err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, "", err
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		_ = ln.Close()
		return nil, "", fmt.Errorf("protecting the socket: %w", err)
	}
	return ln, "", nil
}

func (unixSocket) dial(ctx context.Context, dir string) (net.Conn, string, error) {
	sock, err := socketPath(dir)
	if err != nil {
		return nil, "", err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isRefused(err) {
			return nil, "", ErrNotRunning
		}
		return nil, "", fmt.Errorf("handover: reaching the Hoist window: %w", err)
	}
	return conn, "", nil
}

func socketPath(dir string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(dir, SocketName))
	if err != nil {
		return "", fmt.Errorf("handover: %w", err)
	}
	if len(abs) > maxSocketPath {
		return "", fmt.Errorf("handover: the settings folder %s has too long a path for Hoist windows to reach each other", dir)
	}
	return abs, nil
}
