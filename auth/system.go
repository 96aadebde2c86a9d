package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// ClientOrigin says where the OAuth client in use comes from.
type ClientOrigin string

const (
	ClientNone         ClientOrigin = ""             // no usable client: set-up is needed
	ClientGiven        ClientOrigin = "given"        // Service.ClientJSON
	ClientImported     ClientOrigin = "imported"     // the user imported a file
	ClientOrganisation ClientOrigin = "organisation" // the system-wide folder
	ClientBuiltIn      ClientOrigin = "built-in"     // built into this copy of Hoist
)

// systemClientFile finds the organisation's client file in dir:
// client_secret.json, or else the first client_secret*.json by name.
// It returns "" when there is none, and an error when the folder exists
// but cannot be read.
func systemClientFile(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", plain(fmt.Sprintf("Hoist could not read the folder your organisation set up for it (%s). Ask whoever looks after this computer to let everyone read it.", dir), err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || filepath.Ext(n) != ".json" {
			continue
		}
		if n == clientFileName {
			return filepath.Join(dir, n), nil
		}
		if ok, _ := filepath.Match("client_secret*.json", n); ok {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	slices.Sort(names)
	return filepath.Join(dir, names[0]), nil
}

// systemClient reads and checks the organisation's client file. It
// returns nil, nil when the organisation provides none.
func (s *Service) systemClient() ([]byte, error) {
	path, err := systemClientFile(s.SystemDir)
	if err != nil || path == "" {
		return nil, err
	}
	data, err := readClientFile(path)
	if err != nil {
		return nil, organisationClientError(path, err, "it cannot be read.")
	}
	if err := checkClientJSON(data); err != nil {
		return nil, organisationClientError(path, err, clientFault(data, err))
	}
	return data, nil
}

// clientFault says in a few words what is wrong with a client file.
func clientFault(data []byte, err error) string {
	var top map[string]json.RawMessage
	_ = json.Unmarshal(data, &top)
	var kind string
	_ = json.Unmarshal(top["type"], &kind)
	switch {
	case top["web"] != nil:
		return "it is for a web application, not a desktop app."
	case kind == "service_account":
		return "it is a service account key, not an OAuth client."
	case errors.Is(err, ErrNotDesktopClient):
		return "it is not for a desktop app."
	}
	return "it is not an OAuth client file from Google Cloud Console."
}

// organisationClientError says which file of the organisation's is wrong
// and what is wrong with it; it matches err.
func organisationClientError(path string, err error, fault string) error {
	return &plainError{
		msg: fmt.Sprintf("The sign-in settings your organisation provided (%s) cannot be used: %s "+
			"Ask whoever set Hoist up to replace it with a \u201cDesktop app\u201d client.", path, fault),
		kind: err,
	}
}

// readClientFile reads a client file, refusing anything larger than a real one.
func readClientFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, plain(fmt.Sprintf("There is no file %s. Check the name and folder of the client file and try again.", path), err)
	}
	if err != nil {
		return nil, plain(fmt.Sprintf("Hoist could not open the client file %s. Check that you may read it and try again.", path), err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxClientFileSize+1))
	if err != nil {
		return nil, plain(fmt.Sprintf("Hoist could not read the client file %s. Choose the JSON file downloaded from Google Cloud Console.", path), err)
	}
	if len(data) > maxClientFileSize {
		return nil, ErrNotClientFile
	}
	return data, nil
}

// CheckClientFile tells whether the file at path is an OAuth client of
// the "Desktop app" type, without importing it: nil, or a plain sentence.
func CheckClientFile(path string) error {
	data, err := readClientFile(path)
	if err != nil {
		return err
	}
	return checkClientJSON(data)
}

// ClientOrigin says where the client Hoist signs in with comes from:
// precedence is built-in < organisation < the user's own import.
func (s *Service) ClientOrigin() ClientOrigin {
	if len(s.ClientJSON) > 0 {
		if checkClientJSON(s.ClientJSON) == nil {
			return ClientGiven
		}
		return ClientNone
	}
	if imported := s.importedClient(); len(imported) > 0 {
		if checkClientJSON(imported) == nil {
			return ClientImported
		}
		return ClientNone
	}
	if b, err := s.systemClient(); err == nil && b != nil {
		return ClientOrganisation
	}
	if _, err := chooseClient(nil, embeddedClient, embeddedFiles); err == nil {
		return ClientBuiltIn
	}
	return ClientNone
}

// ClientProblems lists, in plain sentences that name the file, what is
// wrong with the client files Hoist found: the organisation's and the
// user's own. Hoist goes on with the rest; an empty list means all is well.
func (s *Service) ClientProblems() []error {
	var out []error
	if _, err := s.systemClient(); err != nil {
		out = append(out, err)
	}
	if len(s.ClientJSON) == 0 {
		if imported := s.importedClient(); len(imported) > 0 {
			if err := checkClientJSON(imported); err != nil {
				path := clientFileName
				if dir, derr := s.configDir(); derr == nil {
					path = filepath.Join(dir, clientFileName)
				}
				out = append(out, &plainError{
					msg:  fmt.Sprintf("The client file you imported (%s) cannot be used: %s", path, err.Error()),
					kind: err,
				})
			}
		}
	}
	return out
}

// importedClient is the user's own client file, if any.
func (s *Service) importedClient() []byte {
	dir, err := s.configDir()
	if err != nil {
		return nil
	}
	b, _ := os.ReadFile(filepath.Join(dir, clientFileName))
	return b
}
