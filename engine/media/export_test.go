package media

// SayEnglish says an error as the window and the command line say it in
// English (package words, which imports this one, fills it in for tests).
var SayEnglish func(err error) string
