"""Command-line interface (``edgecl``); see ``pipeline.cli.app``."""
