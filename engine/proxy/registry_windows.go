package proxy

import (
	"strings"

	"golang.org/x/sys/windows/registry"
)

// systemRegistry reads this computer's registry.
type systemRegistry struct{}

func (Finder) systemRegistry() Registry { return systemRegistry{} }

func open(key string) (registry.Key, error) {
	hive, path, _ := strings.Cut(key, `\`)
	root := registry.CURRENT_USER
	if hive == "HKLM" {
		root = registry.LOCAL_MACHINE
	}
	return registry.OpenKey(root, path, registry.QUERY_VALUE)
}

func (systemRegistry) String(key, name string) (string, bool) {
	k, err := open(key)
	if err != nil {
		return "", false
	}
	defer k.Close()
	v, _, err := k.GetStringValue(name)
	return v, err == nil
}

func (systemRegistry) Integer(key, name string) (uint64, bool) {
	k, err := open(key)
	if err != nil {
		return 0, false
	}
	defer k.Close()
	v, _, err := k.GetIntegerValue(name)
	return v, err == nil
}

func (systemRegistry) Binary(key, name string) ([]byte, bool) {
	k, err := open(key)
	if err != nil {
		return nil, false
	}
	defer k.Close()
	v, _, err := k.GetBinaryValue(name)
	return v, err == nil
}
