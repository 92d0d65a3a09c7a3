"""A person at the terminal: sees only their own observation, picks a numbered option."""
from __future__ import annotations

from typing import Any

from rich.prompt import Prompt

from ..errors import InputError
from ..render import console, observation_log, print_decision, print_observation

HELP = "?: help"
KEYS = [
    ("1, 2, …", "choose that option (or type the option's text exactly)"),
    ("u", "undo your last pick of a multiple choice (before it is complete)"),
    ("v", "show the table again: zones, boards, counters"),
    ("l", "show the last 15 lines of the log"),
    ("?  h", "this help"),
    ("q", "quit the game"),
]


class HumanAgent:
    def __init__(self):
        self.log_seen: dict[int, int] = {}

    def choose(self, state: Any, player: int) -> int:
        obs = self._observe(state, player)
        print_observation(obs)
        prompt, labels = print_decision(obs)
        while True:
            try:
                answer = Prompt.ask(f"P{player + 1}: {prompt} [1-{len(labels)}] ({HELP})").strip().lower()
            except EOFError:
                raise InputError("the input ended before the game did (no answer for "
                                 f"P{player + 1})") from None
            if answer == "q":
                raise KeyboardInterrupt
            if answer in ("?", "h", "help"):
                self._help(prompt, labels)
                continue
            if answer == "u":
                from ..decisions import undo_pick
                if undo_pick(state, player):
                    return self.choose(state, player)
                console.print("[yellow]nothing to undo here[/yellow]")
                continue
            if answer == "v":
                print_observation(state.observation(player, log_from=None))
                continue
            if answer == "l":
                for line in observation_log(state.observation(player))[-15:]:
                    console.print("  " + line, markup=False)
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            matches = [i for i, text in enumerate(labels) if text.lower() == answer]
            if len(matches) == 1:
                return matches[0]
            console.print(f"[red]please type a number from 1 to {len(labels)} (? for help)[/red]")

    @staticmethod
    def _help(prompt: str, labels: list) -> None:
        console.print("[bold]keys[/bold]")
        for key, meaning in KEYS:
            console.print(f"  [bold]{key:<8}[/bold] {meaning}", highlight=False)
        console.print(f"[bold]the decision[/bold]: {prompt}", highlight=False)
        for i, text in enumerate(labels, 1):
            console.print(f"  [bold]{i}[/bold]. {text}", highlight=False, markup=False)

    def finish(self, state: Any, player: int) -> None:
        """At the end: the log lines this player has not seen yet, then their final view."""
        print_observation(self._observe(state, player))

    def _observe(self, state: Any, player: int) -> dict:
        """The player's observation; its log lines not shown to them yet are printed."""
        start = self.log_seen.get(player, 0)
        obs = state.observation(player, log_from=start)
        lines = observation_log(obs)
        for line in lines:
            console.print("  " + line, markup=False)
        self.log_seen[player] = start + len(lines)
        return obs
