// Package chess is the rules engine for the 8x8 games of SandTable Bot:
// standard FIDE chess, Survival Chess: Tartan Grid (shared/seeds/001) and
// the Team Chess base (shared/seeds/003). It is pure Go with no Discord,
// rendering or storage imports: the referee the other packages build on.
//
// Layers, one file per concept:
//
//   - types.go, bitboard.go, magics.go: squares, pieces, bitboards and
//     fancy-magic slider attacks.
//   - position.go, movegen.go: Position, a small copyable value; legal move
//     generation with check and pin masks (allocation-free hot path).
//   - fen.go: ParseFEN (validated, typed *FENError) and Position.FEN.
//   - move.go, san.go, parse.go: Move, UCI, SAN, and ParseMove, a lenient
//     SAN/UCI reader whose *MoveError says why a move is illegal.
//   - listing.go: Listing, what a refusal names as legal instead (forced
//     captures, or the legal moves when few) in the notation typed.
//   - play.go: Play, IsLegal, captures, Team Chess sacrifice hooks.
//   - status.go, game.go, pgn.go: board results (Status, Claim), Game
//     (history, repetition, replay) and PGN export; pgnread.go: ReadPGN,
//     the tags, main-line moves and result of a PGN text's first game.
//   - outcome.go: how a game ended, as a typed Outcome (Result and Method,
//     stored by stable lower-case names) and the endings from outside the
//     board: Game.Resign, AgreeDraw, ClaimDraw, ClaimDrawWithMove and
//     Timeout (FIDE 6.9 as each variant reads it). Game.Outcome covers
//     these and the board endings; every one of them refuses a finished
//     game with a *GameOverError, and Play refuses moves after any ending.
//   - snapshot.go: Game.Snapshot and Resume, so a hot path goes on with a
//     game without replaying its moves. A Snapshot (JSON) holds the FEN,
//     the repetition keys since the last capture or pawn move, the ply
//     count, the last move and the outcome; Resume validates it
//     (*SnapshotError). A resumed game behaves as the replayed one in
//     everything but its history, which starts at the snapshot.
//   - perft.go: Perft, PerftBulk, PerftDivide.
//
// Variants are hooks, one small file each, as scalachess's variant
// objects: variant.go declares the rules struct (flags the move generator
// reads on its hot path: royal king, castling, mandatory capture, the
// promotion roles, sacrifices, elimination, draw rules; and an endings
// interface for the board ending and the loss on time), and
// variant_standard.go, variant_survival.go and variant_teamchess.go fill
// it. No other file branches on the variant (TestEngineDoesNotBranchOnVariant):
//
//   - Standard: FIDE chess, the defaults.
//   - Survival: kings are ordinary pieces (no check, capturable, any number
//     including none), no castling, capture is mandatory (when any capture
//     including en passant is legal, only captures are legal), promotion to
//     queen, rook, bishop, knight or king, a side with no pieces loses, and
//     running out of time always loses.
//   - TeamChess: FIDE movement and check; a pawn move reaching the last rank
//     is a Sacrifice instead of a promotion. The core generates the bare
//     sacrifice and offers SacrificeCandidates, Move.WithPlaced,
//     Move.WithRemoved, Move.WithTag and IsLegal so the Team Chess layer can
//     add the roles (Royal Guard places a queen, Assassin removes a piece,
//     Saboteur and Political Agent act outside the board) without changing
//     the core. It has no draws, and its clock does not end the game.
//
// Invariants: a Position from ParseFEN is valid for its variant and stays
// valid under Play; methods never panic on user input; Game.Play,
// Position.Play and the ending methods change nothing when they return an
// error.
//
// Rulings on ambiguous rule texts are in docs/rules/chess.md and
// docs/rules/survival.md.
package chess
