"""``python -m android_harness.vphone --home DIR [--port P] [--preset NAME] [--no-auth] [--host-key PUB]``: run one vphone."""
from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from android_harness.vphone.phone import run_vphone
from android_harness.vphone.presets import DEFAULT_PRESET, PRESETS, get_preset


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m android_harness.vphone")
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--preset", default=DEFAULT_PRESET, choices=sorted(PRESETS))
    ap.add_argument("--overrides", default="{}", help="JSON object of PhonePreset field overrides")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-auth", action="store_true", help="accept any host without RSA authentication")
    ap.add_argument("--host-key", type=Path, default=None,
                    help="adbkey.pub to put in /data/misc/adb/adb_keys if that file has no key yet")
    a = ap.parse_args()
    preset = get_preset(a.preset).with_overrides(**json.loads(a.overrides))
    asyncio.run(run_vphone(a.home, a.port, preset, a.seed, auth=not a.no_auth, host_key=a.host_key))


if __name__ == "__main__":
    main()
