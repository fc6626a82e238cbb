// Package ui is the neutral UI model the game flow (package commands)
// produces: message text, cards, attached images, rows of controls whose
// routes are custom IDs, slash command definitions and autocomplete
// choices. It knows nothing of Discord's wire types: only the Discord
// adapter (package bot) turns these values into discordgo payloads and
// back, and cuts text to Discord's limits on the way out. The limits noted
// on each type are Discord's.
package ui
