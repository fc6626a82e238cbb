// Package chessui is the Discord presentation shared by the games played
// on 8x8 chess boards (Survival Chess and Team Chess): the board image and
// its replay frame (ChessBoard, ChessFrame), the last move in words
// (MoveNumberText), a refused move with the engine's listing (MoveRefused)
// and a picker's names and order of pieces (PieceLabel, PieceOrder).
//
// It sits between the framework (package commands, which imports no rules
// engine) and the chess engine (games/chess): the engine decides what is
// legal and in which notation, this package only formats it. Whatever it
// repeats of a player's input goes through commands.QuoteInput and
// commands.EngineText.
package chessui
