package commands

import (
	"errors"
	"fmt"
)

// DMClosedNote starts a private answer shown in a channel because the user's
// direct messages are closed.
const DMClosedNote = "_Your direct messages are closed to me, so I show this here instead: only you can see it._"

// SendPrivately delivers m to the user who made req so that nobody else
// sees it. It sends m by direct message and answers req with dmNote, a short
// private pointer such as "I sent your panel by direct message."; when the
// user's direct messages are closed (ErrDMClosed, Discord's 50007 only), it
// answers req with m itself, ephemerally, prefixed with DMClosedNote saying
// why. Any other failure of the DM (a 5xx, a timeout) is returned as it is
// (the user gets the bot's apology, nothing changes, and their DMs are
// not said to be closed). The answer is always ephemeral.
func (a *App) SendPrivately(req *Request, m Message, dmNote string) (*Response, error) {
	r, _, err := a.SendPrivatelyID(req, m, dmNote)
	return r, err
}

// SendPrivatelyID is SendPrivately that also returns the ID of the direct
// message, "" when m was shown ephemerally instead (to edit it later).
func (a *App) SendPrivatelyID(req *Request, m Message, dmNote string) (*Response, string, error) {
	id, err := a.Platform.DM(req.Context(), req.User.ID, m)
	switch {
	case err == nil:
		return &Response{Ephemeral: true, Message: Message{Content: dmNote}}, id, nil
	case errors.Is(err, ErrDMClosed):
		m.Content = DMClosedNote + "\n" + m.Content
		return &Response{Ephemeral: true, Message: m}, "", nil
	}
	return nil, "", fmt.Errorf("direct message to %s: %w", req.User.ID, err)
}
