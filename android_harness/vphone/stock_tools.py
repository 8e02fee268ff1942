"""The commands a stock user build has that researchers' tools call: ``log``, ``logcat``, ``getprop``,
``setprop``, ``settings``, ``am``, ``service``, ``input``, ``bugreport`` and ``bugreportz``, as mksh
scripts in the phone's ``/system/bin``.

They are clients of the phone's system daemons (system_services.py) over toybox ``nc -U`` on
``/dev/socket``: ``logdw``/``logdr`` (logd), ``property_service`` (properties and settings) and
``dumpstate`` (which zips the report ``bugreportz`` gathers here, as the shell user). ``am``,
``service`` and ``input`` answer as a user build without apps or a display does: nothing to start,
no binder to call, input events logged to logcat with nowhere to go. Every service reply starts
with a status line; ``ask`` turns it into the exit code and stderr, as the real commands report.
"""
from __future__ import annotations

ASK = r"""ask() {   # ask SOCKET < request: the daemon's reply on stdout, its refusal on stderr (exit 1)
  /system/bin/toybox nc -U "/dev/socket/$1" | {
    IFS= read -r st || { echo "${0##*/}: /dev/socket/$1: no answer" >&2; exit 1; }
    case $st in 0) exec cat ;; *) echo "${st#1 }" >&2; exit 1 ;; esac; }
}
"""

LOG = r"""#!/system/bin/sh
# log [-b BUFFER] [-p PRIORITY] [-t TAG] [MESSAGE...] -- one logd entry (each stdin line one, with no MESSAGE)
@ASK@
usage() { echo "usage: log [-b BUFFER] [-p PRI] [-t TAG] [MESSAGE...]" >&2; exit 1; }
b=main p=4 t=log
while [ $# -gt 0 ]; do
  case $1 in
    -b) [ $# -ge 2 ] || usage; b=$2; shift 2 ;;
    -p) [ $# -ge 2 ] || usage
        case $2 in v|V) p=2 ;; d|D) p=3 ;; i|I) p=4 ;; w|W) p=5 ;; e|E) p=6 ;; f|F|a|A) p=7 ;;
          *) echo "log: bad -p '$2'" >&2; exit 1 ;; esac; shift 2 ;;
    -t) [ $# -ge 2 ] || usage; t=$2; shift 2 ;;
    --) shift; break ;;
    -?*) usage ;;
    *) break ;;
  esac
done
if [ $# -gt 0 ]; then
  printf '%s\0' $$ "$b" "$p" "$t" "$*" | ask logdw
else
  while IFS= read -r line; do printf '%s\0' $$ "$b" "$p" "$t" "$line" | ask logdw || exit 1; done
fi
"""

LOGCAT = r"""#!/system/bin/sh
# logcat [OPTIONS] [TAG:PRIORITY...] -- logd's buffers (-c -d -g -b -v -s -t -T -e -m --pid), from /dev/socket/logdr
@ASK@
printf '%s\0' "${ANDROID_LOG_TAGS-}" "$@" | ask logdr
"""

GETPROP = r"""#!/system/bin/sh
# getprop [NAME [DEFAULT]] -- the properties init publishes in /dev/__properties__
L=/dev/__properties__/props
[ $# -eq 0 ] && exec cat "$L"
while IFS= read -r line; do
  case $line in
    "[$1]: ["*) v=${line#"[$1]: ["}; echo "${v%]}"; exit 0 ;;
  esac
done < "$L"
echo "${2-}"
"""

SETPROP = r"""#!/system/bin/sh
# setprop NAME VALUE -- through init's property service (the shell may set debug.*, log.tag.* ...)
@ASK@
if [ $# -ne 2 ]; then echo "usage: setprop NAME VALUE" >&2; echo "setprop: Needs 2 arguments" >&2; exit 1; fi
printf '%s\0' setprop "$1" "$2" | ask property_service
"""

