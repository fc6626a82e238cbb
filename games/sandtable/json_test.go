package sandtable

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// fields writes every field of e as testdata/legacy/entries.txt does:
// enums as their numbers, IDs and squares in their text form.
func fields(e Entry) string {
	return fmt.Sprintf("%d %d %d %d %d %d %s %s %s %s %d %d %d %q %q", int(e.Kind), e.Turn, int(e.Phase), int(e.Mover), int(e.Side), int(e.Secret),
		e.Piece, e.Other, e.From, e.To, int(e.Cause), int(e.Reason), e.Count, e.Notation, e.Text)
}

func legacyEntries(t *testing.T) []Entry {
	t.Helper()
	data, err := os.ReadFile("testdata/legacy/entries.json")
	if err != nil {
		t.Fatal(err)
	}
	var entries []Entry
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatalf("format-0 entries do not decode: %v", err)
	}
	return entries
}

// TestLegacyEntriesDecode: log entries stored before the JSON tags (Go
// field names, integer enums, IDs as objects) decode to exactly the
// entries they were written from.
func TestLegacyEntriesDecode(t *testing.T) {
	t.Parallel()
	entries := legacyEntries(t)
	want, err := os.ReadFile("testdata/legacy/entries.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	if len(entries) != len(lines) {
		t.Fatalf("%d entries, %d lines", len(entries), len(lines))
	}
	kinds := map[EntryKind]bool{}
	for i, e := range entries {
		if got := fields(e); got != lines[i] {
			t.Errorf("entry %d:\n got %s\nwant %s", i, got, lines[i])
		}
		kinds[e.Kind] = true
	}
	if len(kinds) != len(entryKindNames) {
		t.Errorf("the golden file holds %d of the %d entry kinds", len(kinds), len(entryKindNames))
	}
	var out struct {
		Winner Side `json:"winner"`
	}
	data, _ := os.ReadFile("testdata/legacy/outcome.json")
	if err := json.Unmarshal(data, &out); err != nil || out.Winner != North {
		t.Errorf("format-0 outcome: %v, %v", out.Winner, err)
	}
}

// TestEntryJSON: entries are written with snake_case keys and string
// enums, and read back equal.
func TestEntryJSON(t *testing.T) {
	t.Parallel()
	entries := legacyEntries(t)
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{`"Kind"`, `"Text"`, `"kind":7`, `"Side":`, `"N":`} {
		if strings.Contains(string(data), old) {
			t.Errorf("the new form holds %s", old)
		}
	}
	var back []Entry
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, entries) {
		t.Error("entries do not round-trip")
	}
	one, _ := json.Marshal(Entry{Kind: EntryDestroy, Turn: 3, Phase: PhaseMain, Mover: South, Side: North,
		Piece: ID{North, Infantry, 2}, Other: ID{South, Tank, 1}, From: NoSquare, To: Sq(4, 4), Cause: CauseTank, Text: "x."})
	want := `{"kind":"destroy","turn":3,"phase":"main","mover":"south","side":"north","piece":"NI2","other":"ST1","from":"-","to":"e5","cause":"tank","text":"x."}`
	if string(one) != want {
		t.Errorf("got  %s\nwant %s", one, want)
	}
	sec, _ := json.Marshal(Entry{Kind: EntryDroneOrder, Secret: South, Reason: NoBases, Count: 2, Notation: "Dd4-f6"})
	for _, part := range []string{`"secret":"south"`, `"reason":"no-bases"`, `"count":2`, `"notation":"Dd4-f6"`} {
		if !strings.Contains(string(sec), part) {
			t.Errorf("%s lacks %s", sec, part)
		}
	}
}

// TestStoredValuesRefused: a value that names nothing is refused, in
// either form.
func TestStoredValuesRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		json string
		into any
	}{
		{`"east"`, new(Side)}, {`7`, new(Side)}, {`-1`, new(Side)},
		{`"lunch"`, new(Phase)}, {`5`, new(Phase)},
		{`"boredom"`, new(Reason)}, {`9`, new(Reason)},
		{`"gravity"`, new(Cause)}, {`8`, new(Cause)},
		{`"party"`, new(EntryKind)}, {`26`, new(EntryKind)},
		{`"u1"`, new(Square)}, {`400`, new(Square)}, {`-2`, new(Square)},
		{`"XI1"`, new(ID)}, {`{"Side":3,"Kind":1,"N":1}`, new(ID)}, {`{"Side":1,"Kind":9,"N":1}`, new(ID)}, {`{"Side":1,"Kind":1,"N":0}`, new(ID)},
		{`[{"kind":"move","from":"z9"}]`, new([]Entry)},
	} {
		if err := json.Unmarshal([]byte(c.json), c.into); err == nil {
			t.Errorf("%s read into %T", c.json, c.into)
		}
	}
	for _, c := range []struct {
		json string
		into any
		want any
	}{
		{`"-"`, new(Square), NoSquare}, {`-1`, new(Square), NoSquare}, {`"t20"`, new(Square), Square(399)},
		{`"-"`, new(ID), ID{}}, {`{"Side":0,"Kind":0,"N":0}`, new(ID), ID{}}, {`"NA16"`, new(ID), ID{North, AntiAir, 16}},
		{`"none"`, new(Side), NoSide}, {`2`, new(Side), North},
	} {
		if err := json.Unmarshal([]byte(c.json), c.into); err != nil || reflect.ValueOf(c.into).Elem().Interface() != c.want {
			t.Errorf("%s: %v (%v), want %v", c.json, reflect.ValueOf(c.into).Elem().Interface(), err, c.want)
		}
	}
	if _, err := json.Marshal(Square(500)); err == nil {
		t.Error("an off-board square was written")
	}
}
