package outbox

import "testing"

// TestEveryEffectHasItsDelivery: each Op of the outbox is in effectKinds
// with a perform, so none is dropped as unknown.
func TestEveryEffectHasItsDelivery(t *testing.T) {
	t.Parallel()
	ops := []Op{OpPost, OpEdit, OpDM, OpEditDM, OpStartThread, OpAddMember, OpRemoveMember, OpArchive, OpBoard, OpCompact, OpPing, OpUnping, OpDelete, OpRename}
	for _, op := range ops {
		if k, ok := effectKinds[op]; !ok || k.perform == nil {
			t.Errorf("effect %q has no delivery", op)
		}
	}
	if len(effectKinds) != len(ops) {
		t.Errorf("effectKinds has %d entries, want the %d ops", len(effectKinds), len(ops))
	}
}
