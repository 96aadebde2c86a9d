package media

import "hoist/engine/upload"

var errFileChanged = upload.ErrFileChanged
