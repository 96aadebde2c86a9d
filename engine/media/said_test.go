package media_test

import (
	"hoist/engine/media"
	"hoist/words"
)

func init() {
	media.SayEnglish = func(err error) string {
		s, _ := words.English().Error(err)
		return s
	}
}
