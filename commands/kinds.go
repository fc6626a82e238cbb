package commands

// registerKinds adds every game kind the bot plays.
func (a *App) registerKinds() {
	a.register(a.teamChessKind())
}
