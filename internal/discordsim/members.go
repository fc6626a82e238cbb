package discordsim

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Role is a guild role: a name and the permissions it grants its members. The @everyone role
// (whose ID is the guild's) is implicit: it grants allPermissions.
type Role struct {
	ID          string `json:"id"`
	GuildID     string `json:"guild_id"`
	Name        string `json:"name"`
	Permissions int64  `json:"permissions"`
	Position    int    `json:"position"`
}

// member is what the fake knows of a user in one guild beyond being a member: the
// permissions set for it (nil: allPermissions, everything a game bot needs but Administrator
// and Manage Server) and its roles.
type member struct {
	Permissions *int64   `json:"permissions,omitempty"`
	Roles       []string `json:"roles,omitempty"`
}

// PermManageGuild is Discord's Manage Server permission (MANAGE_GUILD, 1 << 5), which members
// of the fake have only when a test gives it (SetMemberPermissions or a role).
const PermManageGuild int64 = discordgo.PermissionManageGuild

func memberKey(guildID, userID string) string { return guildID + "/" + userID }

// SetMemberPermissions sets the base permissions of u in guild guildID (as the @everyone
// role and overwrites would give them); its roles' permissions are added to them. A member
// never set has allPermissions, which lacks Manage Server and Administrator.
func (s *Server) SetMemberPermissions(guildID string, u *User, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.memberLocked(guildID, u.ID)
	m.Permissions = &perms
	s.notifyLocked()
}

// AddRole creates a role in guild guildID granting perms and returns it.
func (s *Server) AddRole(guildID, name string, perms int64) (*Role, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.guilds[guildID] == nil {
		return nil, fmt.Errorf("discordsim: unknown guild %s", guildID)
	}
	r := &Role{ID: s.newID(), GuildID: guildID, Name: name, Permissions: perms, Position: len(s.st.roles[guildID]) + 1}
	s.st.roles[guildID] = append(s.st.roles[guildID], r)
	s.dispatchLocked("GUILD_ROLE_CREATE", map[string]any{"guild_id": guildID, "role": roleJSON(r)}, guildID, discordgo.IntentGuilds)
	s.notifyLocked()
	cp := *r
	return &cp, nil
}

// DeleteRole deletes the role roleID of guild guildID; its members lose it.
func (s *Server) DeleteRole(guildID, roleID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.st.roles[guildID]
	for i, r := range rs {
		if r.ID == roleID {
			s.st.roles[guildID] = append(rs[:i:i], rs[i+1:]...)
			for k, m := range s.st.members {
				if len(k) > len(guildID) && k[:len(guildID)+1] == guildID+"/" {
					m.Roles = without(m.Roles, roleID)
				}
			}
			s.dispatchLocked("GUILD_ROLE_DELETE", map[string]any{"guild_id": guildID, "role_id": roleID}, guildID, discordgo.IntentGuilds)
			s.notifyLocked()
			return nil
		}
	}
	return fmt.Errorf("discordsim: no role %s in guild %s", roleID, guildID)
}

// SetMemberRoles gives u exactly the roles roleIDs (of guild guildID).
func (s *Server) SetMemberRoles(guildID string, u *User, roleIDs ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range roleIDs {
		if s.roleLocked(guildID, id) == nil {
			return fmt.Errorf("discordsim: no role %s in guild %s", id, guildID)
		}
	}
	s.memberLocked(guildID, u.ID).Roles = append([]string(nil), roleIDs...)
	s.notifyLocked()
	return nil
}

// Roles lists the roles of guild guildID (without @everyone).
func (s *Server) Roles(guildID string) []*Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Role, 0, len(s.st.roles[guildID]))
	for _, r := range s.st.roles[guildID] {
		cp := *r
		out = append(out, &cp)
	}
	return out
}

// MemberPermissions is what Discord computes for u in guild guildID: its base permissions
// and those of its roles (Administrator grants every permission).
func (s *Server) MemberPermissions(guildID string, u *User) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, _ := s.memberPermsLocked(guildID, u.ID)
	return p
}

func (s *Server) memberLocked(guildID, userID string) *member {
	k := memberKey(guildID, userID)
	m := s.st.members[k]
	if m == nil {
		m = &member{}
		s.st.members[k] = m
	}
	return m
}

func (s *Server) roleLocked(guildID, roleID string) *Role {
	for _, r := range s.st.roles[guildID] {
		if r.ID == roleID {
			return r
		}
	}
	return nil
}

// memberPermsLocked returns u's permissions in guildID and its role IDs.
func (s *Server) memberPermsLocked(guildID, userID string) (int64, []string) {
	p, _ := strconv.ParseInt(allPermissions, 10, 64)
	m := s.st.members[memberKey(guildID, userID)]
	if m == nil {
		return p, []string{}
	}
	if m.Permissions != nil {
		p = *m.Permissions
	}
	for _, id := range m.Roles {
		if r := s.roleLocked(guildID, id); r != nil {
			p |= r.Permissions
		}
	}
	if p&discordgo.PermissionAdministrator != 0 {
		p = discordgo.PermissionAll
	}
	return p, append([]string{}, m.Roles...)
}

// memberJSONLocked is u as a member of guildID; withUser false gives the shape used in
// resolved.members.
func (s *Server) memberJSONLocked(guildID string, u *User, withUser bool) map[string]any {
	m := memberJSON(u, withUser)
	if guildID != "" {
		p, roles := s.memberPermsLocked(guildID, u.ID)
		m["permissions"], m["roles"] = strconv.FormatInt(p, 10), roles
	}
	return m
}

func roleJSON(r *Role) map[string]any {
	return map[string]any{"id": r.ID, "name": r.Name, "permissions": strconv.FormatInt(r.Permissions, 10),
		"position": r.Position, "color": 0, "hoist": false, "managed": false, "mentionable": true}
}

// rolesJSONLocked is the guild's role list as GET /guilds/{id}/roles answers it: @everyone first.
func (s *Server) rolesJSONLocked(guildID string) []any {
	out := []any{map[string]any{"id": guildID, "name": "@everyone", "permissions": allPermissions, "position": 0,
		"color": 0, "hoist": false, "managed": false, "mentionable": false}}
	rs := append([]*Role(nil), s.st.roles[guildID]...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Position < rs[j].Position })
	for _, r := range rs {
		out = append(out, roleJSON(r))
	}
	return out
}

func without(ids []string, id string) []string {
	out := ids[:0:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
