"""The vphone's shell service never cuts a command's output because the host is slow to take it."""
from __future__ import annotations

import asyncio

from android_harness.vphone.services import PIPE_GRACE_S, PumpProgress, _pump_out, _run_process


async def _shell_output(cmd: str, host_delay_s: float) -> tuple[int, bytes]:
    """Run ``cmd`` and pump its stdout to a host that takes ``host_delay_s`` to acknowledge each write
    (a loaded host's adb server, or a starved one: the OKAY comes late)."""
    proc = await asyncio.create_subprocess_exec("sh", "-c", cmd, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE, start_new_session=True)
    got: list[bytes] = []

    async def slow_host(chunk: bytes) -> None:
        await asyncio.sleep(host_delay_s)
        got.append(chunk)

    async def no_stdin() -> None:
        await asyncio.Event().wait()

    progress = PumpProgress()
    rc = await _run_process(proc, [_pump_out(proc.stdout, slow_host, progress)], progress, no_stdin())
    return rc, b"".join(got)


def test_output_waits_for_a_host_slower_than_the_pipe_grace() -> None:
    rc, out = asyncio.run(_shell_output("printf 'poll answer\\n'; exit 3", 3 * PIPE_GRACE_S))
    assert (rc, out) == (3, b"poll answer\n")
