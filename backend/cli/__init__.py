"""Command-line tools over the rules engine (``python -m backend.cli.replay``); the engine itself does no I/O."""
