package outbox

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/retry"
)

// TestEveryEffectHasItsDelivery: each Op of the outbox is in effectKinds
// with a perform, so none is dropped as unknown.
func TestEveryEffectHasItsDelivery(t *testing.T) {
	t.Parallel()
	ops := []Op{OpPost, OpEdit, OpDM, OpEditDM, OpStartThread, OpAddMember, OpAddMembers, OpRemoveMember, OpArchive, OpBoard, OpCompact, OpPing, OpUnping, OpDelete, OpRename}
	for _, op := range ops {
		if k, ok := effectKinds[op]; !ok || k.perform == nil {
			t.Errorf("effect %q has no delivery", op)
		}
	}
	if len(effectKinds) != len(ops) {
		t.Errorf("effectKinds has %d entries, want the %d ops", len(effectKinds), len(ops))
	}
}

// memberPlatform adds thread members, refusing those in refuse.
type memberPlatform struct {
	Platform
	refuse map[string]error
	added  []string
}

func (p *memberPlatform) AddThreadMember(_ context.Context, thread, user string) error {
	if err := p.refuse[user]; err != nil {
		return err
	}
	p.added = append(p.added, thread+"/"+user)
	return nil
}

// TestAddMembers: one add_members effect adds each of its users; one
// Discord refuses for good is skipped and the others added; a failure to
// retry fails the effect (a retry adds them all again, which is harmless);
// it is refused only when every user is.
func TestAddMembers(t *testing.T) {
	t.Parallel()
	gone := &PlatformError{HTTPStatus: 404, Code: 10007, Err: errors.New("404 Not Found: Unknown Member")}
	down := &PlatformError{HTTPStatus: 503, Err: errors.New("503 Service Unavailable")}
	log := slog.New(slog.DiscardHandler)
	add := func(p *memberPlatform, users ...string) error {
		d := &Delivery{Effect: &Effect{Op: OpAddMembers, Channel: "th", Users: users}, Channel: "th"}
		_, err := Perform(context.Background(), p, log, nil, d)
		return err
	}
	p := &memberPlatform{refuse: map[string]error{"b": gone}}
	require.NoError(t, add(p, "a", "b", "c"))
	require.Equal(t, []string{"th/a", "th/c"}, p.added)

	p = &memberPlatform{refuse: map[string]error{"b": down}}
	err := add(p, "a", "b", "c")
	require.ErrorIs(t, err, down)
	require.False(t, retry.IsPermanent(err))

	p = &memberPlatform{refuse: map[string]error{"a": gone, "b": gone}}
	err = add(p, "a", "b")
	require.True(t, retry.IsPermanent(err), "%v", err)
	require.Empty(t, p.added)
}
