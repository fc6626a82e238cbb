package discordsim

import (
	"bytes"
	"sort"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// BenchmarkSlashRoundTrip measures the fake's share of a command: inject a slash command, let
// a real discordgo session answer with a message carrying a 40 kB image, wait for the callback.
// It reports p50 and p99 of that latency.
func BenchmarkSlashRoundTrip(b *testing.B) {
	srv := shared.srv
	g := srv.AddGuild("bench", "play")
	ch := srv.Channels(g.ID)[0]
	u := srv.User("bench-user")
	if _, err := shared.sess.ApplicationCommandBulkOverwrite(srv.AppID(), g.ID, []*discordgo.ApplicationCommand{simpleCmd("move")}); err != nil {
		b.Fatal(err)
	}
	img := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 10000)
	shared.mu.Lock()
	shared.handlers[u.ID] = func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Content: "board", Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(img)}}}})
	}
	shared.mu.Unlock()
	defer func() { shared.mu.Lock(); delete(shared.handlers, u.ID); shared.mu.Unlock() }()

	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		in, err := srv.Slash(u, ch.ID, "move")
		if err != nil {
			b.Fatal(err)
		}
		r, err := in.WaitResponse(wait)
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, r.Latency)
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
