#!/bin/sh
# The kit tried as a Pi runs it: systemd starting wuzi-host.service in an emulated arm64
# Bookworm image, with the deploy/ files as the bundle's install.sh installed them, serving
# a table whose board and clock unit are simulated outside the image (docs/install.md,
# "How the kit was tried").
#
#   sudo scripts/kit-arm64-systemd.sh ROOT [BUNDLE.tar.gz]
#
#   ROOT     an arm64 Debian 12 root; made with `debootstrap --arch=arm64 --variant=minbase
#            bookworm` when it does not exist. It is changed (systemd, the kit, a venue file):
#            give it a copy of a root you want to keep.
#   BUNDLE   the bundle to install (default build/wuzi-bundle.tar.gz: `make bundle`)
#   PORT=18934   the image's Mosquitto (the image shares this machine's network)
#   LOGS=ROOT.logs   where the evidence goes (boot console, status, journal, broker)
#
# Needs, on this (x86) machine: root, debootstrap, qemu-user-static with binfmt_misc
# (qemu-aarch64), systemd-nspawn (Debian: systemd-container), the checkout's .venv (`make
# setup`: the simulated devices and the driver, scripts/kit_arm64_table.py) and the Debian
# archive (apt in the image: systemd, and system-deps.txt's host and broker packages).
#
# What it does: apt-get installs systemd in the root (Raspberry Pi OS has it; a minbase root
# does not); unpacks the bundle and runs `ROLES=host,broker install.sh` in it (chroot under
# qemu-user); writes the venue file (table 1 on /dev/wuzi/board-1 and clock-1, a referee's
# token), names the machine pi-1 and `systemctl enable wuzi-host`; starts the simulated
# board and clock unit on ptys here and boots the image with `systemd-nspawn -b`, the two
# ptys bound in as /dev/wuzi/board-1 and /dev/wuzi/clock-1; the driver waits for the host
# online on the image's broker, assigns a game, starts it as the referee (next-game), plays
# h8 on the board, presses the clock and ends the game (a draw by agreement); after 25 s
# more of serving, `wuzi board flash /dev/wuzi/flash-1 --board sensor-rev-a` runs inside the
# image against a simulated MicroPython board (wuzi.sim.devices.micropython_board, a third pty
# of this machine; its files in LOGS/flash-1, compared with the installed kit's);
# `systemctl status wuzi-host`, the unit's journal, the game's record and `systemd-analyze
# verify` of the installed units are taken inside the image, and the image is powered off.
# Exit 0 when the host saw the move, the board was flashed and systemd never restarted it.
set -eu

