package commands

import (
	"fmt"
	"strings"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// /notify where:thread|dm|off: where a player's turn pings go (pings.go),
// per server and remembered. In a server it sets the choice there; in
// direct messages it answers for every server: it sets the choice for all
// of them (forgetting each server's own) and lists them. Without where it
// says the choice in force. The answer is private.

var notifyDMPermission = true

// notifyDefinition is /notify's definition (usable in direct messages).
func notifyDefinition() *ui.Command {
	return &ui.Command{
		Name:         "notify",
		Description:  "Choose where you are told it is your move: the game's thread, a direct message, or nowhere",
		DMPermission: &notifyDMPermission,
		Options: []*ui.CommandOption{{Type: ui.String, Name: "where", Description: "thread (default), dm, or off (only the live board shows your turn)",
			Choices: []*ui.Choice{
				{Name: "thread: a message in the game's thread mentions you", Value: storage.NotifyThread},
				{Name: "dm: a direct message links the game", Value: storage.NotifyDM},
				{Name: "off: no ping; the live board shows whose move it is", Value: storage.NotifyOff},
			}}},
	}
}

// notifyWords says each choice to its user.
var notifyWords = map[string]string{
	storage.NotifyThread: "a message in the game's thread mentions you",
	storage.NotifyDM:     "a direct message names the game and links its thread",
	storage.NotifyOff:    "no ping: the live board shows whose move it is",
}

func (a *App) notify(req *Request) (*Response, error) {
	where := strings.ToLower(strings.TrimSpace(req.Str("where")))
	if where != "" && notifyWords[where] == "" {
		return nil, Errorf("where must be thread, dm or off, not %s.", QuoteInput(where))
	}
	user := req.User.ID
	if req.GuildID != "" {
		if where != "" {
			if err := a.update(func(tx storage.Tx) error { return tx.Notify().Put(req.GuildID, user, where) }); err != nil {
				return nil, err
			}
			return ephemeral(fmt.Sprintf("In this server, when it is your move: %s.", notifyWords[where])), nil
		}
		var now string
		if err := a.view(func(tx storage.Tx) (err error) { now, err = notifyChoice(tx, req.GuildID, user); return err }); err != nil {
			return nil, err
		}
		return ephemeral(fmt.Sprintf("In this server, when it is your move: %s. Change it with /notify where:thread, dm or off.", notifyWords[now])), nil
	}
	// Direct messages: every server.
	var lines []string
	if err := a.update(func(tx storage.Tx) error {
		lines = lines[:0]
		var guilds []string
		all := storage.NotifyThread
		if err := tx.Notify().Each(user, func(g, w string) error {
			if g == "" {
				all = w
			} else {
				guilds = append(guilds, g)
				lines = append(lines, fmt.Sprintf("Server %s: %s.", g, notifyWords[w]))
			}
			return nil
		}); err != nil {
			return err
		}
		if where == "" {
			lines = append([]string{fmt.Sprintf("In every server: %s.", notifyWords[all])}, lines...)
			return nil
		}
		for _, g := range guilds {
			if err := tx.Notify().Delete(g, user); err != nil {
				return err
			}
		}
		lines = []string{fmt.Sprintf("In every server, when it is your move: %s.", notifyWords[where])}
		return tx.Notify().Put("", user, where)
	}); err != nil {
		return nil, err
	}
	if where == "" && len(lines) > 1 {
		lines[0] += " Servers with a choice of their own:"
	}
	return ephemeral(strings.Join(lines, "\n")), nil
}

// ephemeral is a private answer of text.
func ephemeral(text string) *Response {
	return &Response{Ephemeral: true, Message: Message{Content: text}}
}