SETTINGS = r"""#!/system/bin/sh
# settings [--user 0|current] get|put|delete|list NAMESPACE [KEY [VALUE]] -- the settings provider
@ASK@
usage() {
  cat >&2 <<EOF
Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
  delete [--user <USER_ID> | current] NAMESPACE KEY
      Delete the entry for KEY.
  list [--user <USER_ID> | current] NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
EOF
  exit 1
}
set -A args
while [ $# -gt 0 ]; do
  case $1 in
    --user) case $2 in 0|current|cur) shift 2 ;; *) echo "Invalid user: $2" >&2; exit 1 ;; esac ;;
    *) args[${#args[@]}]=$1; shift ;;
  esac
done
set -- "${args[@]}"
case $1 in help|-h|"") usage ;; esac
ns=$(echo "${2-}" | tr A-Z a-z)
case $1:$# in
  get:3|delete:3|list:2) ;;
  put:4|put:5|put:6) set -- put "$2" "$3" "$4" ;;
  *) usage ;;
esac
op=$1; shift; shift
printf '%s\0' settings "$op" "$ns" "$@" | ask property_service
"""

AM = r"""#!/system/bin/sh
# am COMMAND ... -- the activity manager of a user build with no apps installed
usage() { echo "Activity manager (activity) commands:"; echo "  start [-W] [-n COMPONENT] [-a ACTION] [-d DATA] ..."
  echo "  startservice ... | broadcast ... | force-stop PACKAGE | kill PACKAGE | kill-all"
  echo "  instrument [-r] [-w] [-e NAME VALUE] COMPONENT | get-current-user"; }
intent() {   # Intent { ... } of the am intent arguments
  act= dat= cmp= cat= flg=
  while [ $# -gt 0 ]; do
    case $1 in
      -a) act=$2; shift 2 ;; -d) dat=$2; shift 2 ;; -n) cmp=$2; shift 2 ;; -c) cat=$2; shift 2 ;;
      -f) flg=$2; shift 2 ;; -e|--es|--ei|--ez|--el|--ef|--eu) shift 3 ;;
      -W|-S|-R|-P|--user|--display) case $1 in -R|-P|--user|--display) shift ;; esac; shift ;;
      -*) shift ;;
      *) [ -z "$cmp$act" ] && case $1 in */*) cmp=$1 ;; *) act=$1 ;; esac; shift ;;
    esac
  done
  s="Intent {"
  [ -n "$act" ] && s="$s act=$act"; [ -n "$cat" ] && s="$s cat=[$cat]"; [ -n "$dat" ] && s="$s dat=$dat"
  [ -n "$flg" ] && s="$s flg=$flg"; [ -n "$cmp" ] && s="$s cmp=$cmp"
  echo "$s }"
}
case $1 in
  ""|help|-h) usage ;;
  get-current-user) echo 0 ;;
  start|start-activity)
    shift; i=$(intent "$@"); echo "Starting: $i"
    log -p w -t ActivityTaskManager "START u0 {${i#Intent \{}: no activity installed to handle it"
    case $i in
      *cmp=*) c=${i##*cmp=}; c=${c% \}}; p=${c%%/*}; k=${c#*/}; case $k in .*) k=$p$k ;; esac
              echo "Error type 3" >&2; echo "Error: Activity class {$p/$k} does not exist." >&2 ;;
      *) echo "Error: Activity not started, unable to resolve $i" >&2 ;;
    esac
    exit 1 ;;
  startservice|start-service|start-foreground-service)
    shift; i=$(intent "$@"); echo "Starting service: $i"; echo "Error: Not found; no service started." >&2; exit 1 ;;
  broadcast)
    shift; i=$(intent "$@"); echo "Broadcasting: ${i% \}} flg=0x400000 }"
    log -t ActivityManager "Broadcast ${i#Intent }: no receivers"; echo "Broadcast completed: result=0" ;;
  force-stop|kill)
    [ -n "$2" ] || { echo "Error: no package specified" >&2; exit 1; }
    [ "$1" = force-stop ] && log -t ActivityManager "Force stopping $2 appid=-1 user=0: from pid $$"
    exit 0 ;;
  kill-all) exit 0 ;;
  instrument)
    shift; while [ $# -gt 1 ]; do case $1 in -e) shift 3 ;; *) shift ;; esac; done
    echo "INSTRUMENTATION_STATUS: id=ActivityManagerService"
    echo "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{$1}"
    echo "INSTRUMENTATION_STATUS_CODE: -1"
    echo "android.util.AndroidException: INSTRUMENTATION_FAILED: $1"
    exit 1 ;;
  *) echo "Unknown command: $1" >&2; exit 255 ;;
esac
"""

