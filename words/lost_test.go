package words

import (
	"strings"
	"testing"
	"time"

	"hoist/engine/fact"
)

// A lost answer is said as it was lost: the connection broke, or the server
// answered only that it broke down (a 5xx after the whole file went out),
// in every language.
func TestLostAnswerSaysHowItWasLost(t *testing.T) {
	at := time.Date(2026, 11, 28, 15, 32, 0, 0, time.UTC).Format(time.RFC3339)
	for _, code := range Codes {
		l := New(code)
		for _, c := range []fact.Code{fact.LostLook, fact.LostUnmarked, fact.LostAsk, fact.LostAllow} {
			broke := l.Fact(fact.Fact{Code: c, File: "a.eml", Dest: "gmail-insert", Args: map[string]string{"at": at, "scopes": "s"}})
			trouble := l.Fact(fact.Fact{Code: c, File: "a.eml", Dest: "gmail-insert", Status: 503, Args: map[string]string{"at": at, "scopes": "s"}})
			if broke == trouble || !strings.Contains(trouble, l.Digits("503")) || strings.Contains(broke, l.Digits("503")) {
				t.Errorf("%s %s: %q / %q", code, c, broke, trouble)
			}
			if strings.Contains(trouble, "<no value>") || strings.Contains(broke, "<no value>") {
				t.Errorf("%s %s: %q / %q", code, c, broke, trouble)
			}
		}
	}
	en := New("en").Fact(fact.Fact{Code: fact.LostLook, File: "a.png", Dest: "cm360", Status: 502, Args: map[string]string{"at": at}})
	if !strings.Contains(en, "but Google answered only that it had a problem on its side (error 502), so it may or may not have arrived") {
		t.Errorf("en: %q", en)
	}
}
