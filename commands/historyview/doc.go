// Package historyview is the history viewer (issue 15 item 3): every game shows any earlier
// position privately to whoever asks, with its move list. A game numbers
// its positions ("frames") 0 to n-1, the last being the latest; what a
// frame is (a ply, a move, a turn) is the game's. The viewer is an
// ephemeral message with ⏮ ◀ ▶ ⏭ controls whose custom IDs carry the
// frame they show ("g:<game>:history:<arg>"), so a click needs nothing
// stored and changes nothing: it updates the viewer it is on in place.
//
// The arg of a control: "" (the History button of a board, /history) opens
// a new viewer at the latest frame; "f" is the first frame, "l" the latest
// at the time of the click, "p<i>" and "n<i>" the frame i (◀ and ▶; two
// letters so that every custom ID of a message differs, as Discord
// requires), "c<i>" the disabled counter between them.
//
// It builds the viewer's controls and reads their clicks (Button, Frame,
// Controls, Answer) and lays out a move list (Window, ChessMoveLines); each
// game rebuilds its frames from what it stores and routes
// commands.HistoryAction (the /history command in its thread, the History
// button, the controls) to its viewer. The framework core routes /history
// outside a game thread to the game archive and imports nothing of this.
// Invariant: a control's custom ID is "g:<game>:history:<arg>" as above,
// byte for byte: viewers already shown carry them.
package historyview
