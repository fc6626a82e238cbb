package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/internal/retry"
)

// platform implements commands.Platform with the bot's discordgo session.
type platform Bot

// Send posts m; under a context carrying a nonce (retry.WithNonce) the
// create carries it with enforce_nonce, so Discord answers a repeat of it
// with the message already created.
func (p *platform) Send(ctx context.Context, channelID string, m commands.Message) (string, error) {
	out := outgoing(m)
	send := &discordgo.MessageSend{
		Content: out.Content, Embeds: out.Embeds, Components: out.Components, Files: out.Files, AllowedMentions: mentionsOf(m),
	}
	var msg *discordgo.Message
	var err error
	if nonce := retry.NonceFrom(ctx); nonce != "" {
		msg, err = p.createOnce(ctx, channelID, send, nonce)
	} else {
		msg, err = p.sess.ChannelMessageSendComplex(channelID, send, requestOptions(ctx)...)
	}
	if err != nil {
		return "", p.fail(err)
	}
	return msg.ID, nil
}

// messageCreate is a message create with Discord's nonce, which discordgo's
// MessageSend (v0.29.0) lacks.
type messageCreate struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// createOnce is ChannelMessageSendComplex with a nonce and enforce_nonce:
// Discord answers a second create of one nonce (within a few minutes) with
// 200 and the first's message, which is success.
func (p *platform) createOnce(ctx context.Context, channelID string, send *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	if len(nonce) > retry.MaxNonce {
		return nil, fmt.Errorf("message nonce %q is longer than %d characters", nonce, retry.MaxNonce)
	}
	for _, e := range send.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich
		}
	}
	data := messageCreate{MessageSend: send, Nonce: nonce, EnforceNonce: true}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var body []byte
	var err error
	if len(send.Files) > 0 {
		contentType, payload, encErr := discordgo.MultipartBodyWithJSON(data, send.Files)
		if encErr != nil {
			return nil, encErr
		}
		body, err = p.sess.RequestRaw(http.MethodPost, endpoint, contentType, payload, endpoint, 0, requestOptions(ctx)...)
	} else {
		body, err = p.sess.RequestWithBucketID(http.MethodPost, endpoint, data, endpoint, requestOptions(ctx)...)
	}
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("%w: %v", discordgo.ErrJSONUnmarshal, err)
	}
	return &msg, nil
}

// requestOptions are the options of the platform's requests under ctx: its
// cancellation, and no retries of discordgo's own (429s, 502s) when the
// caller retries by its policy (retry.WithoutTransportRetries), so that the
// policy sees the failure and its Retry-After. Interaction answers keep
// discordgo's retries.
func requestOptions(ctx context.Context) []discordgo.RequestOption {
	if retry.TransportRetries(ctx) {
		return []discordgo.RequestOption{discordgo.WithContext(ctx)}
	}
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false), discordgo.WithRestRetries(0)}
}

func (p *platform) Edit(ctx context.Context, channelID, messageID string, m commands.Message) error {
	return p.edit(ctx, channelID, messageID, m, false)
}

// edit is Edit; dropFiles replaces the message's attachments even when m
// has no files (EditDM), instead of keeping them.
func (p *platform) edit(ctx context.Context, channelID, messageID string, m commands.Message, dropFiles bool) error {
	out := outgoing(m)
	content := out.Content
	embeds := out.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := out.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	edit := &discordgo.MessageEdit{ID: messageID, Channel: channelID, Content: &content, Embeds: &embeds,
		Components: &comps, Files: out.Files, AllowedMentions: mentionsOf(m)}
	if len(out.Files) > 0 || dropFiles || showsNoFile(m) {
		// New files replace the old ones; a body that shows no file (a
		// board compacted into a line of text) keeps none.
		edit.Attachments = &[]*discordgo.MessageAttachment{}
	}
	_, err := p.sess.ChannelMessageEditComplex(edit, requestOptions(ctx)...)
	return p.fail(err)
}

// Delete deletes the bot's message messageID in channelID.
func (p *platform) Delete(ctx context.Context, channelID, messageID string) error {
	return p.fail(p.sess.ChannelMessageDelete(channelID, messageID, requestOptions(ctx)...))
}

