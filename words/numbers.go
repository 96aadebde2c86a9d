package words

import (
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/number"

	"hoist/engine/media"
)

// Numbers the way each language writes them: Persian with Persian digits
// (۱٫۲), Arabic with Arabic-Indic digits (١٫٢) except where CLDR says the
// region writes Latin digits (Maghreb: 1,2), Hebrew and English with Latin
// digits.

// latinArabic are the regions where CLDR's default numbering system for
// Arabic is Latin digits.
var latinArabic = map[string]bool{"DZ": true, "EH": true, "LY": true, "MA": true, "TN": true}

// withNumbers settles the numbering system of tag as CLDR has it. x/text
// loses it for tags with a region (it writes ar-EG and fa-IR with Latin
// digits), so the system is named explicitly unless the user named one
// (a "-u-nu-" extension).
func withNumbers(tag language.Tag) language.Tag {
	if _, ok := tag.Extension('u'); ok {
		if tp := tag.TypeForKey("nu"); tp != "" {
			return tag
		}
	}
	base, _ := tag.Base()
	region, _ := tag.Region()
	var nu string
	switch base.String() {
	case "fa":
		nu = "arabext"
	case "ar":
		if !latinArabic[region.String()] {
			nu = "arab"
		}
	}
	if nu == "" {
		return tag
	}
	t, err := tag.SetTypeForKey("nu", nu)
	if err != nil {
		return tag
	}
	return t
}

// zeroDigit is the digit zero of tag's numbering system.
func zeroDigit(tag language.Tag) rune {
	switch tag.TypeForKey("nu") {
	case "arab":
		return '٠'
	case "arabext":
		return '۰'
	}
	return '0'
}

// Digits writes the ASCII digits in s in the language's digits, leaving
// everything else as it is (for times, dates and ids shown as numbers).
func (l *Lang) Digits(s string) string {
	if l.zero == '0' {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return l.zero + (r - '0')
		}
		return r
	}, s)
}

// Int is a whole number with the language's digits and grouping: 1,234 / ۱٬۲۳۴.
func (l *Lang) Int(n int64) string {
	return l.printer.Sprint(number.Decimal(n))
}

// Decimal is x with at most frac digits after the separator: 1.2 / ۱٫۲ / ١٫٢.
func (l *Lang) Decimal(x float64, frac int) string {
	return l.printer.Sprint(number.Decimal(x, number.MaxFractionDigits(frac)))
}

// Percent is a fraction (0 to 1) as a whole percentage: 45% / ۴۵٪.
func (l *Lang) Percent(f float64) string {
	return l.printer.Sprint(number.Percent(f, number.MaxFractionDigits(0)))
}

// Count is a number of files: "3 files", "٣ ملفات", "١١ ملفًا".
func (l *Lang) Count(n int) string {
	return l.Say("count.files", Args{"N": n})
}

// sizeUnits are the keys of the decimal units media.RoundSize names.
var sizeUnits = map[string]string{
	"KB": "unit.kb", "MB": "unit.mb", "GB": "unit.gb", "TB": "unit.tb", "PB": "unit.pb", "EB": "unit.eb",
}

// Size is a byte count in decimal units, rounded as file managers show it:
// 1.2 GB, ۱٫۲ گیگابایت, 999 bytes.
func (l *Lang) Size(n int64) string {
	if n < 0 {
		return "-" + l.Size(-n)
	}
	shown, unit := media.RoundSize(n)
	if unit == "" {
		return l.Say("unit.bytes", Args{"N": n})
	}
	return l.Say(sizeUnits[unit], Args{"N": shown})
}

// Speed is bytes per second: 1.2 MB/s, ۱٫۲ مگابایت در ثانیه.
func (l *Lang) Speed(bytesPerSecond float64) string {
	return l.Say("unit.speed", Args{"Size": l.Size(int64(bytesPerSecond))})
}

// fewSeconds is the least wait said in seconds: one shorter is "a few seconds".
const fewSeconds = 5 * time.Second

// Duration is a wait or a time left in words: "a few seconds",
// "8 seconds", "4 minutes", "1 hour 5 minutes".
func (l *Lang) Duration(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	switch {
	case s < int(fewSeconds/time.Second):
		return l.Say("time.fewSeconds", nil)
	case s < 60:
		return l.Say("time.seconds", Args{"N": s})
	case s < 90:
		return l.Say("time.minutes", Args{"N": 1})
	case s < 3600:
		return l.Say("time.minutes", Args{"N": (s + 30) / 60})
	}
	h, m := s/3600, (s%3600+30)/60
	if m == 60 {
		h, m = h+1, 0
	}
	hours := l.Say("time.hours", Args{"N": h})
	if m == 0 {
		return hours
	}
	return l.Say("time.and", Args{"First": hours, "Second": l.Say("time.minutes", Args{"N": m})})
}

// TimeLeft is "about 4 minutes left", or "a few seconds left" (never
// "about a few seconds left": a few seconds is itself about).
func (l *Lang) TimeLeft(d time.Duration) string {
	if d+time.Second/2 < fewSeconds {
		return l.Say("time.left.fewSeconds", nil)
	}
	return l.Say("time.left", Args{"Time": l.Duration(d)})
}

var months = [...]string{"month.1", "month.2", "month.3", "month.4", "month.5", "month.6",
	"month.7", "month.8", "month.9", "month.10", "month.11", "month.12"}

// Date is a day and time in the language's words and digits, in t's own
// time zone: "23 November 2026, 14:05", "۲۳ نوامبر ۲۰۲۶، ۱۴:۰۵".
func (l *Lang) Date(t time.Time) string {
	return l.Say("date.dayTime", Args{
		"Day":   l.Digits(strconv.Itoa(t.Day())),
		"Month": l.Say(months[t.Month()-1], nil),
		"Year":  l.Digits(strconv.Itoa(t.Year())),
		"Time":  l.Digits(t.Format("15:04")),
	})
}
