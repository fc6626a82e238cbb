package ui

// Message is the content of a message the bot sends, edits or answers with.
// A nil Cards or Rows and an empty one mean the same on an edit: the
// message is left with none. Discord allows up to 2000 characters of
// Content, 10 cards, 10 files and 5 rows; the adapter cuts text to
// Discord's limits on the way out.
type Message struct {
	Content string  `json:"content,omitempty"`
	Cards   []*Card `json:"cards,omitempty"`
	Files   []*File `json:"files,omitempty"`
	Rows    []Row   `json:"rows,omitempty"`
	// Quiet makes the message notify nobody: its mentions show names
	// and ping no one (a live board; only a turn's ping message pings).
	Quiet bool `json:"quiet,omitempty"`
}

// Card is a framed block of text (a Discord embed). Limits, in
// characters: Title 256, Description 4096, 25 Fields, Footer 2048, Author
// 256, and 6000 for all of a message's cards together.
type Card struct {
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	URL         string   `json:"url,omitempty"`   // the title links there when set
	Color       int      `json:"color,omitempty"` // 0xRRGGBB of the side bar
	Fields      []*Field `json:"fields,omitempty"`
	Footer      string   `json:"footer,omitempty"`
	// Image is the name of one of the message's Files shown full width in
	// the card ("board.png"), or "" for none.
	Image string `json:"image,omitempty"`
	// Thumbnail is the name of one of the message's Files shown small in
	// the corner, or "" for none.
	Thumbnail string `json:"thumbnail,omitempty"`
	Author    string `json:"author,omitempty"` // a line above the title
}

// Field is a titled paragraph of a Card (name 256, value 1024
// characters). Inline fields sit side by side.
type Field struct {
	Name   string `json:"name,omitempty"`
	Value  string `json:"value,omitempty"`
	Inline bool   `json:"inline,omitempty"`
}

// File is a file attached to a message; a Card shows it by Name.
type File struct {
	Name        string `json:"name,omitempty"`
	ContentType string `json:"content_type,omitempty"` // "image/png"
	Data        []byte `json:"data,omitempty"`
}

// Row is one row of controls under a message: up to 5 buttons, or one
// select menu.
type Row []Control

// Control is a button or a select menu (Button, Select).
type Control interface{ isControl() }

// ButtonStyle is how a button looks.
type ButtonStyle int

// The button styles. A Link button opens its URL and has no Route.
const (
	Primary   ButtonStyle = iota // blurple, the default (as Discord's)
	Secondary                    // grey
	Success                      // green
	Danger                       // red
	Link                         // grey, opens URL
)

// Button is a clickable button. Route is its custom ID, built by
// commands.CustomID (at most 100 characters, never cut); Label is at most
// 80 characters.
type Button struct {
	Label    string      `json:"label,omitempty"`
	Emoji    string      `json:"emoji,omitempty"` // a Unicode emoji shown before the label, or ""
	Style    ButtonStyle `json:"style,omitempty"`
	Route    string      `json:"route,omitempty"`
	URL      string      `json:"url,omitempty"` // Link buttons only
	Disabled bool        `json:"disabled,omitempty"`
}

// Select is a drop-down menu of up to 25 options, alone in its Row. Route
// is its custom ID (as a Button's); Placeholder is at most 150 characters.
// MinValues and MaxValues bound how many options the user picks (0:
// Discord's default, one).
type Select struct {
	Route       string         `json:"route,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	MinValues   int            `json:"min_values,omitempty"`
	MaxValues   int            `json:"max_values,omitempty"`
	Options     []SelectOption `json:"options,omitempty"`
	Disabled    bool           `json:"disabled,omitempty"`
}

// SelectOption is one option of a Select. Label and Description are at most
// 100 characters; Value (at most 100, never cut) is what the bot gets back.
type SelectOption struct {
	Label       string `json:"label,omitempty"`
	Value       string `json:"value,omitempty"`
	Description string `json:"description,omitempty"`
	Emoji       string `json:"emoji,omitempty"`
	Default     bool   `json:"default,omitempty"` // shown as already picked
}

func (Button) isControl() {}
func (Select) isControl() {}