SERVICE = r"""#!/system/bin/sh
# service list | check NAME | call NAME CODE ... -- the service manager's view of this phone
names() {
  echo "activity: [android.app.IActivityManager]"
  echo "battery: []"
  echo "batteryproperties: [android.os.IBatteryPropertiesRegistrar]"
  echo "input: [android.hardware.input.IInputManager]"
  echo "package: [android.content.pm.IPackageManager]"
  echo "settings: []"
  dumpsys -l | grep -q "IPowerStats/default" && echo "android.hardware.power.stats.IPowerStats/default: [android.hardware.power.stats.IPowerStats]"
}
case $1 in
  list) n=$(names | wc -l); echo "Found $n services:"; names | awk '{ print NR - 1 "\t" $0 }' ;;
  check) [ -n "$2" ] || { echo "service: No service specified" >&2; exit 1; }
    if names | grep -q "^$2: "; then echo "Service $2: found"; else echo "Service $2: not found"; fi ;;
  call) if names | grep -q "^${2-}: "; then
          echo "service: $2: transactions need the binder driver, which the edgecl virtual phone does not have" >&2
        else echo "service: Service ${2-} does not exist" >&2; fi
        exit 1 ;;
  *) echo "usage: service [-h|-?]"; echo "       service list"; echo "       service check SERVICE"
     echo "       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null | fd f] ..."
     [ "$1" = -h ] || [ "$1" = "-?" ] || exit 1 ;;
esac
"""

INPUT = r"""#!/system/bin/sh
# input [SOURCE] [-d DISPLAY] COMMAND ARGS -- checked and logged to logcat (tag Input); the phone has
# no display, so no window receives the events
usage() {
  echo "Error: $*" >&2
  echo "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]" >&2
  echo "The commands are: text <string>, keyevent [--longpress|--doubletap] <key code number or name> ...," >&2
  echo "  tap <x> <y>, swipe <x1> <y1> <x2> <y2> [duration(ms)], draganddrop <x1> <y1> <x2> <y2> [duration(ms)]," >&2
  echo "  press, roll <dx> <dy>, motionevent <DOWN|UP|MOVE|CANCEL> <x> <y>, keycombination <key codes...>" >&2
  exit 1
}
num() { for v in "$@"; do case $v in ''|*[!0-9.-]*) usage "not a number: '$v'" ;; esac; done; }
case $1 in
  keyboard|mouse|joystick|touchnavigation|touchpad|trackball|dpad|stylus|gamepad|touchscreen|rotaryencoder) src=$1; shift ;;
  *) src=default ;;
esac
[ "$1" = -d ] && { num "$2"; shift 2; }
cmd=$1
[ $# -gt 0 ] && shift
case $cmd in
  text) [ $# -ge 1 ] || usage "text needs a string" ;;
  keyevent|keycombination)
    [ "$1" = --longpress ] || [ "$1" = --doubletap ] && shift
    [ $# -ge 1 ] || usage "$cmd needs key codes"
    for k in "$@"; do case $k in ''|*[!A-Z0-9_]*) usage "bad key code '$k'" ;; esac; done ;;
  tap) [ $# -eq 2 ] || usage "tap needs <x> <y>"; num "$@" ;;
  swipe|draganddrop) [ $# -eq 4 ] || [ $# -eq 5 ] || usage "$cmd needs 4 or 5 numbers"; num "$@" ;;
  roll) [ $# -eq 2 ] || usage "roll needs <dx> <dy>"; num "$@" ;;
  press) [ $# -eq 0 ] || usage "press takes no arguments" ;;
  motionevent) case $1 in DOWN|UP|MOVE|CANCEL) ;; *) usage "motionevent needs DOWN|UP|MOVE|CANCEL" ;; esac
    [ $# -eq 3 ] || usage "motionevent needs <x> <y>"; shift; num "$@" ;;
  "") usage "no command" ;;
  *) usage "Unknown command: $cmd" ;;
esac
log -t Input "injected $src $cmd $*: no display, nothing received it"
"""

