"""A game against the engine, in the terminal.

    python python/examples/play_engine.py [--variant tablut] [--side attackers] [--movetime 500]
    python python/examples/play_engine.py --random      # a random mover plays for you

Type moves in OpenTafl notation (`e2-h2`); also `moves`, `undo` (takes back your last move and
the engine's answer), `quit`. An illegal move is refused with the engine's reason.
"""

import argparse
import random
from typing import List, Optional, Tuple

import tafl_engine as te


def ask_move(game: te.Game) -> Optional[Tuple[str, List[str]]]:
    while True:
        try:
            text = input(f"{game.side_to_move} to move> ").strip()
        except EOFError:
            return None
        if text in ("quit", "exit"):
            return None
        if text == "moves":
            print(" ".join(sorted(game.legal_moves())))
        elif text == "undo":
            if game.ply >= 2:
                game.undo()
                game.undo()
                print(game)
            else:
                print("nothing to take back")
        elif text:
            try:
                captured = game.play(text)
            except ValueError as error:
                print(error)
                continue
            return text, captured


def main() -> None:
    parser = argparse.ArgumentParser(description="Play tafl against tafl_engine.")
    parser.add_argument("--variant", default="tablut", choices=te.variants())
    parser.add_argument("--side", default="defenders", choices=["attackers", "defenders"])
    parser.add_argument("--movetime", type=int, default=500, help="engine's time a move, ms")
    parser.add_argument("--random", action="store_true", help="a random mover plays your side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = te.Game(args.variant)
    engine = te.Engine(hash_mb=64)
    rng = random.Random(args.seed)
    print(game)
    while game.outcome is None:
        if game.side_to_move == args.side:
            if args.random:
                move = rng.choice(sorted(game.legal_moves()))
                captured = game.play(move)
            else:
                answer = ask_move(game)
                if answer is None:
                    print("bye")
                    return
                move, captured = answer
            who = "you"
        else:
            result = engine.search(game, movetime_ms=args.movetime)
            if result.best_move is None:  # only when the game is over, which it is not here
                break
            move = result.best_move
            captured = game.play(move)
            who = f"engine (score {result.score_text}, depth {result.depth})"
        print(f"{game.ply}. {who}: {move}" + (f" captures {', '.join(captured)}" if captured else ""))
        if not args.random or game.side_to_move == args.side or game.outcome:
            print(game)
    if game.outcome is None:
        return
    winner, reason = game.outcome
    print(f"game over after {game.ply} plies: {winner} ({reason.replace('_', ' ')})")


if __name__ == "__main__":
    main()
