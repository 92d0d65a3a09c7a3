"""A person at the terminal: sees only their own view, picks a numbered option."""
from __future__ import annotations

from typing import Any

from rich.prompt import Prompt

from ..errors import InputError
from ..render import console, print_view

HELP = "number: choose · u: undo last pick · v: table · l: log · q: quit"


class HumanAgent:
    def __init__(self):
        self.log_seen: dict[int, int] = {}

    def choose(self, state: Any, player: int) -> int:
        self._new_log_lines(state, player)
        print_view(state.view(player), player)
        labels = state.option_labels(player)
        prompt = state.prompt(player) or "Choose"
        for i, text in enumerate(labels, 1):
            console.print(f"  [bold]{i}[/bold]. {text}", highlight=False)
        while True:
            try:
                answer = Prompt.ask(f"P{player + 1}: {prompt} [1-{len(labels)}] ({HELP})").strip().lower()
            except EOFError:
                raise InputError("the input ended before the game did (no answer for "
                                 f"P{player + 1})") from None
            if answer == "q":
                raise KeyboardInterrupt
            if answer == "u":
                from ..decisions import undo_pick
                if undo_pick(state, player):
                    return self.choose(state, player)
                console.print("[yellow]nothing to undo here[/yellow]")
                continue
            if answer == "v":
                print_view(state.view(player), player)
                continue
            if answer == "l":
                for line in state.log_lines(player)[-15:]:
                    console.print("  " + line, markup=False)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            matches = [i for i, text in enumerate(labels) if text.lower() == answer]
            if len(matches) == 1:
                return matches[0]
            console.print(f"[red]please type a number from 1 to {len(labels)}[/red]")

    def _new_log_lines(self, state: Any, player: int) -> None:
        lines = state.log_lines(player)
        start = self.log_seen.get(player, 0)
        for line in lines[start:]:
            console.print("  " + line, markup=False)
        self.log_seen[player] = len(lines)
