package engine_test

import (
	"slices"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
	"hoist/words"
)

// sample is a destination of the kind with every required setting set to
// a value it takes, sent to base.
func sample(info dest.KindInfo, base string) dest.Destination {
	d := dest.Destination{Kind: info.Kind, BaseURL: base, Params: map[string]string{}}
	for _, f := range info.Fields {
		if !f.Required {
			continue
		}
		switch {
		case f.Kind == dest.NumberField:
			d.Params[f.Key] = "1234"
		case f.Kind == dest.ChoiceField:
			d.Params[f.Key] = f.Choices[0]
		case f.Key == "url": // an upload URL, on Google so that it needs a scope
			d.Params[f.Key] = "https://www.googleapis.com/upload/things/v1/items?name=sample"
			d.Params["scope"] = "things.write"
		default:
			d.Params[f.Key] = "sample-r1" // an id, a name: what any text setting takes
		}
	}
	return d
}

// TestEveryDestination walks the list of destinations: each has fields
// with labels and help, a flag for each setting the command line takes,
// scopes when it goes to Google, a plan, a route of its own in the sandbox,
// a result and its own words for Google's refusals, and takes a small
// file with every upload method it allows.
func TestEveryDestination(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"email": writeFile(t, dir, "hello.eml", emailText("Hello", 4*kib)),
		"image": pngFile(t, dir, "icon.png", 40*kib),
		"video": mp4File(t, dir, "clip.mp4", 40*kib),
	}
	flags := map[string]string{}
	for _, f := range dest.Flags() {
		flags[f.Key] = f.Name
	}
	own := map[dest.Kind]bool{dest.Sandbox: true, dest.Custom: true} // served by the sandbox's general route
	for _, info := range dest.Kinds() {
		t.Run(string(info.Kind), func(t *testing.T) {
			en := words.English()
			if name, short, accepts := en.KindName(info.Kind), en.KindShort(info.Kind), en.Accepts(info.Kind); name == string(info.Kind) || short == string(info.Kind) || accepts == "" || len(info.Fields) == 0 {
				t.Errorf("name %q, short %q, accepts %q, %d fields", name, short, accepts, len(info.Fields))
			}
			for _, f := range info.Fields {
				if label, help := en.Field(info.Kind, f); f.Key == "" || label == f.Key || help == "" {
					t.Errorf("field %+v lacks a key (%q), label (%q) or help (%q)", f, f.Key, label, help)
				}
				if name := f.FlagName(); name != "" && flags[f.Key] != name {
					t.Errorf("field %s: flag --%s is not on the command line", f.Key, name)
				}
			}
			google := sample(info, "")
			if google.NeedsAuth() && len(google.Scopes()) == 0 {
				t.Error("goes to Google with no scope")
			}
			if info.Server != "" {
				ownWords(t, info.Kind)
			}
			file := files["image"]
			switch {
			case info.Kind.Family() == "gmail":
				file = files["email"]
			case info.Kind == dest.YouTube:
				file = files["video"]
			}
			for _, m := range []upload.Method{upload.Media, upload.Multipart, upload.Resumable} {
				l := newLab(t, emulator.Options{}, m, 0)
				d := sample(info, l.url)
				v := l.one(d, file)
				if m == upload.Media && v.State == engine.Refused {
					info, err := media.Inspect(file)
					if err != nil {
						t.Fatal(err)
					}
					if p, err := d.Plan(info); err != nil || !dest.MetadataMatters(p.Target.Metadata) {
						t.Errorf("media refused (%q) though the plan carries no metadata", reasonOf(v))
					}
					continue // what it needs cannot go without metadata
				}
				r := done(t, v)
				if summaryOf(r) == "" {
					t.Errorf("%s: no summary of the result", m)
				}
				obj := l.object()
				if (obj.Kind == emulator.KindGeneric) != own[info.Kind] {
					t.Errorf("%s: the sandbox served it as %s", m, obj.Kind)
				}
			}
		})
	}
}

// ownWords checks that a destination that is not named by its user says
// its own facts in every language the app has: it is named, its server
// answers for it, and a refused account and a missing place read otherwise
// than for any URL; a Google destination also says a file too large its
// own way.
func ownWords(t *testing.T, kind dest.Kind) {
	t.Helper()
	own := []fact.Code{fact.Forbidden, fact.NotFound}
	if kind.Info().Server == dest.GoogleServer {
		own = append(own, fact.TooLarge)
	}
	for _, lang := range words.Codes {
		l := words.New(lang)
		for _, code := range []fact.Code{fact.TooLarge, fact.Forbidden, fact.NotFound, fact.ServerTrouble} {
			f := fact.Fact{Code: code, File: "a.png", Dest: string(kind), Size: 2 << 20, Limit: 1 << 20, Status: 500}
			anyURL := f
			anyURL.Dest, anyURL.Args = string(dest.Custom), map[string]string{"name": "Archive"}
			s := l.Fact(f)
			if s == "" || strings.Contains(s, "fact.") || strings.Contains(s, "kind.") || strings.Contains(s, "Archive") {
				t.Errorf("%s: %s reads %q", lang, code, s)
			}
			if slices.Contains(own, code) && s == l.Fact(anyURL) {
				t.Errorf("%s: %s reads as for any URL: %q", lang, code, s)
			}
		}
	}
}
