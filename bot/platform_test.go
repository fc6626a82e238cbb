package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/internal/discordsim"
	"sandtable/internal/retry"
)

// restPlatform is the bot's platform over a session that talks REST to
// srv (no gateway: these tests only make requests).
func restPlatform(t *testing.T) (*platform, *discordsim.Server) {
	t.Helper()
	srv := discordsim.Start(t, discordsim.Options{Users: []string{"alice"}})
	sess := srv.NewSession()
	return (*platform)(&Bot{sess: sess, sessions: []*discordgo.Session{sess}}), srv
}

func effectCtx(effectID string) context.Context {
	return retry.WithoutTransportRetries(retry.WithNonce(context.Background(), retry.Nonce(effectID)))
}

// TestSendWithANonceCreatesOnce: a post under an effect's nonce carries it
// with enforce_nonce (in payload_json beside files too); a second post of
// the effect, as a retry makes it, is answered with the same message.
func TestSendWithANonceCreatesOnce(t *testing.T) {
	t.Parallel()
	p, srv := restPlatform(t)
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"
	board := commands.Message{Content: "White to move", Cards: []*ui.Card{{Title: "Board", Image: "attachment://board.png"}},
		Files: []*ui.File{{Name: "board.png", ContentType: "image/png", Data: []byte("PNG")}}}
	ctx := effectCtx("game-1/00000000000000000007")
	first, err := p.Send(ctx, ch.ID, board)
	require.NoError(t, err)
	second, err := p.Send(ctx, ch.ID, board)
	require.NoError(t, err)
	require.Equal(t, first, second, "the retry is answered with the message already created")
	require.Len(t, srv.Messages(ch.ID), 1)
	calls := srv.CallsTo(pattern)
	require.Len(t, calls, 2)
	body := calls[0].JSON.(map[string]any)
	require.Equal(t, retry.Nonce("game-1/00000000000000000007"), body["nonce"])
	require.Equal(t, true, body["enforce_nonce"])
	require.Len(t, calls[0].Files, 1, "the file rides beside the payload")
	require.True(t, calls[1].Repeat)
	m := srv.Message(first)
	require.Equal(t, "White to move", m.Content)
	require.NotNil(t, m.Attachment("board.png"))
	require.Equal(t, "rich", string(m.Embeds[0].Type))

	// Another effect is another message; a post without a nonce has none.
	_, err = p.Send(effectCtx("game-1/00000000000000000008"), ch.ID, commands.Message{Content: "Black to move"})
	require.NoError(t, err)
	_, err = p.Send(context.Background(), ch.ID, commands.Message{Content: "a plain post"})
	require.NoError(t, err)
	require.Len(t, srv.Messages(ch.ID), 3)
	calls = srv.CallsTo(pattern)
	require.NotContains(t, calls[len(calls)-1].JSON.(map[string]any), "nonce")

	// A direct message goes through the same create.
	alice := srv.User("alice")
	dm1, err := p.DM(effectCtx("game-1/00000000000000000009"), alice.ID, commands.Message{Content: "your hand"})
	require.NoError(t, err)
	dm2, err := p.DM(effectCtx("game-1/00000000000000000009"), alice.ID, commands.Message{Content: "your hand"})
	require.NoError(t, err)
	require.Equal(t, dm1, dm2)
	require.Len(t, srv.Messages(srv.Message(dm1).ChannelID), 1)
}

// TestALostPostIsFoundByItsNonce: Discord applies a post and the answer is
// lost (the connection dropped, or the answer came after the client gave
// up); the policy retries it, and the retry under the same nonce yields the
// message already made instead of a second live copy.
func TestALostPostIsFoundByItsNonce(t *testing.T) {
	t.Parallel()
	p, srv := restPlatform(t)
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"
	for i, lose := range []func(){
		func() { srv.LoseAnswerNext(pattern, 1) },
		func() { srv.LateAnswerNext(pattern, 1, time.Hour) },
	} {
		lose()
		ctx := effectCtx(fmt.Sprintf("game-2/%020d", i))
		attempt, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		_, err := p.Send(attempt, ch.ID, commands.Message{Content: fmt.Sprintf("board %d", i)})
		cancel()
		require.Error(t, err, "the client never heard the answer")
		_, retries := retry.Effects.Delay(1, err)
		require.True(t, retries, "a post with no answer is retried: %v", err)
		require.Len(t, srv.Messages(ch.ID), i+1, "Discord made it all the same")
		id, err := p.Send(ctx, ch.ID, commands.Message{Content: fmt.Sprintf("board %d", i)})
		require.NoError(t, err)
		msgs := srv.Messages(ch.ID)
		require.Len(t, msgs, i+1, "the retry made no second copy")
		require.Equal(t, msgs[i].ID, id)
	}
}

