package sandtable

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// This file gives the types that the bot stores (turn log entries and the
// values in them, a Side in a stored outcome) a stable JSON form: entries
// have snake_case keys, and enums, squares and IDs are strings ("south",
// "main", "drone-declared", "e4", "SI12"). Decoding also reads the form
// stored before (format 0: Go field names, enums and squares as integers,
// IDs as objects), so games stored then keep working; testdata/legacy
// holds that form as it was written.

// names of the enum values in JSON, by value.
var (
	sideNames      = []string{"none", "south", "north"}
	entryKindNames = []string{"none", "draft", "confirmed", "unconfirmed", "revealed", "coin", "turn", "action", "move",
		"board", "leave", "destroy", "capture", "neutral", "place", "drone-declared", "drone-order", "drone-resolved",
		"drone-cancelled", "spotter-lost", "crater", "crater-gone", "main-skipped", "postturn-skipped", "hazard-uses", "game-over"}
	causeNames = []string{"none", "infantry", "tank", "airplane", "mine", "anti-air", "crew", "drone"}
)

// enumText returns names[v], or an error for a value without a name.
func enumText(what string, names []string, v int) ([]byte, error) {
	if v < 0 || v >= len(names) {
		return nil, fmt.Errorf("sandtable: %s %d has no name", what, v)
	}
	return []byte(names[v]), nil
}

// enumParse reads one of names.
func enumParse(what string, names []string, text []byte) (int, error) {
	for i, n := range names {
		if string(text) == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("sandtable: unknown %s %s (want one of %s)", what, quote(string(text)), strings.Join(names, ", "))
}

// enumJSON reads a JSON string through set, or a format-0 integer that
// must name a value of names.
func enumJSON(what string, names []string, data []byte, set func(int)) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		v, err := enumParse(what, names, []byte(s))
		if err != nil {
			return err
		}
		set(v)
		return nil
	}
	if string(data) == "null" {
		return nil
	}
	v, err := strconv.Atoi(string(data))
	if err != nil || v < 0 || v >= len(names) {
		return fmt.Errorf("sandtable: %s %s is not a %s", what, data, what)
	}
	set(v)
	return nil
}

// MarshalText returns "south", "north" or "none".
func (s Side) MarshalText() ([]byte, error) { return enumText("side", sideNames, int(s)) }

// UnmarshalText reads "south", "north" or "none".
func (s *Side) UnmarshalText(text []byte) error {
	v, err := enumParse("side", sideNames, text)
	if err == nil {
		*s = Side(v)
	}
	return err
}

// UnmarshalJSON reads a side's name, or its format-0 number.
func (s *Side) UnmarshalJSON(data []byte) error {
	return enumJSON("side", sideNames, data, func(v int) { *s = Side(v) })
}

// MarshalText returns the phase's name in the position format ("main").
func (p Phase) MarshalText() ([]byte, error) { return enumText("phase", phaseNames, int(p)) }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(text []byte) error {
	v, err := enumParse("phase", phaseNames, text)
	if err == nil {
		*p = Phase(v)
	}
	return err
}

// UnmarshalJSON reads a phase's name, or its format-0 number.
func (p *Phase) UnmarshalJSON(data []byte) error {
	return enumJSON("phase", phaseNames, data, func(v int) { *p = Phase(v) })
}

// MarshalText returns the reason's name in the position format
// ("no-bases").
func (r Reason) MarshalText() ([]byte, error) { return enumText("reason", reasonNames, int(r)) }

// UnmarshalText reads a reason's name.
func (r *Reason) UnmarshalText(text []byte) error {
	v, err := enumParse("reason", reasonNames, text)
	if err == nil {
		*r = Reason(v)
	}
	return err
}

// UnmarshalJSON reads a reason's name, or its format-0 number.
func (r *Reason) UnmarshalJSON(data []byte) error {
	return enumJSON("reason", reasonNames, data, func(v int) { *r = Reason(v) })
}

