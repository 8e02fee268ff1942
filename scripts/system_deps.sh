#!/usr/bin/env bash
# System packages the tests use, from Debian: Fashion-MNIST (real data for the image tasks),
# Chromium (renders the HTML report in a test) and the virtual phone's sandbox and userland
# (bubblewrap, toybox, mksh, busybox-static, qemu-user-static: android_harness/vphone/README.md).
# Installed only when missing and when run as root.
set -uo pipefail
need=()
[ -d /usr/share/datasets/fashion-mnist ] || need+=(dataset-fashion-mnist)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/bin/toybox ] || need+=(toybox)
[ -x /usr/lib/x86_64-linux-musl/bin/mksh ] || need+=(mksh)
[ -x /usr/bin/busybox ] || need+=(busybox-static)
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
      || echo "warning: could not install ${need[*]}" >&2
  else
    echo "warning: missing ${need[*]} (install them with apt-get as root)" >&2
  fi
fi
exit 0
