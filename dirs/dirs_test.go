package dirs

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"
)

// env is an environment made of the given variables only.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestChoose(t *testing.T) {
	tests := []struct {
		name string
		goos string
		env  func(string) string
		home string
		want Folders
	}{
		{
			name: "Linux without XDG variables: the folders users' journals are in today",
			goos: "linux", env: env(), home: "/home/ana",
			want: Folders{
				Config: "/home/ana/.config/Hoist", Journal: "/home/ana/.config/Hoist",
				Data: "/home/ana/.local/share/Hoist", Cache: "/home/ana/.cache/Hoist",
				System: []string{"/etc/xdg/hoist"},
			},
		},
		{
			name: "Linux with XDG variables",
			goos: "linux", home: "/home/ana",
			env: env("XDG_CONFIG_HOME", "/cfg", "XDG_DATA_HOME", "/data", "XDG_CACHE_HOME", "/cache",
				"XDG_CONFIG_DIRS", "/etc/site:relative:/etc/xdg"),
			want: Folders{
				Config: "/cfg/Hoist", Journal: "/cfg/Hoist", Data: "/data/Hoist", Cache: "/cache/Hoist",
				System: []string{"/etc/site/hoist", "/etc/xdg/hoist"},
			},
		},
		{
			name: "Linux ignores relative XDG paths",
			goos: "freebsd", home: "/home/ana",
			env: env("XDG_CONFIG_HOME", "cfg", "XDG_DATA_HOME", "./data"),
			want: Folders{
				Config: "/home/ana/.config/Hoist", Journal: "/home/ana/.config/Hoist",
				Data: "/home/ana/.local/share/Hoist", Cache: "/home/ana/.cache/Hoist",
				System: []string{"/etc/xdg/hoist"},
			},
		},
		{
			name: "Linux without a home but with XDG_CONFIG_HOME",
			goos: "linux", env: env("XDG_CONFIG_HOME", "/cfg"),
			want: Folders{
				Config: "/cfg/Hoist", Journal: "/cfg/Hoist", Data: "/cfg/Hoist", Cache: "/cfg/Hoist/Cache",
				System: []string{"/etc/xdg/hoist"},
			},
		},
		{
			name: "Windows: settings roam, the upload list and data stay on the computer",
			goos: "windows", home: `C:\Users\ana`,
			env: env("APPDATA", `C:\Users\ana\AppData\Roaming`, "LOCALAPPDATA", `C:\Users\ana\AppData\Local\`,
				"ProgramData", `D:\ProgramData`, "XDG_CONFIG_HOME", "/ignored"),
			want: Folders{
				Config:  `C:\Users\ana\AppData\Roaming\Hoist`,
				Journal: `C:\Users\ana\AppData\Local\Hoist`,
				Data:    `C:\Users\ana\AppData\Local\Hoist`,
				Cache:   `C:\Users\ana\AppData\Local\Hoist\Cache`,
				System:  []string{`D:\ProgramData\Hoist`},
			},
		},
		{
			name: "Windows without the variables falls back on the home folder's layout",
			goos: "windows", home: `C:\Users\ana`, env: env("APPDATA", "relative"),
			want: Folders{
				Config:  `C:\Users\ana\AppData\Roaming\Hoist`,
				Journal: `C:\Users\ana\AppData\Local\Hoist`,
				Data:    `C:\Users\ana\AppData\Local\Hoist`,
				Cache:   `C:\Users\ana\AppData\Local\Hoist\Cache`,
				System:  []string{`C:\ProgramData\Hoist`},
			},
		},
		{
			name: "Windows profile on a share",
			goos: "windows", env: env("APPDATA", `\\srv\profiles\ana`, "LOCALAPPDATA", `C:\Local`),
			want: Folders{
				Config: `\\srv\profiles\ana\Hoist`, Journal: `C:\Local\Hoist`, Data: `C:\Local\Hoist`,
				Cache: `C:\Local\Hoist\Cache`, System: []string{`C:\ProgramData\Hoist`},
			},
		},
		{
			name: "macOS: Application Support, the same place as before",
			goos: "darwin", home: "/Users/ana", env: env("XDG_CONFIG_HOME", "/ignored"),
			want: Folders{
				Config:  "/Users/ana/Library/Application Support/Hoist",
				Journal: "/Users/ana/Library/Application Support/Hoist",
				Data:    "/Users/ana/Library/Application Support/Hoist",
				Cache:   "/Users/ana/Library/Caches/Hoist",
				System:  []string{"/Library/Application Support/Hoist"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Choose(tt.goos, tt.env, tt.home)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Choose(%s) =\n%+v\nwant\n%+v", tt.goos, got, tt.want)
			}
		})
	}
}

func TestChooseWithoutAnyFolder(t *testing.T) {
	for _, goos := range []string{"linux", "windows", "darwin"} {
		if _, err := Choose(goos, env(), ""); !errors.Is(err, ErrNoFolder) {
			t.Errorf("Choose(%s) with no home and no variables = %v, want ErrNoFolder", goos, err)
		}
	}
}

// On this computer, Hoist's settings are where the system's own function
// for them points (users' journals keep being found).
func TestCurrentMatchesTheSystem(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if runtime.GOOS == "windows" {
		t.Setenv("APPDATA", filepath.Join(home, "Roaming"))
	} else {
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	}
	base, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Config()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(base, App); got != want {
		t.Errorf("Config() = %s, want %s", got, want)
	}
}
