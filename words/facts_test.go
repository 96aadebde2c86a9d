package words

import (
	"strings"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/internal/goconst"
)

// TestFactsInEnglish pins the English sentences: they are the ones the
// engine writes today, so moving the engine to facts changes no word.
func TestFactsInEnglish(t *testing.T) {
	en := English()
	for _, tc := range []struct {
		f    fact.Fact
		want string
	}{
		{fact.Fact{Code: fact.FileMissing, File: "a.png"}, "a.png is no longer there (it may have been moved or deleted)."},
		{fact.Fact{Code: fact.FileChanged, File: "a.png"}, "a.png changed since it was added, so Hoist stopped rather than mix old and new parts."},
		{fact.Fact{Code: fact.FileSpecial, File: "p", Args: map[string]string{"kind": "pipe"}}, "p is a named pipe, not a regular file, so it cannot be uploaded."},
		{fact.Fact{Code: fact.TooLarge, File: "big.png", Dest: "playgames", Size: 20_000_000, Limit: 15_000_000}, "big.png is 20 MB; Play Games images can be at most 15 MB."},
		{fact.Fact{Code: fact.TooLarge, File: "x.eml", Dest: "gmail-send", Size: 35_000_001, Limit: 35_000_000}, "x.eml is 35,000,001 bytes; Gmail can send emails of at most 35,000,000 bytes."},
		{fact.Fact{Code: fact.TooLarge, File: "x.bin", Dest: "custom", Size: 2_000_000, Limit: 1_000_000, Args: map[string]string{"name": "Archive"}}, "x.bin is 2 MB; Archive takes files of at most 1 MB."},
		{fact.Fact{Code: fact.Empty, File: "e.eml", Dest: "gmail-insert"}, "e.eml is empty (0 bytes); Gmail cannot take an empty email."},
		{fact.Fact{Code: fact.Empty, File: "e.png", Dest: "cm360"}, "e.png is empty (0 bytes); Campaign Manager 360 cannot take an empty file."},
		{fact.Fact{Code: fact.AnswerLost, Dest: "sandbox"}, "The file was sent, but the connection broke before the sandbox answered, so it may or may not have arrived. Check the sandbox before sending it again."},
		{fact.Fact{Code: fact.BadResponse, Dest: "sandbox"}, "The sandbox gave an answer Hoist could not understand."},
		{fact.Fact{Code: fact.ServerLimit, Dest: "cm360"}, "Google says this account has hit its upload limit for now. Wait a while before trying again."},
		{fact.Fact{Code: fact.ServerTrouble, Dest: "custom", Status: 503}, "The server had a problem on its side (error 503). Try again later."},
		// Google's words are quoted apart from the sentence (words.QuotesGoogle).
		{fact.Fact{Code: fact.RefusedFile, Dest: "cm360", Status: 400, Google: "Invalid asset."}, "Google refused the file (error 400)."},
		{fact.Fact{Code: fact.RefusedFile, Dest: "cm360", Status: 400}, "Google refused the file (error 400)."},
		{fact.Fact{Code: fact.RefusedUpload, Dest: "custom", Status: 418, Args: map[string]string{"who": "google"}}, "Google refused the upload (error 418)."},
		{fact.Fact{Code: fact.ServiceOff, Dest: "cm360", Google: "API not enabled."}, "This Google service is not turned on for the app's Google Cloud project. Google says: API not enabled."},
		{fact.Fact{Code: fact.Forbidden, Dest: "cm360", Args: map[string]string{"advertiser": "42"}}, "This account cannot upload to advertiser 42."},
		{fact.Fact{Code: fact.NotFound, Dest: "gmail-draft", Args: map[string]string{"draft": "r1", "user": "me"}}, "The draft to update no longer exists."},
		{fact.Fact{Code: fact.NotFound, Dest: "gmail-draft", Args: map[string]string{"user": "me"}}, "Gmail could not find the mailbox me."},
		{fact.Fact{Code: fact.Forbidden, Dest: "drive"}, "This account cannot add files to that folder."},
		{fact.Fact{Code: fact.Forbidden, Dest: "youtube"}, "This account cannot upload videos to YouTube."},
		{fact.Fact{Code: fact.Dropped, GaveUp: true}, "The connection dropped. Hoist tried several times and gave up for now."},
		{fact.Fact{Code: fact.RetryIn, Wait: 8 * time.Second}, "Hoist will try again in 8 seconds."},
		{fact.Fact{Code: fact.RestartLost, Dest: "playgames"}, "Google no longer had the earlier part, so this file starts again from the beginning."},
		{fact.Fact{Code: fact.BatchDone, Count: 3, Args: map[string]string{"failed": "1"}}, "3 files uploaded. 1 needs your attention."},
		{fact.Fact{Code: fact.BatchDone, Count: 1}, "1 file uploaded."},
		{fact.Fact{Code: fact.ListMended, Count: 2, Wait: 40 * time.Minute, File: "list.bad", Args: map[string]string{"dropped": "1"}},
			"2 uploads in the list were damaged; Hoist put them back as the copy it kept 40 minutes ago had them, so changes made to them since then may be missing. A copy of the old list is kept in list.bad. One more damaged upload was not in that copy and has been left out."},
		{fact.Fact{Code: fact.ListMended, Count: 1, Wait: time.Hour, File: "list.bad"},
			"One upload in the list was damaged; Hoist put it back as the copy it kept 1 hour ago had it, so a change made to it since then may be missing. A copy of the old list is kept in list.bad."},
		{fact.Fact{Code: fact.NotNumber, Field: "Profile ID"}, "Profile ID must be a number, like 1234567."},
		{fact.Fact{Code: fact.BadMediaTypes, Field: "Accepted types", Google: "png"}, `Accepted types must be media types like image/* or application/pdf, separated by commas; "png" is not one.`},
		{fact.Fact{Code: fact.BadJSON, Field: "Metadata", Count: 12}, "Metadata is not valid JSON (the problem is near character 12)."},
		{fact.Fact{Code: "from.a.newer.hoist"}, "Something happened that this version of Hoist cannot describe (from.a.newer.hoist)."},
	} {
		if got := en.Fact(tc.f); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.f.Code, got, tc.want)
		}
	}
}

