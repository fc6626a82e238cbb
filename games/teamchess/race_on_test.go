//go:build race

package teamchess

const raceEnabled = true
