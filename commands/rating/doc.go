// Package rating is the Glicko-2 rating of finished games (issue 17), per
// server and game kind (storage.Ratings, internal/glicko2): whether a game
// is rated (Rated), the update of its players' ratings from its sides
// (Rate) and the ratings as players read them (Text, ChangesLine, Summary,
// Record). A server's ranking (established ratings first, then the
// provisional ones) is storage's Ratings.Standings, read from an index.
//
// Invariants: Rate runs in the transaction that ends the game (the
// framework's action path, package commands), so a game is rated once or
// not at all whatever crashes or retries happen, and a player whose rating
// already names the game as its last is left alone. Every update of one
// game is computed from the ratings before it, each grown to the game's
// time, and is bounded as lichess bounds one game (internal/glicko2). A game is rated when it
// ended with an outcome other than aborted, in a server, and is not
// Unrated (a casual challenge or lobby, a computer seat). It decides
// nothing about Discord: the framework shows what it returns.
package rating
