"""The Android commands of a vphone's ``/system/bin`` that toybox does not have: ``dumpsys``,
``cmd``, ``pm`` and ``reboot``, as mksh scripts using only shell builtins, toybox and
(for the PowerStats ``delta`` form) awk; ``sha256sum`` over OpenSSL's hardware SHA-256 (rootfs.py
says why); and, on a preset whose ABI is not the host's, ``uname``/``arch`` naming the phone's machine.

They talk to the vphone process through ``/dev/socket/edgecl_vphone`` (svc_channel.py): read-only
to them, ``ipowerstats.txt`` (the PowerStats HAL dump the power model rewrites every tick, only on
a phone with ODPM rails, under a first line saying when its accumulators were read) and ``powerctl``
(a FIFO: ``reboot`` writes to it, as init's sys.powerctl); in its ``ctl/`` drop folder, which the
shell writes, ``battery_ctl`` (what ``dumpsys battery unplug|set|reset`` changed; the power model
reads it) and ``ipowerstats.prev`` (the previous ``delta`` dump's snapshot, as the HAL keeps it).
The battery commands do what Android's BatteryService shell commands do.
"""
from __future__ import annotations

from android_harness.vphone.svc_channel import CTL

SVC_DIR = "/dev/socket/edgecl_vphone"
SVC_CTL_DIR = f"{SVC_DIR}/{CTL}"       # the scripts' $SVC/ctl
POWER_STATS_SERVICE = "android.hardware.power.stats.IPowerStats/default"
NO_PACKAGE_MANAGER = ("Failure [INSTALL_FAILED_INTERNAL_ERROR: the edgecl virtual phone has no package manager; "
                      "APKs cannot be installed (push a native binary to /data/local/tmp instead)]")

