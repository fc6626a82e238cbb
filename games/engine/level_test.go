package engine

import (
	"slices"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/sandtable"
)

// TestLevelCasualIsEasy: the level once named "casual" is "easy" (it
// clashed with the casual option of a challenge); the old name, in any
// case, still names it for every player, and the lists give the new one.
func TestLevelCasualIsEasy(t *testing.T) {
	t.Parallel()
	if !slices.Contains(LevelNames(), "easy") || slices.Contains(LevelNames(), "casual") {
		t.Fatalf("level names %v: want easy, not casual", LevelNames())
	}
	easy, err := LevelByName("easy")
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"casual", "Casual", " CASUAL "} {
		if CanonicalLevel(old) != "easy" {
			t.Errorf("CanonicalLevel(%q) = %q, want easy", old, CanonicalLevel(old))
		}
		l, err := LevelByName(old)
		if err != nil || l != easy {
			t.Errorf("LevelByName(%q) = %+v, %v; want easy", old, l, err)
		}
	}
	if _, err := LevelByName("grandmaster"); err == nil {
		t.Error("an unknown level is refused")
	}
	p, err := NewPlayer("casual", 1)
	if err != nil || p.(*SearchPlayer).Level != easy {
		t.Fatalf("NewPlayer(casual) = %v, %v", p, err)
	}
	if r := p.Choose(chess.StartPosition(chess.Survival), nil, 0); r.Move == chess.NullMove {
		t.Error("the casual (easy) player found no move")
	}
	tp, err := NewTeamChessPlayer("casual", 1)
	if err != nil || tp.Level != easy {
		t.Fatalf("NewTeamChessPlayer(casual) = %v, %v", tp, err)
	}
	sp, err := NewSandTablePlayer("casual", 1)
	if err != nil || sp.level.Name != "easy" {
		t.Fatalf("NewSandTablePlayer(casual) = %v, %v", sp, err)
	}
	// The deployment at the old name is easy's (Mines on the Tank lines
	// from easy up), not beginner's.
	if levelIndex("casual") != levelIndex("easy") || levelIndex("easy") != 1 {
		t.Errorf("levelIndex(casual) = %d, levelIndex(easy) = %d", levelIndex("casual"), levelIndex("easy"))
	}
	if d := sp.Deploy(sandtable.South); d.Validate() != nil {
		t.Errorf("the casual (easy) deployment is invalid: %v", d.Validate())
	}
}
