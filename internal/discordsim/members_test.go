package discordsim

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestMemberPermissionsAndRoles: a member's permissions and roles, as a test sets them, reach
// the bot in the interaction's member and through REST (the member, the guild's roles); a
// role option resolves the role; a deleted role leaves its members.
func TestMemberPermissionsAndRoles(t *testing.T) {
	e := newEnv(t, &discordgo.ApplicationCommand{Name: "admin", Description: "admin",
		DefaultMemberPermissions: ptr(PermManageGuild),
		Options:                  []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionRole, Name: "role", Description: "r"}}})
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {})
	players, err := e.srv.AddRole(e.guild.ID, "players", 0)
	if err != nil {
		t.Fatal(err)
	}
	mods := must[*Role](t)(e.srv.AddRole(e.guild.ID, "mods", PermManageGuild))
	if err := e.srv.SetMemberRoles(e.guild.ID, e.alice, mods.ID); err != nil {
		t.Fatal(err)
	}
	e.srv.SetMemberPermissions(e.guild.ID, e.bob, 0)

	// The fake, as a server owner's Integrations override may, lets anyone invoke the command:
	// the bot checks the member's permissions.
	must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "admin", Opt("role", players)))
	i := e.nextInteraction()
	if i.Member.Permissions&PermManageGuild == 0 || len(i.Member.Roles) != 1 || i.Member.Roles[0] != mods.ID {
		t.Errorf("alice: permissions %d roles %v", i.Member.Permissions, i.Member.Roles)
	}
	data := i.ApplicationCommandData()
	if r := data.Resolved.Roles[players.ID]; r == nil || r.Name != "players" {
		t.Errorf("resolved roles %+v", data.Resolved.Roles)
	}
	must[*Interaction](t)(e.srv.Slash(e.bob, e.ch.ID, "admin"))
	if i := e.nextInteraction(); i.Member.Permissions != 0 || len(i.Member.Roles) != 0 {
		t.Errorf("bob: permissions %d roles %v", i.Member.Permissions, i.Member.Roles)
	}

	roles := must[[]*discordgo.Role](t)(e.sess.GuildRoles(e.guild.ID))
	if len(roles) != 3 || roles[0].ID != e.guild.ID || roles[1].Name != "players" || roles[2].Permissions != PermManageGuild {
		t.Errorf("roles %+v", roles)
	}
	if err := e.srv.DeleteRole(e.guild.ID, mods.ID); err != nil {
		t.Fatal(err)
	}
	m := must[*discordgo.Member](t)(e.sess.GuildMember(e.guild.ID, e.alice.ID))
	if len(m.Roles) != 0 || e.srv.MemberPermissions(e.guild.ID, e.alice)&PermManageGuild != 0 {
		t.Errorf("after the role's deletion: roles %v permissions %d", m.Roles, m.Permissions)
	}
	if _, err := e.srv.Slash(e.alice, e.ch.ID, "admin", Opt("role", mods.ID)); err == nil {
		t.Error("a deleted role was accepted as an option")
	}
}

func ptr[T any](v T) *T { return &v }
