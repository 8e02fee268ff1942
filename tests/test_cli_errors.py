"""The CLI turns an EdgeclError into one line on stderr and its exit code, text shown verbatim."""
from __future__ import annotations

import pytest

from pipeline.cli import app as cli_app
from pipeline.errors import ConfigError, DataError, DeviceError, ExportError, SessionError


@pytest.mark.parametrize("exc, code", [(DeviceError("emulator-5554", "device is [offline]"), 1),
                                       (SessionError("died", "runner exited"), 1),
                                       (ConfigError(["train.lr: expected a number"], source="x.toml"), 2),
                                       (DataError("data.path: no such folder"), 3),
                                       (ExportError("the training program calls aten::x.out", pass_name="operator_check"), 4),
                                       (SessionError("precheck", "this phone has no Python"), 5)])
def test_error_is_one_clear_line_with_its_exit_code(monkeypatch, capsys, exc, code) -> None:
    def boom() -> None:
        raise exc

    monkeypatch.setattr(cli_app, "app", boom)
    with pytest.raises(SystemExit) as done:
        cli_app.main()
    assert done.value.code == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert str(exc) in " ".join(err.split()), err      # square brackets are not eaten as markup