// DeleteDM deletes the direct message messageID the bot sent to userID.
func (p *platform) DeleteDM(ctx context.Context, userID, messageID string) error {
	chID, err := p.dmChannel(ctx, userID)
	if err != nil {
		return p.fail(err)
	}
	return p.Delete(ctx, chID, messageID)
}

func (p *platform) StartThread(ctx context.Context, channelID, name string, private bool) (string, error) {
	typ := discordgo.ChannelTypeGuildPublicThread
	if private {
		typ = discordgo.ChannelTypeGuildPrivateThread
	}
	ch, err := p.sess.ThreadStartComplex(channelID, &discordgo.ThreadStart{
		Name: threadName(name), AutoArchiveDuration: 10080, Type: typ, Invitable: false,
	}, requestOptions(ctx)...)
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeCannotExecuteActionOnThisChannelType {
		return "", fmt.Errorf("%w: %v", commands.ErrNoThreads, err)
	}
	if err != nil {
		return "", p.fail(err)
	}
	return ch.ID, nil
}

// ChannelType reads the sessions' state caches (filled by the gateway's
// guild, channel and thread events of each shard), else asks Discord.
func (p *platform) ChannelType(ctx context.Context, channelID string) (ui.ChannelType, error) {
	for _, s := range p.sessions {
		if s.State == nil {
			continue
		}
		if ch, err := s.State.Channel(channelID); err == nil {
			return channelType(ch.Type), nil
		}
	}
	ch, err := p.sess.Channel(channelID, requestOptions(ctx)...)
	if err != nil {
		return 0, p.fail(err)
	}
	return channelType(ch.Type), nil
}

func (p *platform) AddThreadMember(ctx context.Context, threadID, userID string) error {
	return p.fail(p.sess.ThreadMemberAdd(threadID, userID, requestOptions(ctx)...))
}

func (p *platform) RemoveThreadMember(ctx context.Context, threadID, userID string) error {
	return p.fail(p.sess.ThreadMemberRemove(threadID, userID, requestOptions(ctx)...))
}

// ArchiveThread archives and locks a thread (locking needs the Manage
// Threads permission).
func (p *platform) ArchiveThread(ctx context.Context, threadID string) error {
	yes := true
	_, err := p.sess.ChannelEditComplex(threadID, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes}, requestOptions(ctx)...)
	return p.fail(err)
}

// RenameChannel renames a channel or thread.
func (p *platform) RenameChannel(ctx context.Context, channelID, name string) error {
	_, err := p.sess.ChannelEditComplex(channelID, &discordgo.ChannelEdit{Name: name}, requestOptions(ctx)...)
	return p.fail(err)
}

func (p *platform) DM(ctx context.Context, userID string, m commands.Message) (string, error) {
	chID, err := p.dmChannel(ctx, userID)
	if err != nil {
		return "", dmError(p.fail(err))
	}
	id, err := p.Send(ctx, chID, m)
	if err != nil {
		return "", dmError(err)
	}
	return id, nil
}

func (p *platform) EditDM(ctx context.Context, userID, messageID string, m commands.Message) error {
	chID, err := p.dmChannel(ctx, userID)
	if err != nil {
		return p.fail(err)
	}
	return p.edit(ctx, chID, messageID, m, true)
}

// dmChannel returns the ID of the DM channel with userID, opening it once.
func (p *platform) dmChannel(ctx context.Context, userID string) (string, error) {
	if chID, ok := p.dmChans.Load(userID); ok {
		return chID.(string), nil
	}
	ch, err := p.sess.UserChannelCreate(userID, requestOptions(ctx)...)
	if err != nil {
		return "", err
	}
	p.dmChans.Store(userID, ch.ID)
	return ch.ID, nil
}

func dmError(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser {
		return fmt.Errorf("%w: %v", commands.ErrDMClosed, err)
	}
	return err
}

// Download fetches url with the session's HTTP client (so tests through the
// fake Discord reach its attachment server), reading at most maxBytes.
func (p *platform) Download(ctx context.Context, url string, maxBytes int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("downloading the attachment: %w", err)
	}
	resp, err := p.sess.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading the attachment: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading the attachment: %s", resp.Status)
	}
	if resp.ContentLength > maxBytes {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", commands.ErrTooLarge, resp.ContentLength, maxBytes)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("downloading the attachment: %w", err)
	}
	if int64(len(b)) > maxBytes {
		return nil, fmt.Errorf("%w: more than %d bytes", commands.ErrTooLarge, maxBytes)
	}
	return b, nil
}

