"""`python -m interpreter …` is the same as the `rulebook` command."""
from .cli import main

main(prog_name="rulebook")
