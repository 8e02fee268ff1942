"""The Python runner on a full disk, as tests/test_native_faults.py checks the
native one: a bubblewrap tmpfs holding the storage root, filled to leave 0-240 KB, the runner started as on a
phone (the device zip). One error line `No space left on device on <path>: free X, needed Y` on stderr (and in
result.json and events.jsonl once the 64 KB reserve fits), whole lines in events.jsonl and trace.jsonl, no
half-written checkpoint, no reserve left; the persistent runner serves the next session once there is space."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from android_harness.bundle import build_device_zip
from tests._runner_env import build_root, new_session, small_spec
from tests._small_disk import (assert_a_session_taken_on_a_full_disk_ends_at_once, assert_no_result_without_session_end,
                              assert_one_full_disk_error, assert_served_runner_survives, on_small_disk)

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """(spec, storage root with an ORT export, data, `python3 edgecl_device.pyz` as the phone runs it)."""
    root = tmp_path_factory.mktemp("py-full-root")
    spec = small_spec("derpp", epochs=2)
    data = build_root(spec, root, "ort")
    zip_path = build_device_zip(tmp_path_factory.mktemp("zip"))
    return spec, root, data, f"{sys.executable} {zip_path}"


def _session(env, sid: str, **overrides) -> None:
    spec, root, data, _ = env
    new_session(spec, root, data, sid, runtime="ort", trace=True, replay_dir=f"replay/{sid}", overrides=overrides)


@pytest.mark.parametrize("free_kb", [0, 40, 66, 100, 240])
def test_a_full_disk_is_one_clear_error_and_leaves_whole_files(env, tmp_path: Path, free_kb: int) -> None:
    sid = f"full-{free_kb}"
    _session(env, sid, checkpoint_every=1, step_event_every=1)
    out, proc = on_small_disk(env[1], env[3], tmp_path, f'$R run "$D"/sessions/{sid}', free_kb * 1024)
    assert_one_full_disk_error(proc, out / "sessions" / sid, tmp_path / "disk", free_kb)


def test_the_served_runner_survives_a_full_disk_and_serves_the_next_session(env, tmp_path: Path) -> None:
    _session(env, "disk-a", checkpoint_every=1)
    _session(env, "disk-b")
    assert_served_runner_survives(env[1], env[3], "$R", tmp_path)


def test_a_session_the_server_takes_on_a_full_disk_ends_at_once_from_its_reserve(env, tmp_path: Path) -> None:
    _session(env, "full-a")
    _session(env, "full-b")
    assert_a_session_taken_on_a_full_disk_ends_at_once(env[1], env[3], "$R", tmp_path)


def test_a_session_whose_log_refuses_its_end_writes_no_result(env) -> None:
    _session(env, "log-full")
    assert_no_result_without_session_end(env[3], env[1] / "sessions" / "log-full")
