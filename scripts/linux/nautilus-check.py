# Checks GNOME Files' "Upload with Hoist" (hoist-nautilus.py) without GNOME
# Files: the extension is loaded with stand-ins for the parts of gi it uses,
# then asked for its menu on pictures, email files (.eml, .msg, .mbox), a
# document, a folder and a file that is not on this computer, and the item
# it offers is chosen.
#
# Usage: python3 nautilus-check.py EXTENSION.py
import importlib.util
import os
import sys
import types

spawned = []
gi = types.ModuleType("gi")
gi.require_version = lambda name, version: None
repository = types.ModuleType("gi.repository")


class GObject:
    pass


class MenuProvider:
    pass


class MenuItem:
    def __init__(self, name, label, icon):
        self.name, self.label, self.icon, self.handlers = name, label, icon, []

    def connect(self, signal, handler, *data):
        self.handlers.append((signal, handler, data))


repository.GObject = types.SimpleNamespace(GObject=GObject)
repository.Nautilus = types.SimpleNamespace(MenuProvider=MenuProvider, MenuItem=MenuItem)
repository.GLib = types.SimpleNamespace(
    SpawnFlags=types.SimpleNamespace(SEARCH_PATH=2),
    spawn_async=lambda argv, flags=0: spawned.append((argv, flags)),
)
gi.repository = repository
sys.modules.update({"gi": gi, "gi.repository": repository})


class File:
    """A file as GNOME Files gives it to extensions (Nautilus.FileInfo)."""

    def __init__(self, path, mime, scheme="file", folder=False):
        self.path, self.mime, self.scheme, self.folder = path, mime, scheme, folder

    def get_uri_scheme(self):
        return self.scheme

    def is_directory(self):
        return self.folder

    def is_mime_type(self, t):
        return self.mime == t

    def get_location(self):
        return types.SimpleNamespace(get_path=lambda: self.path)


def fail(why):
    print("nautilus-check: FAIL: " + why, file=sys.stderr)
    sys.exit(1)


spec = importlib.util.spec_from_file_location("hoist_nautilus", sys.argv[1])
ext = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ext)
menu = ext.HoistUpload()

mail = [
    File("/home/ana/RE Budget.msg", "application/vnd.ms-outlook"),
    File("/home/ana/Takeout/All mail.mbox", "application/mbox"),
    File("/home/ana/report.eml", "message/rfc822"),
    File("/home/ana/صورة.png", "image/png"),
]
# Nautilus 43+ passes the files; older ones the window first.
for args in ((mail,), (object(), mail)):
    items = menu.get_file_items(*args)
    if len(items) != 1 or items[0].label != "Upload with Hoist":
        fail("no 'Upload with Hoist' for pictures and email files: %r" % items)
signal, handler, data = items[0].handlers[0]
if signal != "activate":
    fail("the item answers %r, not activate" % signal)
handler(items[0], *data)
if spawned != [(["hoist"] + [f.path for f in mail], 2)]:
    fail("choosing the item started %r" % spawned)

for what, files in {
    "a document": [File("/home/ana/a.odt", "application/vnd.oasis.opendocument.text")],
    "a folder": [File("/home/ana/Pictures", "inode/directory", folder=True)],
    "a file elsewhere": [File("/a.png", "image/png", scheme="sftp")],
    "a document among emails": mail + [File("/home/ana/a.odt", "application/vnd.oasis.opendocument.text")],
    "nothing": [],
}.items():
    if menu.get_file_items(files):
        fail("Hoist is offered for " + what)

os.environ.update(LANGUAGE="", LC_ALL="", LC_MESSAGES="fa_IR.UTF-8")
if menu.get_file_items(mail)[0].label != "بارگذاری با Hoist":
    fail("the menu does not speak Persian in a Persian session")
print("nautilus-check: ok")
