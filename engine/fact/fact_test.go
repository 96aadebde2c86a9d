package fact

import (
	"encoding/json"
	"testing"
	"time"
)

// record stands for a journal record whose reason was a string before facts.
type record struct {
	ID     string `json:"id"`
	Reason Said   `json:"last_error,omitzero"`
}

func TestSaidReadsAnOlderJournal(t *testing.T) {
	var r record
	if err := json.Unmarshal([]byte(`{"id":"j1","last_error":"The connection dropped."}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Reason.Fact != nil || r.Reason.Legacy != "The connection dropped." {
		t.Errorf("legacy reason read as %+v", r.Reason)
	}
	var none record
	if err := json.Unmarshal([]byte(`{"id":"j2"}`), &none); err != nil || !none.Reason.IsZero() {
		t.Errorf("no reason read as %+v, %v", none.Reason, err)
	}
}

func TestSaidRoundTrip(t *testing.T) {
	want := Fact{Code: TooLarge, File: "a.png", Dest: "playgames", Size: 20_000_000, Limit: 15_000_000,
		Wait: 8 * time.Second, Google: "too big", Args: map[string]string{"advertiser": "7"}}
	b, err := json.Marshal(record{ID: "j", Reason: Of(want)})
	if err != nil {
		t.Fatal(err)
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	got := r.Reason.Fact
	if got == nil || got.Code != want.Code || got.File != want.File || got.Size != want.Size ||
		got.Limit != want.Limit || got.Wait != want.Wait || got.Google != want.Google || got.Arg("advertiser") != "7" {
		t.Errorf("round trip of %s gave %+v", b, got)
	}
	b, _ = json.Marshal(record{ID: "j", Reason: Said{Legacy: "Canceled."}})
	if string(b) != `{"id":"j","last_error":"Canceled."}` {
		t.Errorf("legacy sentence written as %s", b)
	}
	b, _ = json.Marshal(record{ID: "j"})
	if string(b) != `{"id":"j"}` {
		t.Errorf("nothing said written as %s", b)
	}
}
