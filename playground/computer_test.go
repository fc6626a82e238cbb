package playground

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlayTheComputerInThePlayground: the bot is among the users the page
// offers for a user option (marked bot); alice names it as her Survival
// opponent at a level, taking Black, and the computer's first move
// appears in the new game's thread.
func TestPlayTheComputerInThePlayground(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, general := tp.userID("alice"), tp.channelID("general")
	v := tp.view(alice, general)
	var botID string
	for _, u := range v.Users {
		if u.Bot {
			botID = u.ID
		}
	}
	require.NotEmpty(t, botID, "the page lists the bot as a user one can pick")
	tp.command(alice, general, "survival challenge", opt("opponent", botID), opt("color", "black"), opt("level", "beginner"))
	var thread string
	link := regexp.MustCompile(`against \*\*Computer \(beginner\)\*\*, an unrated game\. It is on in <#(\d+)>`)
	tp.waitView(alice, general, "the game's link", func(v view) bool {
		for _, m := range v.Messages {
			if l := link.FindStringSubmatch(m.text()); l != nil {
				thread = l[1]
			}
		}
		return thread != ""
	})
	require.Equal(t, "Survival · Computer (beginner) vs alice", tp.view(alice, thread).Channel.Name)
	tp.waitView(alice, thread, "the computer's first move", func(v view) bool {
		for _, m := range v.Messages {
			if strings.Contains(m.text(), "played **") && strings.Contains(m.text(), "your move") {
				return true
			}
		}
		return false
	})
}
