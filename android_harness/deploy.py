"""Deploy an export's files to a device: push only what changed, verify, rename into place.

Input is an export ``manifest.json`` (``{"format": "edgecl-manifest/1", "files": [{"path",
"sha256", "size"}], ...}``; only ``files`` is read). Files land under
``<storage_root>/models/<name>/``. Each file goes to a temp name, its sha256 is checked on the
device and only then is it renamed over the final name, so an interrupted or corrupted push never
leaves a wrong file under the real name; a final file whose hash does not match (corrupted later)
is pushed again; so is every file when the link drops mid-push (``android_harness.link``). Two shell
round trips (check; verify+rename), plus one sync connection for the data.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

from android_harness.android_device import AndroidDevice
from android_harness.device.fileio import sha256_file
from android_harness.shell_quote import quote
from android_harness.device.errors import DataError
from android_harness.errors import DeviceError
from android_harness.link import RECONNECT_TIMEOUT_S, through_drops
from android_harness.storage_space import parse_df_available

TMP_SUFFIX = ".edgecl-tmp"
MAX_ATTEMPTS = 3
SPACE_MARGIN_BYTES = 16 * 1024 * 1024
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class DeployFile:
    rel: str            # path relative to the manifest folder == relative to the remote folder
    local: Path
    sha256: str
    size: int


@dataclass
class DeployReport:
    serial: str
    remote_dir: str
    pushed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    redone: list[str] = field(default_factory=list)
    bytes_moved: int = 0
    seconds: float = 0.0
    simulated: bool = False
    phase_seconds: dict[str, float] = field(default_factory=dict)   # check, push, verify (summed)


def read_manifest(manifest: Path) -> list[DeployFile]:
    """The manifest's files (sizes checked against the local copies; hashes are checked on the
    bytes actually pushed), then the manifest itself."""
    try:
        data = json.loads(manifest.read_text())
        entries = data["files"]
        if not isinstance(entries, list):
            raise TypeError("files is not a list")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DataError(f"{manifest}: not a readable export manifest with a 'files' list ({e})") from e
    problems, files = [], []
    for i, entry in enumerate(entries):
        try:
            rel, digest, size = str(entry["path"]), str(entry["sha256"]).lower(), int(entry["size"])
        except (KeyError, TypeError, ValueError):
            problems.append(f"files[{i}]: expected path, sha256 and size")
            continue
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts or not rel or rel.endswith(TMP_SUFFIX):
            problems.append(f"files[{i}].path {rel!r}: expected a relative path inside the export folder")
            continue
        if not _HEX64.match(digest):
            problems.append(f"files[{i}].sha256: expected 64 hex digits")
            continue
        local = manifest.parent / rel
        if not local.is_file() or local.stat().st_size != size:
            problems.append(f"files[{i}] {rel}: local file missing or not {size} bytes")
            continue
        files.append(DeployFile(rel, local, digest, size))
    if problems:
        raise DataError(f"{manifest}: " + "; ".join(problems))
    files.append(DeployFile(manifest.name, manifest, sha256_file(manifest), manifest.stat().st_size))
    return files


def _parse_sha256sum(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2 and _HEX64.match(parts[0]):
            out[parts[1].lstrip("*")] = parts[0]
    return out


def deploy(device: AndroidDevice, manifest: Path, name: str | None = None,
           show_progress: bool = False, remote_dir: str | None = None) -> DeployReport:
    """Push the manifest's files to ``<storage_root>/models/<name>/`` (name: the manifest's folder),
    or to ``remote_dir`` when given (task shards under ``data/``, the runner zip under ``runner/``)."""
    t0 = time.perf_counter()
    files = read_manifest(manifest)
    name = name or manifest.resolve().parent.name
    if not re.match(r"^[A-Za-z0-9_.-]+$", name) or name in (".", ".."):
        raise DataError(f"deploy name {name!r}: expected letters, digits, '_', '-' or '.'")
    remote_dir = remote_dir or device.storage_path("models", name)
    report = DeployReport(device.serial, remote_dir, simulated=device.profile.simulated)
    rels = [f.rel for f in files]
    _mk, df, sums = device.batch(
        [["mkdir", "-p", remote_dir], ["df", "-k", remote_dir],
         _hash_existing(remote_dir, rels)],
        check=False, idempotent=True)
    if not _mk.ok:
        raise DeviceError(device.serial, f"cannot create {remote_dir}: {_mk.stderr.strip()}")
    report.phase_seconds["check"] = time.perf_counter() - t0
    remote = _parse_sha256sum(sums.stdout)
    todo = [f for f in files if remote.get(f.rel) != f.sha256]
    report.skipped = [f.rel for f in files if f not in todo]
    report.redone = [f.rel for f in todo if f.rel in remote]
    need = sum(f.size for f in todo)
    free = parse_df_available(df.stdout)
    if todo and free is not None and need + SPACE_MARGIN_BYTES > free:
        raise DeviceError(device.serial, f"not enough space for {name}: need {need / 1e6:.1f} MB "
                                         f"(+{SPACE_MARGIN_BYTES // 2**20} MiB margin), {free / 1e6:.1f} MB free at {remote_dir}")
    for _attempt in range(MAX_ATTEMPTS):
        if not todo:
            break
        # a link cut mid-push (the adb server killed, the cable pulled) pushes the same files again
        moved, bad = through_drops(lambda: _push_and_verify(device, remote_dir, todo, show_progress, report.phase_seconds),
                                   lambda exc: DeviceError(device.serial, f"unreachable for {RECONNECT_TIMEOUT_S:g} s "
                                                                          f"while pushing to {remote_dir}: "
                                                                          + str(exc).removeprefix(f"[{device.serial}] ")))
        report.bytes_moved += moved
        report.pushed += [f.rel for f in todo if f.rel not in bad and f.rel not in report.pushed]
        report.redone += [r for r in sorted(bad) if r not in report.redone]
        todo = [f for f in todo if f.rel in bad]
    if todo:
        raise DeviceError(device.serial, f"sha256 mismatch after {MAX_ATTEMPTS} pushes: "
                                         f"{', '.join(f.rel for f in todo)}")
    report.seconds = time.perf_counter() - t0
    return report


def _push_and_verify(device: AndroidDevice, remote_dir: str, todo: list[DeployFile],
                     show: bool, phases: dict[str, float]) -> tuple[int, set[str]]:
    """Push every file to its temp name over one sync connection, then verify and rename them all
    in one round trip. Returns (bytes sent, files whose on-device hash did not match)."""
    pairs = [(f.local, f"{remote_dir}/{f.rel}{TMP_SUFFIX}") for f in todo]
    t0 = time.perf_counter()
    with Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                  TransferSpeedColumn(), disable=not show, transient=True) as bar:
        task = bar.add_task(f"push {len(todo)} files", total=sum(f.size for f in todo))
        pushed = device.adb.push_files(pairs, progress=lambda n: bar.advance(task, n))
    changed = [f.rel for f, p in zip(todo, pushed) if p.sha256 != f.sha256]
    if changed:
        device.batch([["rm", "-f", remote] for _l, remote in pairs], check=False)
        raise DataError(f"local files differ from their manifest sha256 (changed since export?): "
                        f"{', '.join(changed)}")
    t1 = time.perf_counter()
    bad = _verify_and_rename(device, remote_dir, todo)
    phases["push"] = phases.get("push", 0.0) + t1 - t0
    phases["verify"] = phases.get("verify", 0.0) + time.perf_counter() - t1
    return sum(p.size for p in pushed), bad


def _hash_existing(remote_dir: str, names: list[str]) -> str:
    """Shell text printing ``sha256sum`` lines for those of ``names`` that exist in remote_dir
    (no hashing process is started when none do)."""
    listed = " ".join(quote(n) for n in names)
    return (f"cd {quote(remote_dir)} && set -- && for f in {listed}; do [ -f \"$f\" ] && "
            "set -- \"$@\" \"$f\"; done; if [ $# -gt 0 ]; then sha256sum -- \"$@\"; fi; true")


def _verify_and_rename(device: AndroidDevice, remote_dir: str, todo: list[DeployFile]) -> set[str]:
    """One round trip: hash every temp with one sha256sum call, rename each temp whose hash matches
    over its final name, delete the others. Returns the files to push again. The rename is mksh's
    builtin ``rename`` (rename(2), as ``mv`` does on one filesystem; Android's ``sh`` is mksh), so a
    file costs no process; ``mv -f`` where a shell has no such builtin."""
    lines = [f"cd {quote(remote_dir)} || exit 1",
             f"sums=\"\n$(sha256sum -- {' '.join(quote(f.rel + TMP_SUFFIX) for f in todo)} 2>/dev/null)\n\""]
    for i, f in enumerate(todo):
        tmp, final = quote(f.rel + TMP_SUFFIX), quote(f.rel)
        line = quote(f"\n{f.sha256}  {f.rel}{TMP_SUFFIX}\n")
        lines.append(f"case \"$sums\" in *{line}*) {{ rename -- {tmp} {final} 2>/dev/null || mv -f -- {tmp} {final}; }} && echo OK {i};; "
                     f"*) rm -f -- {tmp}; echo BAD {i};; esac")
    out = device.shell("\n".join(lines)).stdout.split()
    ok = {out[k + 1] for k in range(len(out) - 1) if out[k] == "OK"}
    return {f.rel for i, f in enumerate(todo) if str(i) not in ok}