DUMPSYS = r"""#!/system/bin/sh
# dumpsys battery [unplug|reset|set KEY VALUE|get KEY] | dumpsys -l | dumpsys SERVICE [delta]  (edgecl vphone)
SVC=@SVC@
DROP=$SVC/ctl
PS=/sys/class/power_supply/battery
CTL=$DROP/battery_ctl
KEYS="ac usb wireless status level temp present counter invalid"
rd() { v=; read -r v < "$PS/$1" 2>/dev/null; echo "${v:-$2}"; }
tf() { if [ "${1:-0}" != 0 ]; then echo true; else echo false; fi; }
load_ctl() {
  C_unplugged=; C_ac=; C_usb=; C_wireless=; C_status=; C_level=; C_temp=; C_present=; C_counter=; C_invalid=
  FROZEN=0
  [ -s "$CTL" ] || return 0
  FROZEN=1
  while IFS='=' read -r k v; do
    case " unplugged $KEYS " in *" $k "*) eval "C_$k=\$v" ;; esac
  done < "$CTL"
}
put() {
  t=$CTL.$$
  { [ -r "$CTL" ] && grep -v "^$1=" "$CTL"; echo "$1=$2"; } > "$t" && mv -f "$t" "$CTL"
}
state() {
  load_ctl
  usb=$C_usb
  if [ -z "$usb" ]; then if [ "$C_unplugged" = 1 ]; then usb=0; else usb=1; fi; fi
  st=$C_status
  if [ -z "$st" ]; then
    case $(rd status Unknown) in
      Charging) st=2 ;; Discharging) st=3 ;; "Not charging") st=4 ;; Full) st=5 ;; *) st=1 ;;
    esac
  fi
  echo "Current Battery Service state:"
  [ "$FROZEN" = 1 ] && echo "  (UPDATES STOPPED -- use 'reset' to restart)"
  echo "  AC powered: $(tf "$C_ac")"
  echo "  USB powered: $(tf "$usb")"
  echo "  Wireless powered: $(tf "$C_wireless")"
  echo "  Dock powered: false"
  echo "  Max charging current: 3000000"
  echo "  Max charging voltage: 5000000"
  echo "  Charge counter: ${C_counter:-$(rd charge_counter 0)}"
  echo "  status: $st"
  echo "  health: 2"
  echo "  present: $(tf "${C_present:-1}")"
  echo "  level: ${C_level:-$(rd capacity 0)}"
  echo "  scale: 100"
  echo "  voltage: $(( $(rd voltage_now 0) / 1000 ))"
  echo "  temperature: ${C_temp:-$(rd temp 0)}"
  echo "  technology: Li-ion"
  echo "  edgecl vphone: simulated"
}
battery() {
  [ "$1" = -f ] && shift
  case $1 in
    "") state ;;
    unplug) put unplugged 1 ;;
    reset) rm -f "$CTL" ;;
    set)
      case " $KEYS " in *" $2 "*) ;; *) echo "Unknown set option: $2" >&2; exit 255 ;; esac
      case $3 in ''|*[!0-9-]*) echo "Bad value: $3" >&2; exit 255 ;; esac
      put "$2" "$3" ;;
    get)
      case $2 in
        level) rd capacity 0 ;; counter) rd charge_counter 0 ;; temp) rd temp 0 ;;
        current_now) rd current_now 0 ;; voltage) rd voltage_now 0 ;;
        *) echo "Unknown get option: $2" >&2; exit 255 ;;
      esac ;;
    *) echo "Unknown battery command: $*" >&2; exit 255 ;;
  esac
}
pstats_delta() {
  # the Pixel HAL's "delta" form: elapsed time and each rail's energy since the previous delta dump
  # (the first one: since boot, deltas 0), from the accumulators as the power model last read them
  snap=$DROP/ipowerstats.$$
  prev=$DROP/ipowerstats.prev
  cp "$SVC/ipowerstats.txt" "$snap" || exit 1
  [ -r "$prev" ] || prev=/dev/null
  awk -v P="$prev" '
    FILENAME == P { if (FNR == 1) pt = $0; else if ($1 ~ /^\[/) pe[$1] = $2; next }
    FNR == 1 { ct = $0; sub(/.*t_ms=/, "", ct); sub(/.*t_ms=/, "", pt); el = ct - pt; next }
    /^=+ PowerStats HAL 2.0 (state residencies|energy meter) =+$/ { print; print "Elapsed time: " el " ms"; next }
    /^ +Entity +State +Total time/ {
      print "            Entity                State         Total time (         Delta   )     Total entries (         Delta   )   Last entry tstamp (        Delta )"; next }
    /^ +Channel +Cumulative Energy/ { printf "%34s    Cumulative Energy (      Delta   )\n", "Channel"; next }
    $1 ~ /^\[/ && $3 == "mWs" { printf "%s (%14.2f)\n", $0, ($1 in pe) ? $2 - pe[$1] : 0; next }
    { print }' "$prev" "$snap"
  mv -f "$snap" "$DROP/ipowerstats.prev"
}
case $1 in
  battery) shift; battery "$@" ;;
  -l) echo "Currently running services:"; echo "  battery"
      [ -r "$SVC/ipowerstats.txt" ] && echo "  @PSTATS@" ;;
  @PSTATS@)
    if [ ! -r "$SVC/ipowerstats.txt" ]; then echo "Can't find service: $1" >&2
    elif [ "$2" = delta ] && [ $# -eq 2 ]; then pstats_delta
    else tail -n +2 "$SVC/ipowerstats.txt"; fi ;;
  "") echo "usage: dumpsys [-l] [battery [unplug|reset|set KEY VALUE|get KEY]] [SERVICE]  (edgecl vphone)" ;;
  *) echo "Can't find service: $1" >&2 ;;
esac
"""

CMD = r"""#!/system/bin/sh
# cmd SERVICE ... -- edgecl vphone: battery (as dumpsys battery); settings, activity (am), input; package fails (no package manager)
case $1 in
  battery) shift; exec /system/bin/dumpsys battery "$@" ;;
  package) shift; exec /system/bin/pm "$@" ;;
  settings|activity|input) s=$1; shift; case $s in activity) s=am ;; esac; exec "/system/bin/$s" "$@" ;;
  "") echo "cmd: no service specified" >&2; exit 20 ;;
  *) echo "cmd: Can't find service: $1" >&2; exit 20 ;;
esac
"""

PM = r"""#!/system/bin/sh
# pm / cmd package -- the edgecl vphone has no package manager; an install consumes the streamed APK
# (adb install sends it on stdin after "-S SIZE") and fails with the reason.
size=
prev=
for a in "$@"; do [ "$prev" = -S ] && size=$a; prev=$a; done
case $1 in
  install|install-create|install-write|install-commit)
    [ -n "$size" ] && head -c "$size" > /dev/null
    echo "@NOPM@"
    exit 1 ;;
esac
echo "pm: the edgecl virtual phone has no package manager" >&2
exit 1
"""

