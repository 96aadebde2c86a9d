package words

import (
	"strings"
	"testing"
	"time"
)

// TestPlurals checks counts in each language, Arabic's six forms among them
// (0, 1, 2, 3, 11 and 100 take each a different one).
func TestPlurals(t *testing.T) {
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"ar_EG.UTF-8", 0, "٠ ملف"},
		{"ar_EG.UTF-8", 1, "ملف واحد"},
		{"ar_EG.UTF-8", 2, "ملفان"},
		{"ar_EG.UTF-8", 3, "٣ ملفات"},
		{"ar_EG.UTF-8", 11, "١١ ملفًا"},
		{"ar_EG.UTF-8", 100, "١٠٠ ملف"},
		{"en", 1, "1 file"},
		{"en", 0, "0 files"},
		{"en", 1200, "1,200 files"},
		{"fa", 1, "۱ فایل"},
		{"fa", 12, "۱۲ فایل"},
		{"he", 1, "קובץ אחד"},
		{"he", 2, "שני קבצים"},
		{"he", 11, "11 קבצים"},
	} {
		if got := New(tc.lang).Count(tc.n); got != tc.want {
			t.Errorf("%s: Count(%d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

// "Two of two files" after a preposition: Arabic takes the dual's
// genitive (ملفين), not the nominative of a count on its own (ملفان).
func TestFilesDoneAfterOf(t *testing.T) {
	for _, tc := range []struct {
		lang    string
		done, n int
		want    string
	}{
		{"ar_EG.UTF-8", 2, 2, "٢ من ملفين"},
		{"ar_EG.UTF-8", 1, 1, "١ من ملف واحد"},
		{"ar_EG.UTF-8", 3, 11, "٣ من ١١ ملفًا"},
		{"en", 2, 2, "2 of 2 files"},
		{"he", 1, 2, "1 מתוך שני קבצים"},
	} {
		if got := New(tc.lang).Say("count.filesDone", Args{"Done": tc.done, "N": tc.n}); got != tc.want {
			t.Errorf("%s: %d of %d = %q, want %q", tc.lang, tc.done, tc.n, got, tc.want)
		}
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		rtl        bool
	}{
		{"fa_IR.UTF-8", "fa", true},
		{"ar_EG.UTF-8", "ar", true},
		{"he_IL.UTF-8", "he", true},
		{"iw_IL", "he", true},
		{"en_GB.UTF-8", "en", false},
		{"de_DE.UTF-8", "en", false},
		{"C.UTF-8", "en", false},
		{"", "en", false},
		{"fa-AF", "fa", true},
		{"ar@latin", "ar", true},
	} {
		l := New(tc.name)
		if l.Code() != tc.code || l.RTL() != tc.rtl {
			t.Errorf("New(%q) = %s (rtl %v), want %s (rtl %v)", tc.name, l.Code(), l.RTL(), tc.code, tc.rtl)
		}
	}
}

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 1_200_000_000, "1.2 GB"},
		{"en", 999_999, "1 MB"},
		{"en", 1, "1 byte"},
		{"en", 512, "512 bytes"},
		{"en", 2_000_000_000_000_000, "2 PB"},
		{"fa", 2_000_000_000_000_000_000, "۲ اگزابایت"},
		{"fa", 1_200_000_000, "۱٫۲ گیگابایت"},
		{"fa_IR.UTF-8", 1_200_000_000, "۱٫۲ گیگابایت"},
		{"fa", 25_000_000, "۲۵ مگابایت"},
		{"ar", 1_200_000_000, "١٫٢ غيغابايت"},
		{"ar_EG.UTF-8", 3, "٣ بايتات"},
		{"ar_EG.UTF-8", 11, "١١ بايتًا"},
		{"ar_MA.UTF-8", 1_200_000_000, "1,2 غيغابايت"}, // CLDR: Morocco writes Latin digits, a decimal comma
		{"he", 1_200_000_000, "1.2 GB"},
		{"he", 1, "בייט אחד"},
	} {
		if got := New(tc.lang).Size(tc.n); got != tc.want {
			t.Errorf("%s: Size(%d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		lang                   string
		percent, speed, bigInt string
	}{
		{"en", "45%", "1.5 MB/s", "1,234,567"},
		{"fa", "۴۵٪", "۱٫۵ مگابایت در ثانیه", "۱٬۲۳۴٬۵۶۷"},
		{"ar", "٤٥٪؜", "١٫٥ ميغابايت في الثانية", "١٬٢٣٤٬٥٦٧"},
		{"he", "45%", "1.5 MB לשנייה", "1,234,567"},
	} {
		l := New(tc.lang)
		if got := l.Percent(0.45); got != tc.percent {
			t.Errorf("%s: Percent = %q, want %q", tc.lang, got, tc.percent)
		}
		if got := l.Speed(1_500_000); got != tc.speed {
			t.Errorf("%s: Speed = %q, want %q", tc.lang, got, tc.speed)
		}
		if got := l.Int(1234567); got != tc.bigInt {
			t.Errorf("%s: Int = %q, want %q", tc.lang, got, tc.bigInt)
		}
	}
}

func TestDurations(t *testing.T) {
	for _, tc := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"en", 2 * time.Second, "a few seconds"},
		{"en", 8 * time.Second, "8 seconds"},
		{"en", 70 * time.Second, "a minute"},
		{"en", 4 * time.Minute, "4 minutes"},
		{"en", time.Hour + 5*time.Minute, "1 hour 5 minutes"},
		{"en", 2 * time.Hour, "2 hours"},
		{"fa", 8 * time.Second, "۸ ثانیه"},
		{"fa", time.Hour + 5*time.Minute, "۱ ساعت و ۵ دقیقه"},
		{"ar", 4 * time.Minute, "٤ دقائق"},
		{"ar", 2 * time.Hour, "ساعتان"},
		{"ar", 11 * time.Minute, "١١ دقيقة"},
		{"he", 2 * time.Hour, "שעתיים"},
		{"he", 4 * time.Minute, "4 דקות"},
	} {
		if got := New(tc.lang).Duration(tc.d); got != tc.want {
			t.Errorf("%s: Duration(%v) = %q, want %q", tc.lang, tc.d, got, tc.want)
		}
	}
	if got := New("fa").TimeLeft(4 * time.Minute); got != "حدود ۴ دقیقه مانده" {
		t.Errorf("fa: TimeLeft = %q", got)
	}
	if got := English().TimeLeft(4 * time.Minute); got != "about 4 minutes left" {
		t.Errorf("en: TimeLeft = %q", got)
	}
}

