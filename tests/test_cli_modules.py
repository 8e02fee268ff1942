"""The CLI never drops a command silently: a CLI module that fails to import fails ``edgecl`` itself."""
from __future__ import annotations

import pytest

from pipeline.cli import app as cli_app


def test_a_cli_module_that_fails_to_import_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_app, "_CLI_MODULES", ("pipeline.cli.no_such_cmds",))
    with pytest.raises(ModuleNotFoundError, match="no_such_cmds"):
        cli_app._register_all()


def test_every_cli_module_registers_commands() -> None:
    names = {c.name or c.callback.__name__ for c in cli_app.app.registered_commands}
    assert {"run", "report", "tune", "demo", "sweep", "doctor", "export"} <= names
