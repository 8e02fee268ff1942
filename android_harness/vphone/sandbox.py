"""One boot of the phone: its namespaces, held by a bubblewrap "init", and how shells enter them.

The holder is ``bwrap`` with new user, pid, mount, network, IPC and UTS namespaces and the Android
filesystem of home.py (root read-only; ``/data`` and the drop folder ``/dev/socket/edgecl_vphone/ctl``
writable, the rest of ``/dev/socket/edgecl_vphone`` read-only: svc_channel.py).
Its user namespace maps uids 0, 1000, 2000 and 9997 onto the same host uids (the vphone writes the
maps itself through ``--userns-block-fd``) and allows no user namespace inside it. Every shell is
``nsenter`` into all of those namespaces as uid/gid 2000 ("shell", no capabilities), so all shells
of a phone share one pid namespace (``kill -0`` across shells works, setsid'd work outlives its
shell) and killing the holder's pid 1 kills every process of the phone (``--die-with-parent`` does
that if the vphone dies).

arm64 presets: the holder mounts a binfmt_misc instance of the phone's own user namespace (Linux >=
6.7) on ``/proc/sys/fs/binfmt_misc``; the vphone registers ``qemu-aarch64-static`` there with flag F
(the interpreter is opened at registration, so it need not be visible in the phone). An aarch64 ELF
exec'd by any process of the phone then runs under qemu transparently; nothing changes on the host.

The vphone's own file and socket work for the phone (sync, ``tcp:`` forwards) runs on threads that
entered the phone's mount and network namespaces and then became uid/gid 2000 with no capabilities:
paths resolve in the phone's filesystem and permissions are the shell's, as for adbd, so nothing of
the host is reachable (not even through the ``/proc`` of the phone's root processes).
"""
from __future__ import annotations

import ctypes
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from android_harness.vphone.device_tools import SVC_CTL_DIR, SVC_DIR
from android_harness.vphone.home import SDCARD, SHELL_UID, STORAGE_ROOT, VphoneHome
from android_harness.vphone.presets import ABIS, PhonePreset
from android_harness.vphone.svc_channel import CTL

QEMU_AARCH64 = Path("/usr/bin/qemu-aarch64-static")
BINFMT_DIR = "/proc/sys/fs/binfmt_misc"
MAX_USERNS = "/proc/sys/user/max_user_namespaces"
KERNEL_ARCH = "/proc/sys/kernel/arch"          # the machine the kernel says it is (Linux >= 6.1)
# Debian qemu-user-static's aarch64 entry (magic/mask of an ELF64 LE e_machine=183 executable)
BINFMT_AARCH64 = (r":qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:"
                  r"\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:"
                  f"{QEMU_AARCH64}:F")
MAPPED_IDS = (0, 1000, SHELL_UID, 9997)
NSENTER = shutil.which("nsenter") or "/usr/bin/nsenter"     # util-linux
BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"           # bubblewrap
TERMUX_BIN = "/data/data/com.termux/files/usr/bin"
ANDROID_PATH = "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin"
BOOT_TIMEOUT_S = 10.0
IO_THREADS = 4
CLONE_FS, CLONE_NEWNS, CLONE_NEWNET = 0x200, 0x20000, 0x40000000
SYSCALLS = {"x86_64": {"setgroups": 116, "setresuid": 117, "setresgid": 119, "capget": 125},
            "aarch64": {"setgroups": 159, "setresuid": 147, "setresgid": 149, "capget": 90}}
CAP_VERSION_3 = 0x20080522
PR_SET_NAME = 15
IO_THREAD_NAME = b"phone-io"           # the comm of the phone's I/O threads (tests read their status)
_libc = ctypes.CDLL(None, use_errno=True)


