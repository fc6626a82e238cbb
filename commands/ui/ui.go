package ui

// Message is the content of a message the bot sends, edits or answers with.
// A nil Cards or Rows and an empty one mean the same on an edit: the
// message is left with none. Discord allows up to 2000 characters of
// Content, 10 cards, 10 files and 5 rows; the adapter cuts text to
// Discord's limits on the way out.
type Message struct {
	Content string
	Cards   []*Card
	Files   []*File
	Rows    []Row
}

// Card is a framed block of text (a Discord embed). Limits, in
// characters: Title 256, Description 4096, 25 Fields, Footer 2048, Author
// 256, and 6000 for all of a message's cards together.
type Card struct {
	Title       string
	Description string
	URL         string // the title links there when set
	Color       int    // 0xRRGGBB of the side bar
	Fields      []*Field
	Footer      string
	// Image is the name of one of the message's Files shown full width in
	// the card ("board.png"), or "" for none.
	Image string
	// Thumbnail is the name of one of the message's Files shown small in
	// the corner, or "" for none.
	Thumbnail string
	Author    string // a line above the title
}

// Field is a titled paragraph of a Card (name 256, value 1024
// characters). Inline fields sit side by side.
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// File is a file attached to a message; a Card shows it by Name.
type File struct {
	Name        string
	ContentType string // "image/png"
	Data        []byte
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
	Label    string
	Emoji    string // a Unicode emoji shown before the label, or ""
	Style    ButtonStyle
	Route    string
	URL      string // Link buttons only
	Disabled bool
}

// Select is a drop-down menu of up to 25 options, alone in its Row. Route
// is its custom ID (as a Button's); Placeholder is at most 150 characters.
// MinValues and MaxValues bound how many options the user picks (0:
// Discord's default, one).
type Select struct {
	Route       string
	Placeholder string
	MinValues   int
	MaxValues   int
	Options     []SelectOption
	Disabled    bool
}

// SelectOption is one option of a Select. Label and Description are at most
// 100 characters; Value (at most 100, never cut) is what the bot gets back.
type SelectOption struct {
	Label       string
	Value       string
	Description string
	Emoji       string
	Default     bool // shown as already picked
}

func (Button) isControl() {}
func (Select) isControl() {}
