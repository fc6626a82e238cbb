package discordsim

import (
	"encoding/json"
	"fmt"
	"mime"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// msgPatch is a message body as the bot sent it. For edits Discord's rule applies: a key that is
// present replaces the field (null clears it), a key that is absent keeps it. discordgo's
// InteractionResponseData always sends "content", "embeds" and "components", so an UPDATE_MESSAGE
// response replaces all three.
type msgPatch struct {
	has        map[string]bool
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	keep       []string // attachment IDs listed in "attachments"
	flags      discordgo.MessageFlags
	files      []File
	// message create only: the nonce (a string, or an integer's digits) and enforce_nonce
	nonce        string
	enforceNonce bool
	// allowed is the create's allowed_mentions, nil when it sent none
	allowed *allowedMentions
	// interaction response data only
	choices  []*discordgo.ApplicationCommandOptionChoice
	customID string
	title    string
}

func parseMessagePayload(raw []byte, files []File) (*msgPatch, *apiError) {
	p := &msgPatch{has: map[string]bool{}, files: files}
	if len(raw) == 0 || string(raw) == "null" {
		return p, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, errInvalidForm("body is not a JSON object: " + err.Error())
	}
	for k, v := range obj {
		p.has[k] = true
		var err error
		switch k {
		case "content":
			var c *string
			err = json.Unmarshal(v, &c)
			if c != nil {
				p.content = *c
			}
		case "embeds":
			err = json.Unmarshal(v, &p.embeds)
		case "components":
			p.components, err = decodeComponents(v)
		case "attachments":
			var atts []struct {
				ID json.RawMessage `json:"id"`
			}
			err = json.Unmarshal(v, &atts)
			for _, a := range atts {
				p.keep = append(p.keep, strings.Trim(string(a.ID), `"`))
			}
		case "flags":
			var f *int
			err = json.Unmarshal(v, &f)
			if f != nil {
				p.flags = discordgo.MessageFlags(*f)
			}
		case "choices":
			err = json.Unmarshal(v, &p.choices)
		case "custom_id":
			err = json.Unmarshal(v, &p.customID)
		case "title":
			err = json.Unmarshal(v, &p.title)
		case "nonce":
			p.nonce, err = decodeNonce(v)
		case "enforce_nonce":
			err = json.Unmarshal(v, &p.enforceNonce)
		case "allowed_mentions":
			err = json.Unmarshal(v, &p.allowed)
		}
		if err != nil {
			return nil, errInvalidForm(fmt.Sprintf("field %q: %v", k, err))
		}
	}
	return p, nil
}

// maxNonce is the longest nonce Discord accepts (characters).
const maxNonce = 25

// decodeNonce reads a message nonce: a string of at most 25 characters, or an integer.
func decodeNonce(v json.RawMessage) (string, error) {
	var n any
	if err := json.Unmarshal(v, &n); err != nil {
		return "", err
	}
	var s string
	switch x := n.(type) {
	case nil:
		return "", nil
	case string:
		s = x
	case float64:
		s = strings.TrimSpace(string(v))
		if x != float64(int64(x)) {
			return "", fmt.Errorf("must be an integer or a string")
		}
	default:
		return "", fmt.Errorf("must be an integer or a string")
	}
	if utf8.RuneCountInString(s) > maxNonce {
		return "", fmt.Errorf("must be %d or fewer in length", maxNonce)
	}
	return s, nil
}

// newMessageLocked builds a message from p (not yet stored). flags are the resulting flags.
func (s *Server) newMessageLocked(c *Channel, author *User, p *msgPatch, typ discordgo.MessageType, flags discordgo.MessageFlags) *Message {
	m := &Message{ID: s.newID(), ChannelID: c.ID, GuildID: c.GuildID, Author: author, Type: typ,
		Content: p.content, Embeds: p.embeds, Components: p.components, Flags: flags,
		Timestamp: time.Now().UTC(), Version: 1, Nonce: p.nonce}
	m.Attachments = s.attachmentsLocked(c.ID, p.files)
	return m
}

func (s *Server) attachmentsLocked(channelID string, files []File) []*Attachment {
	var out []*Attachment
	for _, f := range files {
		ct := f.ContentType
		if ct == "" || ct == "application/octet-stream" {
			if t := mime.TypeByExtension(path.Ext(f.Name)); t != "" {
				ct = t
			}
		}
		id := s.newID()
		out = append(out, &Attachment{ID: id, Filename: f.Name, ContentType: ct, Data: f.Data,
			URL: s.baseURL + "/attachments/" + channelID + "/" + id + "/" + f.Name})
	}
	return out
}

// editedLocked returns a new version of old with p applied. Editing a loading (deferred)
// message fills it in: the loading flag goes and no edit timestamp is set.
func (s *Server) editedLocked(old *Message, p *msgPatch) *Message {
	m := *old
	m.Version++
	if old.Loading() {
		m.Flags &^= discordgo.MessageFlagsLoading
	} else {
		now := time.Now().UTC()
		m.EditedAt = &now
	}
	if p.has["content"] {
		m.Content = p.content
	}
	if p.has["embeds"] {
		m.Embeds = p.embeds
	}
	if p.has["components"] {
		m.Components = p.components
	}
	if p.has["flags"] {
		const editable = discordgo.MessageFlagsSuppressEmbeds
		m.Flags = m.Flags&^editable | p.flags&editable
		m.Flags |= p.flags & discordgo.MessageFlagsIsComponentsV2 // an edit may turn a message to V2, never back
	}
	if p.has["attachments"] {
		keep := map[string]bool{}
		for _, id := range p.keep {
			keep[id] = true
		}
		m.Attachments = nil
		for _, a := range old.Attachments {
			if keep[a.ID] {
				m.Attachments = append(m.Attachments, a)
			}
		}
	} else {
		m.Attachments = append([]*Attachment(nil), old.Attachments...)
	}
	m.Attachments = append(m.Attachments, s.attachmentsLocked(old.ChannelID, p.files)...)
	return &m
}

// validateMessage applies Discord's limits to a message about to be stored.
func validateMessage(m *Message) *apiError {
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0 && !m.Loading() {
		return &apiError{400, discordgo.ErrCodeCannotSendEmptyMessage, "Cannot send an empty message"}
	}
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 && (m.Content != "" || len(m.Embeds) > 0) {
		return errInvalidForm("content, embeds: cannot be used with the IS_COMPONENTS_V2 flag")
	}
	if n := utf8.RuneCountInString(m.Content); n > 2000 {
		return errInvalidForm(fmt.Sprintf("content: must be 2000 or fewer in length (got %d)", n))
	}
	if err := validateEmbeds(m.Embeds); err != nil {
		return err
	}
	if err := validateComponents(m.Components, m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0); err != nil {
		return err
	}
	for _, a := range m.Attachments {
		if len(a.Data) > 10<<20 {
			return &apiError{413, discordgo.ErrCodeRequestEntityTooLarge, "Request entity too large"}
		}
	}
	if len(m.Attachments) > 10 {
		return errInvalidForm("attachments: must be 10 or fewer in length")
	}
	return nil
}

func validateEmbeds(es []*discordgo.MessageEmbed) *apiError {
	if len(es) > 10 {
		return errInvalidForm("embeds: must be 10 or fewer in length")
	}
	total := 0
	limit := func(field, v string, max int) *apiError {
		n := utf8.RuneCountInString(v)
		total += n
		if n > max {
			return errInvalidForm(fmt.Sprintf("%s: must be %d or fewer in length (got %d)", field, max, n))
		}
		return nil
	}
	for i, e := range es {
		if e == nil {
			return errInvalidForm(fmt.Sprintf("embeds[%d]: null", i))
		}
		at := fmt.Sprintf("embeds[%d].", i)
		if err := limit(at+"title", e.Title, 256); err != nil {
			return err
		}
		if err := limit(at+"description", e.Description, 4096); err != nil {
			return err
		}
		if len(e.Fields) > 25 {
			return errInvalidForm(at + "fields: must be 25 or fewer in length")
		}
		for j, f := range e.Fields {
			fat := fmt.Sprintf("%sfields[%d].", at, j)
			if f == nil || f.Name == "" || f.Value == "" {
				return errInvalidForm(fat + "name/value: this field is required")
			}
			if err := limit(fat+"name", f.Name, 256); err != nil {
				return err
			}
			if err := limit(fat+"value", f.Value, 1024); err != nil {
				return err
			}
		}
		if e.Footer != nil {
			if err := limit(at+"footer.text", e.Footer.Text, 2048); err != nil {
				return err
			}
		}
		if e.Author != nil {
			if err := limit(at+"author.name", e.Author.Name, 256); err != nil {
				return err
			}
		}
	}
	if total > 6000 {
		return errInvalidForm(fmt.Sprintf("embeds: total length must be 6000 or fewer (got %d)", total))
	}
	return nil
}

// validateComponents checks classic action rows: at most 5 rows, each with 1 to 5 buttons or
// exactly one select menu; custom IDs 1 to 100 characters and unique; labels at most 80; select
// placeholders at most 150, option labels, values and descriptions at most 100.
func validateComponents(cs []discordgo.MessageComponent, v2 bool) *apiError {
	seen := map[string]bool{}
	if v2 {
		return validateLayout(cs, seen)
	}
	if len(cs) > 5 {
		return errInvalidForm(fmt.Sprintf("components: must be 5 or fewer in length (got %d)", len(cs)))
	}
	for i, c := range cs {
		at := fmt.Sprintf("components[%d]", i)
		var row []discordgo.MessageComponent
		switch r := c.(type) {
		case *discordgo.ActionsRow:
			row = r.Components
		case discordgo.ActionsRow:
			row = r.Components
		default:
			return errInvalidForm(at + ": top-level components must be action rows")
		}
		if err := validateRow(at, row, seen); err != nil {
			return err
		}
	}
	return nil
}

// Discord's limits on a Components V2 layout (message flag IS_COMPONENTS_V2).
const (
	maxLayoutComponents = 40   // every component, nested ones included
	maxLayoutText       = 4000 // the text of all text displays together
	maxSectionTexts     = 3
	maxGalleryItems     = 10
)

// validateLayout checks a Components V2 message's components as Discord does: top-level action
// rows, sections, text displays, media galleries, files, separators and containers; a container
// holds the same but containers; a section has 1 to 3 text displays and a button or thumbnail
// beside them; a gallery 1 to 10 items; at most 40 components in all and 4000 characters of text.
func validateLayout(cs []discordgo.MessageComponent, seen map[string]bool) *apiError {
	if len(cs) == 0 {
		return errInvalidForm("components: a Components V2 message needs at least one component")
	}
	count, text := 0, 0
	var walk func(at string, c discordgo.MessageComponent, inContainer bool) *apiError
	walk = func(at string, c discordgo.MessageComponent, inContainer bool) *apiError {
		count++
		switch v := c.(type) {
		case *discordgo.ActionsRow:
			count += len(v.Components)
			return validateRow(at, v.Components, seen)
		case *discordgo.TextDisplay:
			text += utf8.RuneCountInString(v.Content)
			if v.Content == "" {
				return errInvalidForm(at + ".content: a text display needs text")
			}
		case *discordgo.Section:
			if len(v.Components) == 0 || len(v.Components) > maxSectionTexts {
				return errInvalidForm(fmt.Sprintf("%s.components: a section holds 1 to %d text displays", at, maxSectionTexts))
			}
			for i, x := range v.Components {
				td, ok := x.(*discordgo.TextDisplay)
				if !ok {
					return errInvalidForm(fmt.Sprintf("%s.components[%d]: a section holds text displays only", at, i))
				}
				if err := walk(fmt.Sprintf("%s.components[%d]", at, i), td, inContainer); err != nil {
					return err
				}
			}
			switch acc := v.Accessory.(type) {
			case *discordgo.Button:
				count++
				if err := validateRow(at+".accessory", []discordgo.MessageComponent{acc}, seen); err != nil {
					return err
				}
			case *discordgo.Thumbnail:
				count++
				if acc.Media.URL == "" {
					return errInvalidForm(at + ".accessory.media.url: required")
				}
			default:
				return errInvalidForm(at + ".accessory: a section needs a button or a thumbnail")
			}
		case *discordgo.MediaGallery:
			if len(v.Items) == 0 || len(v.Items) > maxGalleryItems {
				return errInvalidForm(fmt.Sprintf("%s.items: must be 1 to %d in length", at, maxGalleryItems))
			}
			for i, it := range v.Items {
				if it.Media.URL == "" {
					return errInvalidForm(fmt.Sprintf("%s.items[%d].media.url: required", at, i))
				}
			}
		case *discordgo.FileComponent:
			if !strings.HasPrefix(v.File.URL, "attachment://") {
				return errInvalidForm(at + ".file.url: a file component names an attachment (attachment://NAME)")
			}
		case *discordgo.Separator:
			if v.Spacing != nil && *v.Spacing != discordgo.SeparatorSpacingSizeSmall && *v.Spacing != discordgo.SeparatorSpacingSizeLarge {
				return errInvalidForm(at + ".spacing: must be 1 or 2")
			}
		case *discordgo.Container:
			if inContainer {
				return errInvalidForm(at + ": a container cannot hold a container")
			}
			if len(v.Components) == 0 {
				return errInvalidForm(at + ".components: a container needs at least one component")
			}
			for i, x := range v.Components {
				if err := walk(fmt.Sprintf("%s.components[%d]", at, i), x, true); err != nil {
					return err
				}
			}
		default:
			return errInvalidForm(fmt.Sprintf("%s: component type %d is not allowed in a message", at, c.Type()))
		}
		return nil
	}
	for i, c := range cs {
		if err := walk(fmt.Sprintf("components[%d]", i), c, false); err != nil {
			return err
		}
	}
	if count > maxLayoutComponents {
		return errInvalidForm(fmt.Sprintf("components: must be %d or fewer in total (got %d)", maxLayoutComponents, count))
	}
	if text > maxLayoutText {
		return errInvalidForm(fmt.Sprintf("components: the text displays must hold %d or fewer characters together (got %d)", maxLayoutText, text))
	}
	return nil
}

// validateRow checks one action row's items (at names it in errors): 1 to 5 buttons or one
// select menu, with unique custom IDs (seen holds those of the whole message).
func validateRow(at string, row []discordgo.MessageComponent, seen map[string]bool) *apiError {
	checkID := func(at, id string) *apiError {
		if id == "" || utf8.RuneCountInString(id) > 100 {
			return errInvalidForm(at + ".custom_id: must be 1 to 100 characters")
		}
		if seen[id] {
			return errInvalidForm(at + ".custom_id: component custom id cannot be duplicated (" + id + ")")
		}
		seen[id] = true
		return nil
	}
	{
		if len(row) == 0 || len(row) > 5 {
			return errInvalidForm(at + ".components: must be 1 to 5 in length")
		}
		for j, item := range row {
			iat := fmt.Sprintf("%s.components[%d]", at, j)
			if b := asButton(item); b != nil {
				if utf8.RuneCountInString(b.Label) > 80 {
					return errInvalidForm(iat + ".label: must be 80 or fewer in length")
				}
				if b.Label == "" && b.Emoji == nil {
					return errInvalidForm(iat + ": a button needs a label or an emoji")
				}
				if b.Style == discordgo.LinkButton {
					if b.URL == "" || b.CustomID != "" {
						return errInvalidForm(iat + ": a link button needs a url and no custom_id")
					}
					continue
				}
				if b.URL != "" {
					return errInvalidForm(iat + ".url: only link buttons have a url")
				}
				if err := checkID(iat, b.CustomID); err != nil {
					return err
				}
				continue
			}
			if sm := asSelect(item); sm != nil {
				if len(row) != 1 {
					return errInvalidForm(iat + ": a select menu must be alone in its row")
				}
				if err := checkID(iat, sm.CustomID); err != nil {
					return err
				}
				if utf8.RuneCountInString(sm.Placeholder) > 150 {
					return errInvalidForm(iat + ".placeholder: must be 150 or fewer in length")
				}
				if sm.MenuType == 0 || sm.MenuType == discordgo.StringSelectMenu {
					if len(sm.Options) == 0 || len(sm.Options) > 25 {
						return errInvalidForm(iat + ".options: must be 1 to 25 in length")
					}
					vals := map[string]bool{}
					for k, o := range sm.Options {
						if o.Label == "" || utf8.RuneCountInString(o.Label) > 100 || o.Value == "" || utf8.RuneCountInString(o.Value) > 100 {
							return errInvalidForm(fmt.Sprintf("%s.options[%d]: label and value must be 1 to 100 characters", iat, k))
						}
						if utf8.RuneCountInString(o.Description) > 100 {
							return errInvalidForm(fmt.Sprintf("%s.options[%d].description: must be 100 or fewer in length", iat, k))
						}
						if vals[o.Value] {
							return errInvalidForm(fmt.Sprintf("%s.options[%d].value: duplicated", iat, k))
						}
						vals[o.Value] = true
					}
				}
				continue
			}
			return errInvalidForm(iat + fmt.Sprintf(": component type %d is not allowed in a message row", item.Type()))
		}
	}
	return nil
}

// validateModal checks a modal response: custom ID, title, 1 to 5 rows of one text input
// (label at most 45 characters, placeholder 100, value 4000 and within max_length).
func validateModal(p *msgPatch) *apiError {
	if p.customID == "" || utf8.RuneCountInString(p.customID) > 100 {
		return errInvalidForm("data.custom_id: must be 1 to 100 characters")
	}
	if p.title == "" || utf8.RuneCountInString(p.title) > 45 {
		return errInvalidForm("data.title: must be 1 to 45 characters")
	}
	if len(p.components) == 0 || len(p.components) > 5 {
		return errInvalidForm("data.components: must be 1 to 5 in length")
	}
	seen := map[string]bool{}
	for i, c := range p.components {
		var row []discordgo.MessageComponent
		switch r := c.(type) {
		case *discordgo.ActionsRow:
			row = r.Components
		default:
			return errInvalidForm(fmt.Sprintf("data.components[%d]: must be an action row", i))
		}
		if len(row) != 1 || asTextInput(row[0]) == nil {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: must hold exactly one text input", i))
		}
		ti := asTextInput(row[0])
		if ti.CustomID == "" || seen[ti.CustomID] {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input custom_id missing or duplicated", i))
		}
		seen[ti.CustomID] = true
		if ti.Label == "" || utf8.RuneCountInString(ti.Label) > 45 {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input label must be 1 to 45 characters", i))
		}
		if utf8.RuneCountInString(ti.Placeholder) > 100 {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input placeholder must be 100 or fewer in length", i))
		}
		if ti.MinLength < 0 || ti.MinLength > 4000 || ti.MaxLength < 0 || ti.MaxLength > 4000 || ti.MaxLength > 0 && ti.MaxLength < ti.MinLength {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input min_length and max_length must be 0 to 4000, min at most max", i))
		}
		if n := utf8.RuneCountInString(ti.Value); n > 4000 || ti.MaxLength > 0 && n > ti.MaxLength {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input value is longer than its max_length (or 4000)", i))
		}
		if ti.Style != discordgo.TextInputShort && ti.Style != discordgo.TextInputParagraph {
			return errInvalidForm(fmt.Sprintf("data.components[%d]: text input style must be 1 or 2", i))
		}
	}
	return nil
}

// allowedMentions is a message create's allowed_mentions: which of its
// mentions may notify (Parse "users": every user mentioned; Users: these).
type allowedMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users"`
}

