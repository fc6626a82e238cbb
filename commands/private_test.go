package commands

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSendPrivately(t *testing.T) {
	a, p := testApp(t)
	req := cmd(alice, "x", "", nil)
	r, id, err := a.SendPrivatelyID(req, Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, "sent by DM", r.Content)
	require.Equal(t, "secret", p.dms[alice.ID][0].Content)
	require.NotEmpty(t, id, "the direct message's ID, to edit it later")
	p.closed[alice.ID] = true
	r, id, err = a.SendPrivatelyID(req, Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, DMClosedNote+"\nsecret", r.Content)
	require.Empty(t, id, "shown ephemerally: nothing to edit later")
	a.Platform = failingDM{p}
	_, err = a.SendPrivately(req, Message{Content: "secret"}, "sent by DM")
	require.Error(t, err)
	var ue *UserError
	require.False(t, errors.As(err, &ue), "a failure on Discord's side is not the user's fault")
	require.NotErrorIs(t, err, ErrDMClosed, "a 500 is not a closed DM")
}

type failingDM struct{ *fakePlatform }

func (failingDM) DM(context.Context, string, Message) (string, error) {
	return "", fmt.Errorf("500 Internal Server Error")
}