[ "$(id -u)" -eq 0 ] || { echo "kit-arm64-systemd: run as root" >&2; exit 2; }
[ $# -ge 1 ] || { sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//; /^set -eu/d'; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
root=$(realpath -m "$1")
bundle=$(realpath "${2:-$repo/build/wuzi-bundle.tar.gz}")
port=${PORT:-18934}
logs=$(realpath -m "${LOGS:-$root.logs}")
python=$repo/.venv/bin/python
host_id=pi-1
venue_id=arm64-trial

[ -f "$bundle" ] || { echo "kit-arm64-systemd: no bundle $bundle (make bundle)" >&2; exit 2; }
[ -x "$python" ] || { echo "kit-arm64-systemd: no $python (make setup)" >&2; exit 2; }
command -v systemd-nspawn >/dev/null || {
    echo "kit-arm64-systemd: no systemd-nspawn (apt-get install systemd-container)" >&2; exit 2; }
binfmt=/proc/sys/fs/binfmt_misc/qemu-aarch64
[ -f "$binfmt" ] || {
    echo "kit-arm64-systemd: no $binfmt (apt-get install qemu-user-static binfmt-support)" >&2; exit 2; }
mkdir -p "$logs"

step_started=0
step() {  # the step's name, and the time the one before took
    now=$(date +%s)
    [ "$step_started" -eq 0 ] || echo "kit-arm64-systemd: ... $((now - step_started)) s"
    step_started=$now
    echo "kit-arm64-systemd: $(date -u +%H:%M:%S) $*"
}

# Run a command in the root under qemu-user, with its own /proc (apt's scripts want one);
# the mount is in a private namespace, so nothing is left mounted afterwards.
in_root() {
    unshare --mount --fork sh -c 'mount -t proc proc "$1/proc" && exec chroot "$@"' sh "$root" "$@"
}

if [ ! -d "$root" ]; then
    step "debootstrap --arch=arm64 --variant=minbase bookworm $root"
    debootstrap --arch=arm64 --variant=minbase bookworm "$root" http://deb.debian.org/debian \
        >"$logs/debootstrap.log" 2>&1
fi
# Without binfmt's F flag the kernel looks for qemu inside the root: put it there.
if ! grep -q '^flags:.*F' "$binfmt"; then
    interpreter=$(sed -n 's/^interpreter //p' "$binfmt")
    install -D "$(command -v qemu-aarch64-static)" "$root$interpreter"
fi
[ "$(in_root uname -m)" = aarch64 ] || { echo "kit-arm64-systemd: $root is not arm64" >&2; exit 1; }

step "apt-get install systemd in the image (Raspberry Pi OS has it; minbase has not)"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# no service started inside the chroot while packages install (there is no init to own it)
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends systemd systemd-sysv' >"$logs/apt-systemd.log" 2>&1

step "install.sh from the bundle, ROLES=host,broker (system-deps.txt through apt)"
rm -rf "$root/root/wuzi-bundle"
tar xzf "$bundle" -C "$root/root"
in_root sh -c 'cd /root && ROLES=host,broker sh wuzi-bundle/install.sh' >"$logs/install.log" 2>&1 \
    || { cat "$logs/install.log"; echo "kit-arm64-systemd: install.sh failed" >&2; exit 1; }
cat "$logs/install.log"
rm -f "$root/usr/sbin/policy-rc.d"

step "the venue: hostname $host_id, /etc/wuzi/venue.toml, a referee token, the broker on :$port"
echo "$host_id" >"$root/etc/hostname"
cat >"$root/etc/wuzi/venue.toml" <<EOF
# written by scripts/kit-arm64-systemd.sh: one table, its devices simulated outside the image
[venue]
id = "$venue_id"
name = "arm64 trial"
[broker]
url = "mqtt://127.0.0.1:$port"
[[hosts]]
id = "$host_id"
  [[hosts.tables]]
  number = 1
  board_port = "/dev/wuzi/board-1"
  clock_port = "/dev/wuzi/clock-1"
[[referees]]
name = "chief"
token_file = "secrets/chief.token"
EOF
chmod 0644 "$root/etc/wuzi/venue.toml"
install -d -m 0700 "$root/etc/wuzi/secrets"
od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$root/etc/wuzi/secrets/chief.token"
chmod 0600 "$root/etc/wuzi/secrets/chief.token"
in_root chown -R wuzi:wuzi /etc/wuzi/secrets
printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$port" >"$root/etc/mosquitto/conf.d/wuzi-trial.conf"
in_root systemctl enable wuzi-host mosquitto 2>&1
rm -rf "$root/var/lib/wuzi" "$root/var/lib/mosquitto/mosquitto.db"  # a clean table and broker

driver_pid="" nspawn_pid="" flash_board_pid=""
container_init() { pgrep -P "$nspawn_pid" | head -1; }
in_image() { nsenter -t "$(container_init)" -a "$@"; }
cleanup() {
    [ -z "$driver_pid" ] || kill "$driver_pid" 2>/dev/null || true
    [ -z "$flash_board_pid" ] || kill "$flash_board_pid" 2>/dev/null || true
    if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
        # Not SIGTERM to nspawn: qemu-user delivers its SIGRTMIN+3 to the image's systemd as
        # another real-time signal, which isolates rescue.target instead of powering off.
        in_image /bin/systemctl poweroff 2>/dev/null || true
        for _ in $(seq 60); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 1; done
        kill -9 "$nspawn_pid" 2>/dev/null || true
    fi
}
trap cleanup EXIT INT TERM

step "the simulated board and clock unit on ptys of this machine (the checkout's .venv)"
rm -f "$logs/ptys"
"$python" "$repo/scripts/kit_arm64_table.py" --ptys-file "$logs/ptys" \
    --token-file "$root/etc/wuzi/secrets/chief.token" --broker "mqtt://127.0.0.1:$port" \
    --venue "$venue_id" --host "$host_id" --timeout-s 600 >"$logs/table.log" 2>&1 &
driver_pid=$!
for _ in $(seq 100); do [ -s "$logs/ptys" ] && break; sleep 0.1; done
read -r board clock <"$logs/ptys"
# the devices' group inside the image, as udev gives a USB serial device on a Pi
dialout=$(awk -F: '$1 == "dialout" { print $3 }' "$root/etc/group")
chgrp "$dialout" "$board" "$clock"
chmod 0660 "$board" "$clock"

step "a simulated MicroPython board to flash (raw REPL, real MicroPython; its files in $logs/flash-1)"
rm -rf "$logs/flash-1" "$logs/flash-pty"
mkdir -p "$logs/flash-1"
"$python" -m wuzi.sim.devices.micropython_board --flash "$logs/flash-1" \
    --pty-file "$logs/flash-pty" >"$logs/flash-board.log" 2>&1 &
flash_board_pid=$!
for _ in $(seq 100); do [ -s "$logs/flash-pty" ] && break; sleep 0.1; done
read -r flash <"$logs/flash-pty"

step "systemd-nspawn -b: systemd boots the image, wuzi-host.service starts"
systemd-nspawn -D "$root" -b --console=read-only --register=no --keep-unit \
    --hostname="$host_id" --bind="$board:/dev/wuzi/board-1" --bind="$clock:/dev/wuzi/clock-1" \
    --bind="$flash:/dev/wuzi/flash-1" \
    >"$logs/boot.log" 2>&1 &
nspawn_pid=$!

step "the driver: host online, game assigned, next-game, h8 placed and pressed, game ended"
seen=no
for _ in $(seq 600); do
    if grep -q "MOVE SEEN" "$logs/table.log"; then seen=yes; break; fi
    kill -0 "$driver_pid" 2>/dev/null || break
    sleep 1
done
cat "$logs/table.log"

if [ "$seen" = yes ]; then
    step "serving on for 25 s: WatchdogSec=10 under emulation (NRestarts must stay 0)"
    sleep 25
fi

step "wuzi board flash /dev/wuzi/flash-1 --board sensor-rev-a, for real, inside the image"
flashed=no
if in_image /opt/wuzi/.venv/bin/wuzi board flash /dev/wuzi/flash-1 --board sensor-rev-a \
    >"$logs/flash.log" 2>&1; then flashed=yes; fi
cat "$logs/flash.log"
{
    echo "\$ wuzi board flash /dev/wuzi/flash-1 --board sensor-rev-a (done: $flashed)"
    tail -1 "$logs/flash.log"
    echo "\$ the simulated board's files against the installed kit's (cmp)"
    site=$(ls -d "$root"/opt/wuzi/.venv/lib/python3*/site-packages)
    for f in $(ls "$site/wuzi/io/firmware-images/"); do
        case $f in fake_machine.py|__pycache__) continue ;; esac
        cmp "$site/wuzi/io/firmware-images/$f" "$logs/flash-1/$f" && echo "flash-1/$f identical"
    done
    cmp "$site/wuzi/io/board-revisions/sensor-rev-a/board.json" "$logs/flash-1/board.json" \
        && echo "flash-1/board.json identical (sensor-rev-a)"
    echo "\$ ls flash-1"; ls "$logs/flash-1"
    echo "\$ the board's resets"; cat "$logs/flash-board.log"
} >"$logs/flash-evidence.txt" 2>&1
kill "$flash_board_pid" 2>/dev/null || true