// String returns the cause's name ("anti-air").
func (c Cause) String() string {
	if b, err := enumText("cause", causeNames, int(c)); err == nil {
		return string(b)
	}
	return "cause(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText returns the cause's name ("anti-air").
func (c Cause) MarshalText() ([]byte, error) { return enumText("cause", causeNames, int(c)) }

// UnmarshalText reads a cause's name.
func (c *Cause) UnmarshalText(text []byte) error {
	v, err := enumParse("cause", causeNames, text)
	if err == nil {
		*c = Cause(v)
	}
	return err
}

// UnmarshalJSON reads a cause's name, or its format-0 number.
func (c *Cause) UnmarshalJSON(data []byte) error {
	return enumJSON("cause", causeNames, data, func(v int) { *c = Cause(v) })
}

// String returns the entry kind's name ("drone-declared").
func (k EntryKind) String() string {
	if b, err := enumText("entry kind", entryKindNames, int(k)); err == nil {
		return string(b)
	}
	return "entry(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText returns the entry kind's name ("drone-declared").
func (k EntryKind) MarshalText() ([]byte, error) {
	return enumText("entry kind", entryKindNames, int(k))
}

// UnmarshalText reads an entry kind's name.
func (k *EntryKind) UnmarshalText(text []byte) error {
	v, err := enumParse("entry kind", entryKindNames, text)
	if err == nil {
		*k = EntryKind(v)
	}
	return err
}

// UnmarshalJSON reads an entry kind's name, or its format-0 number.
func (k *EntryKind) UnmarshalJSON(data []byte) error {
	return enumJSON("entry kind", entryKindNames, data, func(v int) { *k = EntryKind(v) })
}

// MarshalText returns the square's name ("e4"), or "-" for NoSquare.
func (s Square) MarshalText() ([]byte, error) {
	if s != NoSquare && !s.Valid() {
		return nil, fmt.Errorf("sandtable: square %d is off the board", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a square's name, or "-" for NoSquare.
func (s *Square) UnmarshalText(text []byte) error {
	if string(text) == "-" {
		*s = NoSquare
		return nil
	}
	q, err := ParseSquare(string(text))
	if err == nil {
		*s = q
	}
	return err
}

// UnmarshalJSON reads a square's name, or its format-0 number (-1 for
// NoSquare).
func (s *Square) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var t string
		if err := json.Unmarshal(data, &t); err != nil {
			return err
		}
		return s.UnmarshalText([]byte(t))
	}
	if string(data) == "null" {
		return nil
	}
	v, err := strconv.Atoi(string(data))
	if err != nil || v < int(NoSquare) || v >= NumSquares {
		return fmt.Errorf("sandtable: square %s is not on the board", data)
	}
	*s = Square(v)
	return nil
}

// MarshalText returns the ID's text form ("SI12"), or "-" for the zero ID.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads an ID ("SI12"), or "-" or "" for the zero ID.
func (id *ID) UnmarshalText(text []byte) error {
	if len(text) == 0 || string(text) == "-" {
		*id = ID{}
		return nil
	}
	v, err := ParseID(string(text))
	if err == nil {
		*id = v
	}
	return err
}

// UnmarshalJSON reads an ID's text form, or its format-0 object
// {"Side":1,"Kind":4,"N":12} (all zero for the zero ID).
func (id *ID) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var t string
		if err := json.Unmarshal(data, &t); err != nil {
			return err
		}
		return id.UnmarshalText([]byte(t))
	}
	if string(data) == "null" {
		return nil
	}
	var old struct{ Side, Kind, N int64 }
	if err := json.Unmarshal(data, &old); err != nil {
		return fmt.Errorf("sandtable: piece ID %s: %w", data, err)
	}
	v := ID{Side(old.Side), Kind(old.Kind), int32(old.N)}
	if v.IsZero() {
		*id = v
		return nil
	}
	if old.Side < int64(South) || old.Side > int64(North) || old.Kind <= int64(NoKind) || old.Kind >= int64(numKinds) || old.N < 1 || old.N > MaxIDNumber {
		return fmt.Errorf("sandtable: piece ID %s is not a piece's", data)
	}
	*id = v
	return nil
}
