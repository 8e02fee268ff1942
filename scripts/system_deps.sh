#!/usr/bin/env bash
# System packages the tests use, from Debian: Fashion-MNIST (real data for the image tasks), Chromium
# (renders the HTML report in a test), the virtual phone's sandbox and userland (bubblewrap, toybox,
# mksh, busybox-static, qemu-user-static, e2fsprogs: android_harness/vphone/README.md) and the native runner's
# toolchains (make, g++ and static glibc for x86_64, g++-aarch64-linux-gnu for arm64, qemu-user-static
# to run the arm64 build on this host). Installed only when missing and when run as root. With CI=true
# anything missing that cannot be installed is an error (exit 1): CI must not silently skip what it
# was meant to test.
set -uo pipefail
need=()
[ -d /usr/share/datasets/fashion-mnist ] || need+=(dataset-fashion-mnist)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /usr/sbin/mkfs.ext4 ] || need+=(e2fsprogs)  # the vphone's data_size_mb partition (data_partition.py)
[ -x /usr/bin/toybox ] || need+=(toybox)
[ -x /usr/lib/x86_64-linux-musl/bin/mksh ] || need+=(mksh)
[ -x /usr/bin/busybox ] || need+=(busybox-static)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
[ -f "/usr/lib/$(uname -m)-linux-gnu/libc.a" ] || need+=(libc6-dev)
command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || need+=(g++-aarch64-linux-gnu)
command -v aarch64-linux-gnu-strip >/dev/null 2>&1 || need+=(binutils-aarch64-linux-gnu)
command -v qemu-aarch64-static >/dev/null 2>&1 || need+=(qemu-user-static)
[ -x /usr/bin/time ] || need+=(time)  # GNU time: peak RSS in bench/native.py
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  if apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; then
    exit 0
  fi
  echo "system_deps: could not install ${need[*]}" >&2
else
  echo "system_deps: missing ${need[*]} (install them with apt-get as root)" >&2
fi
[ "${CI:-}" = "true" ] && exit 1
exit 0