step "the evidence inside the image"
{
    echo "\$ systemctl is-system-running"; in_image /bin/systemctl is-system-running || true
    echo "\$ systemctl status wuzi-host"; in_image /bin/systemctl status wuzi-host --no-pager -l || true
    echo "\$ systemctl show wuzi-host -p …"
    in_image /bin/systemctl show wuzi-host --no-pager \
        -p User,Group,SupplementaryGroups,Type,WatchdogUSec,NRestarts,StatusText,ExecMainStartTimestamp || true
    echo "\$ journalctl -b -u wuzi-host"; in_image /bin/journalctl -b -u wuzi-host --no-pager || true
    echo "\$ ls -l /dev/wuzi /run/wuzi /var/lib/wuzi /var/lib/wuzi/records"
    in_image /bin/ls -l /dev/wuzi /run/wuzi /var/lib/wuzi /var/lib/wuzi/records || true
    echo "\$ cat /var/lib/wuzi/records/*.json"
    in_image /bin/sh -c 'cat /var/lib/wuzi/records/*.json; echo' || true
    echo "\$ systemd-analyze verify /etc/systemd/system/wuzi-*.service"
    in_image /bin/sh -c 'systemd-analyze verify /etc/systemd/system/wuzi-*.service && echo clean' 2>&1 || true
    echo "\$ systemctl --failed"; in_image /bin/systemctl --failed --no-pager || true
    cat "$logs/flash-evidence.txt"
} >"$logs/evidence.txt" 2>&1
cat "$logs/evidence.txt"

step "power off"
cleanup
trap - EXIT INT TERM
step "done: logs in $logs"
[ "$seen" = yes ] || { echo "kit-arm64-systemd: the host did not see the move (see $logs)" >&2; exit 1; }
[ "$flashed" = yes ] || { echo "kit-arm64-systemd: wuzi board flash failed (see $logs/flash.log)" >&2; exit 1; }
grep -q '^NRestarts=0$' "$logs/evidence.txt" || {
    echo "kit-arm64-systemd: wuzi-host.service was restarted (see $logs/evidence.txt)" >&2; exit 1; }
echo "kit-arm64-systemd: systemd started wuzi-host in the arm64 image and it served the table"
