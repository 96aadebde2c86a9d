# "Upload with Hoist" in GNOME Files' menu for pictures and email files
# (.eml, Outlook's .msg, .mbox), as Dolphin, Nemo and Thunar offer it. GNOME
# Files runs this with its Python extension (python3-nautilus); Hoist is
# started with the chosen files, and hands them to its open window if one
# is open. Only files of this computer are offered, never folders.
import os

import gi

try:
    gi.require_version("Nautilus", "4.0")
except ValueError:
    gi.require_version("Nautilus", "3.0")
from gi.repository import GLib, GObject, Nautilus

# The same types as the other file managers' menus.
TYPES = (
    "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff", "image/svg+xml",
    "message/rfc822", "application/vnd.ms-outlook", "application/mbox",
)

LABELS = {
    "en": "Upload with Hoist",
    "ar": "التحميل باستخدام Hoist",
    "fa": "بارگذاری با Hoist",
    "he": "העלאה עם Hoist",
}


def label():
    """The menu's words in the user's language, as the desktop entries say them."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for lang in os.environ.get(var, "").split(":"):
            code = lang.split("_")[0].split(".")[0]
            if code in LABELS:
                return LABELS[code]
    return LABELS["en"]


class HoistUpload(GObject.GObject, Nautilus.MenuProvider):
    def get_file_items(self, *args):
        # Nautilus 43 and later pass the files; earlier ones the window first.
        files = args[-1]
        if not files or not all(self.takes(f) for f in files):
            return []
        item = Nautilus.MenuItem(name="Hoist::upload", label=label(), icon="app.hoist.desktop")
        item.connect("activate", self.upload, files)
        return [item]

    @staticmethod
    def takes(f):
        return f.get_uri_scheme() == "file" and not f.is_directory() and any(f.is_mime_type(t) for t in TYPES)

    @staticmethod
    def upload(_item, files):
        paths = [f.get_location().get_path() for f in files]
        # GLib reaps the program when it ends; the menu never waits for it.
        GLib.spawn_async(["hoist", *paths], flags=GLib.SpawnFlags.SEARCH_PATH)