class SandboxError(Exception):
    """The phone's namespaces could not be set up (bwrap, user namespaces or binfmt_misc)."""


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _enter_phone(fds: dict[str, int]) -> None:
    """Thread initializer: this thread sees the phone's filesystem and network and becomes the shell
    user (uid/gid 2000, no groups, no capabilities), as adbd's shell-user work is. The raw syscalls
    change this thread's credentials only (glibc's wrappers would change every thread's): with no
    CAP_SYS_PTRACE or CAP_DAC_*, ``/proc/1/root`` and the like of the phone are refused to it."""
    _check(_libc.unshare(CLONE_FS), "unshare(CLONE_FS)")
    _check(_libc.setns(fds["mnt"], CLONE_NEWNS), "setns(mnt)")
    _check(_libc.setns(fds["net"], CLONE_NEWNET), "setns(net)")
    nr = SYSCALLS[platform.machine()]
    _check(_libc.syscall(nr["setgroups"], 0, None), "setgroups")
    _check(_libc.syscall(nr["setresgid"], SHELL_UID, SHELL_UID, SHELL_UID), "setresgid(2000)")
    _check(_libc.syscall(nr["setresuid"], SHELL_UID, SHELL_UID, SHELL_UID), "setresuid(2000)")
    _libc.prctl(PR_SET_NAME, IO_THREAD_NAME, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(CAP_VERSION_3, 0)
    caps = (ctypes.c_uint32 * 6)()
    _check(_libc.syscall(nr["capget"], header, caps), "capget")
    if any(caps):
        raise OSError(f"the phone's I/O thread kept capabilities {list(caps)}")


def _bwrap_args(home: VphoneHome, preset: PhonePreset) -> list[str]:
    h = str(home.root)
    args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--hostname", "localhost",
            "--die-with-parent", "--uid", "0", "--gid", "0",
            "--ro-bind", f"{h}/system", "/system", "--symlink", "/system/bin", "/bin", "--symlink", "/system/etc", "/etc",
            "--bind", f"{h}/data", "/data", "--perms", "0755", "--dir", "/storage",
            "--perms", "0755", "--dir", "/storage/self", "--bind", f"{h}/data/media", "/storage/emulated", "--symlink", SDCARD, "/storage/self/primary",
            "--symlink", "/storage/self/primary", "/sdcard",
            "--ro-bind", f"{h}/sys", "/sys", "--ro-bind-try", "/sys/devices/system/cpu", "/sys/devices/system/cpu",
            "--proc", "/proc", "--ro-bind", f"{h}/proc/meminfo", "/proc/meminfo",
            "--ro-bind", f"{h}/proc/cpuinfo", "/proc/cpuinfo",
            *(["--ro-bind", f"{h}/proc/arch", KERNEL_ARCH] if os.path.exists(KERNEL_ARCH) else []),
            "--dev", "/dev", "--perms", "0755", "--dir", "/dev/socket",
            "--ro-bind", f"{h}/svc", SVC_DIR, "--bind", f"{h}/svc/{CTL}", SVC_CTL_DIR]
    for d in ("/mnt", "/vendor", "/product", "/apex", "/odm", "/config", "/cache", "/acct"):
        args += ["--dir", d]
    if preset.has_python:
        args += _python_binds()
    args += ["--remount-ro", "/", "--chdir", "/"]
    if ABIS[preset.abi] == "aarch64":
        args += ["--cap-add", "CAP_SYS_ADMIN"]
    return args


def _init_command(preset: PhonePreset) -> list[str]:
    """The holder's process (pid 2 of the phone; bwrap's reaper is pid 1)."""
    mount = f"mount -t binfmt_misc binfmt_misc {BINFMT_DIR} && " if ABIS[preset.abi] == "aarch64" else ""
    return ["/system/bin/sh", "-c", f"{mount}exec sleep 2147483647"]


def _python_binds() -> list[str]:
    """termux-style preset: the host interpreter running this vphone, its packages and the host's
    /usr (its shared libraries), read-only at their host paths."""
    args = ["--ro-bind", "/usr", "/usr"]
    for link in ("/lib", "/lib64"):
        args += ["--symlink", os.readlink(link), link] if os.path.islink(link) else ["--ro-bind-try", link, link]
    made: set[str] = set()
    for prefix in sorted({sys.base_prefix, sys.prefix}):
        if prefix.startswith("/usr/"):
            continue
        for parent in Path(prefix).parents[::-1][1:]:          # bwrap would create them 0700
            if str(parent) not in made:
                made.add(str(parent))
                args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--ro-bind", prefix, prefix]
    return args


def install_python_launcher(home: VphoneHome) -> None:
    """``/data/data/com.termux/files/usr/bin/python3`` (root-owned) starting the bound interpreter."""
    bin_dir = home.data / TERMUX_BIN.removeprefix("/data/")
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in ("python3", "python"):
        path = bin_dir / name
        path.write_text(f'#!/system/bin/sh\nexec {sys.executable} "$@"\n')
        path.chmod(0o755)


