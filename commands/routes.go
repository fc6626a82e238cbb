package commands

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// checkRoutes checks the route table of the game s before Register plugs
// it in, against the framework's own commands and actions and the games
// registered before it (a.kinds), and panics, at start-up, on a collision
// or an unknown route:
//
//   - a top-level command (TopLevel) must be one of the game's
//     Definitions, and no shared command nor another game's top-level
//     command: the router takes the first it finds;
//   - a thread command (Thread) must be defined, by the framework's shared
//     commands or the game's Definitions; an Autocomplete route must be a
//     thread command's; a command the game defines must have a route;
//   - an action of a custom ID (Components, Modals, Invitations) must be a
//     valid one (CustomID: lower-case letters and '-'), and none of the
//     framework's own: the confirmation's, and the challenge's when the
//     game has challenges (Start).
//
// Custom IDs themselves are not changed by this: buttons already posted
// and effects already stored carry them.
func checkRoutes[S any](a *App, s Spec[S]) {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if s.Name == "" {
		fail("a game has no Name")
	}
	shared := map[string]bool{}
	for _, d := range append(sharedDefinitions(), a.ratingDefinitions()...) {
		shared[d.Name] = true
	}
	for _, name := range []string{"games", HistoryAction, "leaderboard", "stats", "notify", AdminCommand} {
		shared[name] = true // routed by the framework itself
	}
	own := map[string]bool{}
	for _, d := range s.Definitions {
		own[d.Name] = true
	}
	for _, name := range sortedKeys(s.TopLevel) {
		switch {
		case !own[name]:
			fail("top-level command /%s is not among the game's Definitions", name)
		case shared[name]:
			fail("top-level command /%s is a shared command", name)
		}
		for _, other := range a.kinds {
			if _, dup := other.TopLevel[name]; dup {
				fail("top-level command /%s is also %s's", name, other.Name)
			}
		}
	}
	for _, name := range sortedKeys(s.Thread) {
		if !own[name] && !shared[name] {
			fail("thread command /%s is defined nowhere", name)
		}
	}
	for _, name := range sortedKeys(s.Autocomplete) {
		if _, ok := s.Thread[name]; !ok {
			fail("autocomplete of /%s, which is not one of the game's thread commands", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(own)) {
		_, top := s.TopLevel[name]
		_, thread := s.Thread[name]
		if !top && !thread {
			fail("command /%s is defined but has no route", name)
		}
	}
	action := func(table, name string) {
		if _, err := ParseCustomID(CustomID{Scope: "g", ID: "abcdefghij", Action: name}.String()); err != nil {
			fail("%s action %q is not a valid custom ID action", table, name)
		}
	}
	for _, name := range sortedKeys(s.Components) {
		action("component", name)
		if name == confirmAction || name == cancelAction {
			fail("component action %q is the framework's confirmation", name)
		}
	}
	for _, name := range sortedKeys(s.Modals) {
		action("form", name)
	}
	var challenge map[string]Handler
	if s.Start != nil {
		challenge = challengeHandlers(nil)
	}
	for _, name := range sortedKeys(s.Invitations) {
		action("invitation", name)
		if _, dup := challenge[name]; dup {
			fail("invitation action %q is the framework's challenge action", name)
		}
	}
	if len(errs) > 0 {
		panic(fmt.Sprintf("commands: the routes of game %q: %s", s.Name, joinSorted(errs)))
	}
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func joinSorted(errs []string) string {
	sort.Strings(errs)
	return strings.Join(errs, "; ")
}