// TestEffectRequestsLetThePolicySeeFailures: under
// retry.WithoutTransportRetries a 429 and a 502 come back at once as
// PlatformErrors the policy reads (the 429 with its Retry-After); other
// requests keep discordgo's own retries.
func TestEffectRequestsLetThePolicySeeFailures(t *testing.T) {
	t.Parallel()
	p, srv := restPlatform(t)
	ch := srv.Channel("general")
	pattern := "POST /channels/" + ch.ID + "/messages"
	ctx := retry.WithoutTransportRetries(context.Background())

	srv.RateLimitNext(pattern, 1, 40*time.Second)
	_, err := p.Send(ctx, ch.ID, commands.Message{Content: "rate limited"})
	var pe *commands.PlatformError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, 429, pe.HTTPStatus)
	f, ok := retry.Describe(err)
	require.True(t, ok)
	require.Equal(t, 40*time.Second, f.RetryAfter)
	d, again := retry.Effects.Delay(1, err)
	require.True(t, again, "a 429 is retried")
	require.GreaterOrEqual(t, d, 40*time.Second, "no earlier than its Retry-After")

	srv.FailNext(pattern, 1, discordsim.Fault{Status: 502, Message: "Bad Gateway"})
	_, err = p.Send(ctx, ch.ID, commands.Message{Content: "bad gateway"})
	require.ErrorAs(t, err, &pe)
	require.Equal(t, 502, pe.HTTPStatus)
	_, again = retry.Effects.Delay(1, err)
	require.True(t, again)

	srv.FailNext(pattern, 1, discordsim.Fault{Status: 403, Code: discordgo.ErrCodeMissingPermissions, Message: "Missing Permissions"})
	_, err = p.Send(ctx, ch.ID, commands.Message{Content: "forbidden"})
	require.True(t, retry.IsPermanent(err), "50013 is permanent: %v", err)
	require.Empty(t, srv.Messages(ch.ID))

	// Without the mark, discordgo waits out a short 429 and retries a 502.
	srv.RateLimitNext(pattern, 1, 20*time.Millisecond)
	srv.FailNext(pattern, 1, discordsim.Fault{Status: 502, Message: "Bad Gateway"})
	_, err = p.Send(context.Background(), ch.ID, commands.Message{Content: "eventually"})
	require.NoError(t, err)
	require.Len(t, srv.Messages(ch.ID), 1)
}

// TestPlatformErrorDescribesItself: the mapping of discordgo's errors to
// what the framework and the retry policy read.
func TestPlatformErrorDescribesItself(t *testing.T) {
	t.Parallel()
	rest := func(status int, code int, header http.Header) error {
		re := &discordgo.RESTError{Response: &http.Response{StatusCode: status, Status: http.StatusText(status), Header: header}}
		if code != 0 {
			re.Message = &discordgo.APIErrorMessage{Code: code, Message: "refused"}
		}
		return re
	}
	rateLimit := &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{
		TooManyRequests: &discordgo.TooManyRequests{Message: "You are being rate limited.", RetryAfter: 1500 * time.Millisecond}, URL: "x"}}
	noAnswer := errors.New("Post \"https://discord.com/api/v9/channels/1/messages\": EOF")
	for _, tc := range []struct {
		name      string
		err       error
		status    int // of the PlatformError; 0: none
		f         retry.Failure
		permanent bool
	}{
		{"rate limit", rateLimit, 429, retry.Failure{Status: 429, RetryAfter: 1500 * time.Millisecond}, false},
		{"rate limit, wrapped", fmt.Errorf("posting: %w", rateLimit), 429, retry.Failure{Status: 429, RetryAfter: 1500 * time.Millisecond}, false},
		{"503 with Retry-After", rest(503, 0, http.Header{"Retry-After": {"7"}}), 503, retry.Failure{Status: 503, RetryAfter: 7 * time.Second}, false},
		{"500", rest(500, 0, nil), 500, retry.Failure{Status: 500}, false},
		{"502 after discordgo's retries", errors.New("Exceeded Max retries HTTP 502 Bad Gateway, "), 502, retry.Failure{Status: 502}, false},
		{"missing permissions", rest(403, discordgo.ErrCodeMissingPermissions, nil), 403, retry.Failure{Status: 403, Code: 50013}, true},
		{"unknown message", rest(404, discordgo.ErrCodeUnknownMessage, nil), 404, retry.Failure{Status: 404, Code: 10008}, true},
		{"cannot DM", rest(403, discordgo.ErrCodeCannotSendMessagesToThisUser, nil), 403, retry.Failure{Status: 403, Code: 50007}, true},
		{"no answer", noAnswer, 0, retry.Failure{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := platformError(tc.err)
			require.ErrorIs(t, err, tc.err, "the original error stays in the chain")
			var pe *commands.PlatformError
			if tc.status == 0 {
				require.False(t, errors.As(err, &pe))
			} else {
				require.ErrorAs(t, err, &pe)
				require.Equal(t, tc.status, pe.HTTPStatus)
				require.Equal(t, tc.f.Code, pe.Code)
				require.Equal(t, tc.err.Error(), err.Error(), "the text is the original's")
				require.Same(t, err, platformError(err), "mapping twice changes nothing")
			}
			f, _ := retry.Describe(err)
			require.Equal(t, tc.f, f)
			require.Equal(t, tc.permanent, retry.IsPermanent(err))
		})
	}
	require.NoError(t, platformError(nil))
	require.False(t, strings.Contains(fmt.Sprint(platformError(rateLimit)), "Bot "), "no token in the text")
}
