"""`python -m cli` runs the `cattle` command."""

from cli.main import run

run()
