package commands

// registerKinds adds the game kinds of the older handler-table API; the
// others register themselves from the wiring (survival.Register, ...).
func (a *App) registerKinds() {
	a.register(a.sandTableKind())
}