// StartThreadFrom starts the public thread of a message; Discord's 160004
// (the message has a thread already) means an earlier attempt made it, and
// its ID is the message's.
func (p *platform) StartThreadFrom(ctx context.Context, channelID, messageID, name string) (string, error) {
	ch, err := p.sess.MessageThreadStartComplex(channelID, messageID, &discordgo.ThreadStart{
		Name: threadName(name), AutoArchiveDuration: 10080,
	}, requestOptions(ctx)...)
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage {
		return messageID, nil
	}
	if errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeCannotExecuteActionOnThisChannelType {
		return "", fmt.Errorf("%w: %v", commands.ErrNoThreads, err)
	}
	if err != nil {
		return "", p.fail(err)
	}
	return ch.ID, nil
}

// FindThreads lists the guild's active threads and keeps those under
// parentID named name (as threadName names it), newest first.
func (p *platform) FindThreads(ctx context.Context, guildID, parentID, name string) ([]string, error) {
	list, err := p.sess.GuildThreadsActive(guildID, requestOptions(ctx)...)
	if err != nil {
		return nil, p.fail(err)
	}
	want := threadName(name)
	var out []*discordgo.Channel
	for _, th := range list.Threads {
		if th.ParentID == parentID && th.Name == want {
			out = append(out, th)
		}
	}
	// Snowflakes grow with time: the longest, then greatest, is the newest.
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].ID) != len(out[j].ID) {
			return len(out[i].ID) > len(out[j].ID)
		}
		return out[i].ID > out[j].ID
	})
	ids := make([]string, len(out))
	for i, th := range out {
		ids[i] = th.ID
	}
	return ids, nil
}

// RecentDM is Recent in the DM channel with userID.
func (p *platform) RecentDM(ctx context.Context, userID string, limit int) ([]commands.Posted, error) {
	chID, err := p.dmChannel(ctx, userID)
	if err != nil {
		return nil, p.fail(err)
	}
	return p.Recent(ctx, chID, limit)
}

// Recent reads the latest limit messages of a channel and keeps the bot's.
func (p *platform) Recent(ctx context.Context, channelID string, limit int) ([]commands.Posted, error) {
	msgs, err := p.sess.ChannelMessages(channelID, limit, "", "", "", requestOptions(ctx)...)
	if err != nil {
		return nil, p.fail(err)
	}
	var out []commands.Posted
	for _, m := range msgs {
		if m.Author == nil || p.sess.State == nil || p.sess.State.User == nil || m.Author.ID != p.sess.State.User.ID {
			continue
		}
		po := commands.Posted{ID: m.ID, Content: m.Content}
		for _, e := range m.Embeds {
			c := ui.Card{Title: e.Title, Description: e.Description}
			if e.Footer != nil {
				c.Footer = e.Footer.Text
			}
			po.Cards = append(po.Cards, c)
		}
		out = append(out, po)
	}
	return out, nil
}

// fail is platformError, counted in the REST error metric.
func (p *platform) fail(err error) error {
	err = platformError(err)
	if err != nil && p.ops != nil {
		p.ops.restError(err)
	}
	return err
}

// showsNoFile reports whether m neither attaches nor shows a file: no
// files, and no card image or thumbnail (which name an attachment).
func showsNoFile(m commands.Message) bool {
	if len(m.Files) > 0 {
		return false
	}
	for _, c := range m.Cards {
		if c.Image != "" || c.Thumbnail != "" {
			return false
		}
	}
	return true
}

// RoleExists reports whether guildID has the role roleID: from the
// sessions' gateway caches when one holds the guild, else by asking
// Discord (HTTP interactions have no cache).
func (p *platform) RoleExists(ctx context.Context, guildID, roleID string) (bool, error) {
	for _, s := range p.sessions {
		if s.State == nil {
			continue
		}
		if _, err := s.State.Guild(guildID); err != nil {
			continue
		}
		_, err := s.State.Role(guildID, roleID)
		return err == nil, nil
	}
	roles, err := p.sess.GuildRoles(guildID, requestOptions(ctx)...)
	if err != nil {
		return false, p.fail(err)
	}
	for _, r := range roles {
		if r.ID == roleID {
			return true, nil
		}
	}
	return false, nil
}
