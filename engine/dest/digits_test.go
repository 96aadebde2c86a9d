package dest

import (
	"errors"
	"testing"
)

// People who write Persian or Arabic type ids with their own digits.
func TestNumberFieldsTakePersianAndArabicDigits(t *testing.T) {
	for _, id := range []string{"۱۲", "١٢", "12"} {
		d := Destination{Kind: CM360, Params: map[string]string{"profileId": id, "advertiserId": "۳۴۵"}}
		if err := d.Validate(); err != nil {
			t.Errorf("profile id %q: %v", id, err)
		}
		if got := d.Param("profileId"); got != "12" {
			t.Errorf("profile id %q is sent as %q, want 12", id, got)
		}
		if got := d.Param("advertiserId"); got != "345" {
			t.Errorf("advertiser id ۳۴۵ is sent as %q, want 345", got)
		}
	}
	d := Destination{Kind: CM360, Params: map[string]string{"profileId": "۱۲x", "advertiserId": "1"}}
	var errs FieldErrors
	if !errors.As(d.Validate(), &errs) || errs.For("profileId") == "" {
		t.Error("۱۲x was taken for a number")
	}
}
