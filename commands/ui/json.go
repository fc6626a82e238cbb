package ui

import (
	"encoding/json"
	"fmt"
)

// Messages are stored (the outbox keeps them until they are delivered), so
// they round-trip through JSON: explicit snake_case fields, button styles as
// strings, and each control of a row as {"button": ...} or {"select": ...}.

var styleNames = [...]string{Primary: "primary", Secondary: "secondary", Success: "success", Danger: "danger", Link: "link"}

// MarshalText writes the style's name.
func (s ButtonStyle) MarshalText() ([]byte, error) {
	if int(s) < 0 || int(s) >= len(styleNames) {
		return nil, fmt.Errorf("ui: unknown button style %d", int(s))
	}
	return []byte(styleNames[s]), nil
}

// UnmarshalText reads a style's name.
func (s *ButtonStyle) UnmarshalText(b []byte) error {
	for i, n := range styleNames {
		if n == string(b) {
			*s = ButtonStyle(i)
			return nil
		}
	}
	return fmt.Errorf("ui: unknown button style %q", b)
}

type controlJSON struct {
	Button *Button `json:"button,omitempty"`
	Select *Select `json:"select,omitempty"`
}

// MarshalJSON writes each control tagged with its type.
func (r Row) MarshalJSON() ([]byte, error) {
	out := make([]controlJSON, 0, len(r))
	for _, c := range r {
		switch c := c.(type) {
		case Button:
			out = append(out, controlJSON{Button: &c})
		case Select:
			out = append(out, controlJSON{Select: &c})
		default:
			return nil, fmt.Errorf("ui: unknown control %T", c)
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (r *Row) UnmarshalJSON(b []byte) error {
	var in []controlJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	row := make(Row, 0, len(in))
	for _, c := range in {
		switch {
		case c.Button != nil:
			row = append(row, *c.Button)
		case c.Select != nil:
			row = append(row, *c.Select)
		default:
			return fmt.Errorf("ui: a control that is neither a button nor a select")
		}
	}
	*r = row
	return nil
}