// userMention matches a user mention in a message's content.
var userMention = regexp.MustCompile(`<@!?(\d+)>`)

// Notice is a notification a message's creation gave a user: Discord
// notifies for a mention in a new message (as allowed_mentions allows) and
// for every direct message, never for an edit.
type Notice struct {
	UserID    string
	ChannelID string
	MessageID string
}

// noticesLocked records the notifications the new message m of c gives.
func (s *Server) noticesLocked(c *Channel, m *Message, p *msgPatch) {
	if c.IsDM() {
		s.notices = append(s.notices, Notice{UserID: c.RecipientID, ChannelID: c.ID, MessageID: m.ID})
		return
	}
	seen := map[string]bool{}
	for _, sub := range userMention.FindAllStringSubmatch(m.Content, -1) {
		id := sub[1]
		if seen[id] || (m.Author != nil && id == m.Author.ID) {
			continue
		}
		seen[id] = true
		if p.allowed != nil && !slices.Contains(p.allowed.Parse, "users") && !slices.Contains(p.allowed.Users, id) {
			continue
		}
		s.notices = append(s.notices, Notice{UserID: id, ChannelID: c.ID, MessageID: m.ID})
	}
}

// Notifications lists the notifications userID was given by the bot's
// messages, oldest first, including those of messages deleted since.
func (s *Server) Notifications(userID string) []Notice {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Notice
	for _, n := range s.notices {
		if n.UserID == userID {
			out = append(out, n)
		}
	}
	return out
}