REBOOT = r"""#!/system/bin/sh
# reboot [-p] [REASON] -- asks the vphone to restart the phone (init's sys.powerctl); this shell dies with it
echo "reboot,$*" > @SVC@/powerctl || exit 1
sleep 30
echo "reboot: the phone did not go down" >&2
exit 1
"""


SHA256SUM = r"""#!/system/bin/sh
# sha256sum [-b|-t] [FILE...] -- toybox's output ("HASH  NAME", errors "sha256sum: NAME: ...", exit 1)
# over OpenSSL's SHA-256 (hardware SHA, as Android's toybox gets from BoringSSL): one OpenSSL process
# hashes all the files, as toybox is one process; one process per file only if that fails (read error)
rc=0
opts=1
n=$#
while [ "$n" -gt 0 ]; do
  a=$1; shift; n=$((n - 1))
  case $opts$a in
    1-b|1-t) continue ;;
    1--) opts=0; continue ;;
    ?-) set -- "$@" - ;;
    1-*) echo "sha256sum: unknown option $a" >&2; exit 1 ;;
    *) if [ -d "$a" ]; then echo "sha256sum: $a: Is a directory" >&2; rc=1
       elif [ -r "$a" ]; then set -- "$@" "$a"
       elif [ -e "$a" ]; then echo "sha256sum: $a: Permission denied" >&2; rc=1
       else echo "sha256sum: $a: No such file or directory" >&2; rc=1; fi ;;
  esac
done
[ $# -eq 0 ] && [ $rc -ne 0 ] && exit $rc
[ $# -eq 0 ] && set -- -
set -A names -- "$@"
set -A args
i=0
for f in "$@"; do
  case $f in -) i=-1; break ;; -*) args[i]=./$f ;; *) args[i]=$f ;; esac   # stdin: one by one below
  i=$((i + 1))
done
if [ $i -eq $# ] && out=$(/system/libexec/sha256 -r "${args[@]}" 2>/dev/null); then
  i=0
  set -A hashes
  while IFS= read -r line; do hashes[i]=${line%% *}; i=$((i + 1)); done <<EOF
$out
EOF
  if [ $i -eq $# ]; then          # one line per file (a name with a newline in it takes the slow path)
    i=0
    while [ $i -lt $# ]; do echo "${hashes[i]}  ${names[i]}"; i=$((i + 1)); done
    exit $rc
  fi
fi
for f in "$@"; do
  case $f in -) set -- ;; -*) set -- "./$f" ;; *) set -- "$f" ;; esac   # OpenSSL's "sha256" command
  h=$(/system/libexec/sha256 -r "$@" 2>/dev/null) || { echo "sha256sum: $f: read error" >&2; rc=1; continue; }
  echo "${h%% *}  $f"
done
exit $rc
"""


UNAME = r"""#!/system/bin/sh
# uname [-asnrvmpo] / arch -- @MULTI@'s, with the phone's machine (@MACHINE@) where the host
# kernel under the vphone names its own: the phone's commands are host builds, the kernel is the host's
host=$(/system/bin/@MULTI@ uname -m) || exit 1
case ${0##*/} in arch) out=$host ;; *) out=$(/system/bin/@MULTI@ uname "$@") || exit $? ;; esac
echo "${out//$host/@MACHINE@}"
"""


def machine_tools(multicall: str, machine: str) -> dict[str, str]:
    """``uname`` and ``arch`` of a phone whose ABI is not the host's: they print ``machine``
    (``aarch64`` on an arm64 preset), as the phone's kernel would."""
    text = UNAME.replace("@MULTI@", multicall).replace("@MACHINE@", machine)
    return {"uname": text, "arch": text}


def _fill(text: str) -> str:
    return text.replace("@SVC@", SVC_DIR).replace("@PSTATS@", POWER_STATS_SERVICE).replace("@NOPM@", NO_PACKAGE_MANAGER)


TOOLS: dict[str, str] = {name: _fill(text) for name, text in
                         (("dumpsys", DUMPSYS), ("cmd", CMD), ("pm", PM), ("reboot", REBOOT),
                          ("sha256sum", SHA256SUM))}
