package commands

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDiscordReason: what a user is told Discord said comes from the
// PlatformError the adapter wraps a REST error in: Discord's message
// (escaped) and code, else the HTTP status, else the error's text.
func TestDiscordReason(t *testing.T) {
	t.Parallel()
	cause := errors.New("HTTP 403 Forbidden, {\"message\": \"Missing Permissions\", \"code\": 50013}")
	withMessage := &PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Code: 50013, Message: "Missing *Permissions*", Err: cause}
	require.Equal(t, `"Missing \*Permissions\*" (error 50013)`, discordReason(fmt.Errorf("thread: %w", withMessage)))
	statusOnly := &PlatformError{HTTPStatus: 502, Status: "502 Bad Gateway", Err: cause}
	require.Equal(t, "502 Bad Gateway", discordReason(statusOnly))
	require.Equal(t, "connection reset", discordReason(errors.New("connection reset")))
}