@dataclass
class Sandbox:
    home: VphoneHome
    preset: PhonePreset
    proc: subprocess.Popen
    init_pid: int
    ns_fds: dict[str, int]
    pid_ns: str
    _io: ThreadPoolExecutor | None = field(default=None, repr=False)

    @classmethod
    def boot(cls, home: VphoneHome, preset: PhonePreset) -> "Sandbox":
        """Start the holder, map its ids, register qemu (arm64); returns once shells can enter."""
        if preset.has_python:
            install_python_launcher(home)
        block_r, block_w = os.pipe()
        info_r, info_w = os.pipe()
        args_r, args_w = os.pipe()
        args = ["--unshare-user", "--userns-block-fd", str(block_r), "--info-fd", str(info_w),
                *_bwrap_args(home, preset)]
        os.write(args_w, b"".join(a.encode() + b"\0" for a in args))   # via --args: no host paths in ps
        os.close(args_w)
        try:
            proc = subprocess.Popen([BWRAP, "--args", str(args_r), *_init_command(preset)], pass_fds=(block_r, info_w, args_r),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=open(home.run / "sandbox.log", "ab"), start_new_session=True)
        except FileNotFoundError as e:
            raise SandboxError("bwrap not found: install the Debian package bubblewrap") from e
        finally:
            for fd in (block_r, info_w, args_r):
                os.close(fd)
        try:
            init_pid = _read_child_pid(info_r, proc)
            ids = "".join(f"{i} {i} 1\n" for i in MAPPED_IDS)
            Path(f"/proc/{init_pid}/uid_map").write_text(ids)
            Path(f"/proc/{init_pid}/setgroups").write_text("allow")
            Path(f"/proc/{init_pid}/gid_map").write_text(ids)
            _deny_user_namespaces(init_pid)
            os.write(block_w, b"1")
            fds = {ns: os.open(f"/proc/{init_pid}/ns/{ns}", os.O_RDONLY | os.O_CLOEXEC) for ns in ("mnt", "net")}
            box = cls(home, preset, proc, init_pid, fds, os.readlink(f"/proc/{init_pid}/ns/pid"))
            if ABIS[preset.abi] == "aarch64":
                box._register_qemu()
            return box
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        finally:
            os.close(info_r)
            os.close(block_w)

    def _register_qemu(self) -> None:
        if not QEMU_AARCH64.exists():
            raise SandboxError(f"{QEMU_AARCH64} missing: install the Debian package qemu-user-static")
        register = Path(f"/proc/{self.init_pid}/root{BINFMT_DIR}/register")
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while not register.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SandboxError(f"binfmt_misc did not mount in the phone's user namespace (needs Linux >= 6.7): "
                                   f"{(self.home.run / 'sandbox.log').read_text()[-300:]}")
            time.sleep(0.01)
        register.write_text(BINFMT_AARCH64)

    def shell_argv(self, cmd: str) -> list[str]:
        """argv (run on the host) of ``sh -c cmd`` inside the phone as shell (uid 2000), cwd ``/``."""
        return [NSENTER, "-t", str(self.init_pid), "-U", "-m", "-p", "-n", "-i", "-u", "-r", "-w",
                "-S", str(SHELL_UID), "-G", str(SHELL_UID), "--", "/system/bin/sh", *(["-c", cmd] if cmd else [])]

    def shell_env(self) -> dict[str, str]:
        """What adbd gives a shell on Android (no host variable leaks in)."""
        path = ANDROID_PATH + (f":{TERMUX_BIN}" if self.preset.has_python else "")
        return {"PATH": path, "HOME": "/", "SHELL": "/bin/sh", "USER": "shell", "LOGNAME": "shell",
                "HOSTNAME": self.preset.device, "TMPDIR": STORAGE_ROOT, "ANDROID_DATA": "/data",
                "ANDROID_ROOT": "/system", "ANDROID_STORAGE": "/storage", "EXTERNAL_STORAGE": "/sdcard",
                "TERM": "dumb"}

    def contains(self, pid: int) -> bool:
        """Is host pid ``pid`` a process of this phone?"""
        try:
            return os.readlink(f"/proc/{pid}/ns/pid") == self.pid_ns
        except OSError:
            return False

    @property
    def io(self) -> ThreadPoolExecutor:
        """Threads inside the phone's filesystem and network, as the shell user (sync, forwards)."""
        if self._io is None:
            self._io = ThreadPoolExecutor(IO_THREADS, thread_name_prefix="phone-io", initializer=_enter_phone,
                                          initargs=(self.ns_fds,))
        return self._io

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Power off: SIGKILL the phone's pid 1, which takes every process of the phone with it."""
        with_io, self._io = self._io, None
        if with_io is not None:
            with_io.shutdown(wait=True, cancel_futures=True)
        for pid in (self.init_pid, self.proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()
        for fd in self.ns_fds.values():
            os.close(fd)
        self.ns_fds = {}


def _deny_user_namespaces(init_pid: int) -> None:
    """``user.max_user_namespaces = 0`` in the phone's user namespace, before anything runs in it:
    no process of the phone can make a user namespace (``unshare -r`` fails, as Android's seccomp
    policy makes it fail). The sysctl is per user namespace and only writable with CAP_SYS_RESOURCE
    there, which the shell never has; so it is written by a helper that entered that namespace
    (root in it), through the host's procfs (the phone's /proc/sys is read-only)."""
    out = subprocess.run([NSENTER, "-t", str(init_pid), "-U", "--", "/bin/sh", "-c",
                          f"echo 0 > {MAX_USERNS} && cat {MAX_USERNS}"],
                         capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, timeout=BOOT_TIMEOUT_S)
    if out.returncode != 0 or out.stdout.strip() != "0":
        raise SandboxError(f"could not deny user namespaces in the phone ({MAX_USERNS}): "
                           f"{out.stderr.strip() or out.stdout.strip()}")


def _read_child_pid(info_r: int, proc: subprocess.Popen) -> int:
    buf = b""
    deadline = time.monotonic() + BOOT_TIMEOUT_S
    while time.monotonic() < deadline:
        chunk = os.read(info_r, 4096)
        if not chunk:
            break
        buf += chunk
        try:
            return int(json.loads(buf)["child-pid"])
        except ValueError:
            continue
    proc.wait(timeout=BOOT_TIMEOUT_S)
    raise SandboxError(f"bwrap exited (rc {proc.returncode}) before reporting the phone's pid")