func TestFactsInPersianArabicHebrew(t *testing.T) {
	big := fact.Fact{Code: fact.TooLarge, File: "تصویر.png", Dest: "playgames", Size: 20_000_000, Limit: 15_000_000}
	for _, tc := range []struct {
		lang string
		f    fact.Fact
		want string
	}{
		{"fa", big, "«\u2068تصویر.png\u2069» ۲۰ مگابایت است؛ تصویرهای Play Games حداکثر ۱۵ مگابایت می\u200cتوانند باشند."},
		{"ar", big, "حجم «\u2068تصویر.png\u2069» ٢٠ ميغابايت؛ أقصى حجم لصور Play Games هو ١٥ ميغابايت."},
		{"he", big, "הגודל של \u2068تصویر.png\u2069 הוא 20 MB; תמונות ב-Play Games יכולות להיות בגודל של עד 15 MB."},
		{"fa", fact.Fact{Code: fact.RetryIn, Wait: 8 * time.Second}, "Hoist تا ۸ ثانیه دیگر دوباره تلاش می\u200cکند."},
		{"ar", fact.Fact{Code: fact.BatchDone, Count: 11, Args: map[string]string{"failed": "3"}}, "تم تحميل ١١ ملفًا. ٣ ملفات تحتاج إلى تدخّلك."},
		{"he", fact.Fact{Code: fact.BatchDone, Count: 2}, "שני קבצים הועלו."},
		{"he", fact.Fact{Code: fact.ListMended, Count: 2, Wait: time.Hour, File: "list.bad", Args: map[string]string{"dropped": "2"}}, "שתי העלאות ברשימה נפגמו, ולכן Hoist החזיר אותן כפי שהן בעותק ששמר לפני שעה אחת; ייתכן ששינויים שנעשו בהן מאז חסרים. עותק של הרשימה הישנה שמור ב-\u2068list.bad\u2069. שתי העלאות פגומות נוספות לא היו בעותק הזה והוצאו מהרשימה."},
	} {
		if got := New(tc.lang).Fact(tc.f); got != tc.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.lang, tc.f.Code, got, tc.want)
		}
	}
}

