// Command sandtable is the SandTable Bot: a Discord bot for SandTable Chess,
// Survival Chess: Tartan Grid and Team Chess, plus offline tools.
//
// Usage:
//
//	sandtable [run] [-config FILE] [-playground [-http-interactions]]
//	                                    connect to Discord (default subcommand);
//	                                    without a token, start the local playground
//	sandtable perft  -variant V -fen FEN -depth N [-divide]
//	sandtable render -game G (-fen FEN | -position FILE [-view V]) [-flip] [-size PX] -out FILE
//	sandtable apply  -game sandtable -position FILE ACTION...
//	sandtable replay -game G (-pgn FILE | -record FILE) [-size PX] -out FILE
//	                                    an animated GIF replay of a whole game
//	sandtable migrate -from bbolt:PATH[,PATH...] -to etcd:URL[,URL...] [-prefix P]
//	sandtable migrate -from etcd:URL[,URL...] -to bbolt:PATH [-prefix P]
//	                                    copy the bot's data between stores (stop the bots first)
//	sandtable uci                       the Survival and chess engine over UCI (standard input/output)
//	sandtable match -game G -a SPEC -b SPEC [-games N] [-movetime MS] [-seed S] [-openings PLIES]
//	                                    play engines against each other and score them
//
// perft, render, apply, replay, uci and match never read the configuration or open the database,
// so they can run beside a running bot.
package main

import (
	"os"

	"sandtable/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