BUGREPORTZ = r"""#!/system/bin/sh
# bugreportz [-h|-p|-s|-v] -- dumpstate's report (build, uptime, memory, processes, disk, properties,
# settings, logs, dumpsys) zipped by /dev/socket/dumpstate; prints OK:<path> (with -p: BEGIN, PROGRESS)
@ASK@
usage() { echo "usage: bugreportz [-hpsv]" >&2; echo "  -h: to display this help message" >&2
  echo "  -p: display progress" >&2; echo "  -s: stream content to standard output" >&2
  echo "  -v: to display the version" >&2; echo "  or no arguments to generate a zipped bugreport" >&2; }
progress=0 stream=0
case $1 in
  -v) echo 1.2 >&2; exit 0 ;; -h) usage; exit 0 ;; -p) progress=1 ;; -s) stream=1 ;; "") ;; *) usage; exit 1 ;;
esac
dir=/data/user_de/0/com.android.shell/files/bugreports
name=bugreport-$(getprop ro.product.device)-$(getprop ro.build.id)-$(date +%Y-%m-%d-%H-%M-%S)
out=$dir/$name.zip
mkdir -p "$dir" || { echo "FAIL:could not create $dir"; exit 1; }
[ $progress = 1 ] && echo "BEGIN:$out"
exec 3>&1
n=12 i=0
section() { echo "------ $1 ($2) ------"; sh -c "$2" 2>&1; echo; i=$((i + 1)); [ $progress = 1 ] && echo "PROGRESS:$i/$n" >&3; }
report() {
  echo "========================================================"
  echo "== dumpstate: $(date '+%Y-%m-%d %H:%M:%S')"
  echo "========================================================"
  echo
  echo "Build: $(getprop ro.build.id)"
  echo "Build fingerprint: '$(getprop ro.build.fingerprint)'"
  echo "Kernel: $(uname -a)"
  echo "Uptime: $(uptime)"
  echo "Bugreport format version: 2.0"
  echo "Dumpstate info: pid=$$ args=$*"
  echo
  section UPTIME uptime
  section "MEMORY INFO" "cat /proc/meminfo"
  section "CPU INFO" "cat /proc/cpuinfo"
  section "PROCESSES AND THREADS" "ps -A -T"
  section "DISK USAGE" "df"
  section "SYSTEM PROPERTIES" getprop
  section "SETTINGS" "settings list global; settings list secure; settings list system"
  section "SYSTEM LOG" "logcat -v threadtime -v printable -v uid -d '*:v'"
  section "EVENT LOG" "logcat -b events -v threadtime -v printable -v uid -d '*:v'"
  section "KERNEL LOG" "logcat -b kernel -v threadtime -d '*:v'"
  section "DUMPSYS battery" "dumpsys battery"
  section "SERVICES" "service list"
}
if [ $stream = 1 ]; then { printf 'zip\0%s\0' "$name"; report; } | ask dumpstate; exit; fi
if { printf 'zip\0%s\0' "$name"; report; } | ask dumpstate > "$out.tmp" && [ -s "$out.tmp" ]; then
  mv -f "$out.tmp" "$out" && echo "OK:$out" && exit 0
fi
rm -f "$out.tmp"
echo "FAIL:dumpstate could not write $out"
exit 1
"""

BUGREPORT = r"""#!/system/bin/sh
# bugreport -- flat (text) bug reports are gone since Android 12: says so and points at bugreportz
{
echo "============================================================================="
echo "WARNING: Flat (text file, non-zipped) bugreports are deprecated."
echo "WARNING: Please generate zipped bugreports instead."
echo "WARNING: On the host use: adb bugreport filename.zip"
echo "WARNING: On the device use: bugreportz"
echo "WARNING: bugreportz will output the filename to use with adb pull."
echo "============================================================================="
echo
} >&2
"""

STOCK_TOOLS: dict[str, str] = {name: text.replace("@ASK@", ASK) for name, text in (
    ("log", LOG), ("logcat", LOGCAT), ("getprop", GETPROP), ("setprop", SETPROP), ("settings", SETTINGS),
    ("am", AM), ("service", SERVICE), ("input", INPUT), ("bugreportz", BUGREPORTZ), ("bugreport", BUGREPORT))}