// An error's number is a number like any other: in Persian and Arabic
// digits in their sentences, as Google's own error pages write it there.
func TestErrorNumbersInTheLanguagesDigits(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{{"fa", "۵۰۳"}, {"ar", "٥٠٣"}, {"he", "503"}, {"en", "503"}} {
		got := New(tc.lang).Fact(fact.Fact{Code: fact.ServerTrouble, Dest: "custom", Status: 503})
		if !strings.Contains(got, tc.want) || (tc.want != "503" && strings.Contains(got, "503")) {
			t.Errorf("%s: %q, want the error number as %s", tc.lang, got, tc.want)
		}
	}
}

// codes lists the constants of type fact.Code declared in engine/fact and
// by the kinds of destination in engine/dest (their own facts).
func codes(t *testing.T) []fact.Code {
	t.Helper()
	consts, err := goconst.Declared("Code", "../engine/fact/fact.go", "../engine/dest/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []fact.Code
	for _, c := range consts {
		if c.Value != "" {
			out = append(out, fact.Code(c.Value))
		}
	}
	return out
}

// TestEveryFactSaidInEveryLanguage renders every code, for every kind of
// destination, with every parameter set, in the four languages.
func TestEveryFactSaidInEveryLanguage(t *testing.T) {
	all := codes(t)
	if len(all) < 50 {
		t.Fatalf("found only %d codes in engine/fact", len(all))
	}
	kinds := []string{"", "unknown"}
	for _, info := range dest.Kinds() {
		kinds = append(kinds, string(info.Kind))
	}
	for _, code := range Codes {
		l := New(code)
		for _, c := range all {
			if !has("fact." + string(c)) {
				t.Errorf("fact %q has no sentence (fact.%s)", c, c)
				continue
			}
			for _, kind := range kinds {
				f := fact.Fact{Code: c, File: "a.png", Field: "F", Dest: kind, Size: 2e6, Limit: 1e6, Wait: time.Minute,
					Count: 3, Status: 400, Google: "g", Args: map[string]string{"kind": "pipe", "advertiser": "1", "user": "me",
						"profile": "2", "resource": "r", "draft": "d", "scopes": "s", "choices": "a, b", "type": "t", "accept": "a",
						"failed": "2", "name": "N", "version": "v3", "current": "v5", "check": "md5", "server": "x", "file": "y",
						"id": "7", "title": "T", "url": "https://example.com/7", "privacy": "unlisted", "warned": "w", "port": "99999",
						"example": "--to x", "kinds": "a, b", "accounts": "a@b, c@d", "flag": "--account", "action": "pause", "state": "done", "names": "“A”", "list": "gmail.labels", "bucket": "b", "proxy": "proxy.corp:8080", "origin": "windows", "issuer": "Corp Root CA", "object": "O"}, Received: 1e6}
				s := l.Fact(f)
				if s == "" || strings.Contains(s, "<no value>") || strings.Contains(s, "fact.") {
					t.Errorf("%s: %s (%s) = %q", code, c, kind, s)
				}
			}
		}
	}
}

func TestSaidFromAnOlderJournal(t *testing.T) {
	fa := New("fa")
	legacy := fact.Said{Legacy: "The connection dropped."}
	if got := fa.Said(legacy); got != "The connection dropped." {
		t.Errorf("a legacy sentence = %q", got)
	}
	if got := fa.Said(fact.Of(fact.Fact{Code: fact.Dropped})); got != "اتصال قطع شد." {
		t.Errorf("a fact = %q", got)
	}
	if got := fa.Said(fact.Said{}); got != "" {
		t.Errorf("nothing said = %q", got)
	}
}

// TestEveryProxyOriginSaid: each place engine/proxy finds a setting in has
// its words, so a sentence never names a proxy "from" nowhere.
func TestEveryProxyOriginSaid(t *testing.T) {
	consts, err := goconst.Declared("Origin", "../engine/proxy/setting.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(consts) < 8 {
		t.Fatalf("found only %d origins", len(consts))
	}
	for _, c := range consts {
		if c.Value == "" {
			continue
		}
		if _, ok := proxyOrigins[c.Value]; !ok {
			t.Errorf("origin %q has no words", c.Value)
		}
		for _, code := range Codes {
			if s := New(code).ProxyOrigin(c.Value); s == "" || strings.HasPrefix(s, "proxy.") {
				t.Errorf("%s: origin %q = %q", code, c.Value, s)
			}
		}
	}
}