// TestFewSecondsLeft: a time left too short to count is "a few seconds
// left" in every language, not "about a few seconds left"; at 5 seconds it
// is counted again.
func TestFewSecondsLeft(t *testing.T) {
	for _, tc := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"en", 2 * time.Second, "a few seconds left"},
		{"en", 0, "a few seconds left"},
		{"en", 5 * time.Second, "about 5 seconds left"},
		{"fa", 3 * time.Second, "چند ثانیه مانده"},
		{"ar", 3 * time.Second, "تتبقّى بضع ثوانٍ"},
		{"he", 3 * time.Second, "נותרו כמה שניות"},
	} {
		if got := New(tc.lang).TimeLeft(tc.d); got != tc.want {
			t.Errorf("%s: TimeLeft(%v) = %q, want %q", tc.lang, tc.d, got, tc.want)
		}
	}
}

func TestDates(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 5, 0, 0, time.UTC)
	for _, tc := range []struct{ lang, want string }{
		{"en", "23 November 2026, 14:05"},
		{"fa", "۲۳ نوامبر ۲۰۲۶، ساعت ۱۴:۰۵"},
		{"ar", "٢٣ نوفمبر ٢٠٢٦، ١٤:٠٥"},
		{"he", "23 בנובמבר 2026, 14:05"},
	} {
		if got := New(tc.lang).Date(at); got != tc.want {
			t.Errorf("%s: Date = %q, want %q", tc.lang, got, tc.want)
		}
	}
}

func TestStatesAndActions(t *testing.T) {
	for _, tc := range []struct{ lang, state, want string }{
		{"en", "uploading", "Uploading"},
		{"fa", "uploading", "در حال بارگذاری"},
		{"ar", "refused", "مرفوض"},
		{"he", "paused", "מושהה"},
		{"fa", "from-a-newer-hoist", "from-a-newer-hoist"},
	} {
		if got := New(tc.lang).State(tc.state); got != tc.want {
			t.Errorf("%s: State(%q) = %q, want %q", tc.lang, tc.state, got, tc.want)
		}
	}
	// The next steps name the buttons by their own words.
	for _, code := range Codes {
		l := New(code)
		for _, tc := range []struct{ action, key string }{{"resume", "fact.next.resume"}, {"retry", "fact.next.retry"}} {
			if next := l.Say(tc.key, nil); !strings.Contains(next, l.Action(tc.action)) {
				t.Errorf("%s: %q does not name the button %q", code, next, l.Action(tc.action))
			}
		}
	}
}
