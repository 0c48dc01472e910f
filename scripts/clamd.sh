#!/usr/bin/env bash
# A local ClamAV clamd on TCP with an offline signature database (EICAR only), for tests, CI
# and developers: no freshclam, nothing downloaded but the Debian package.
#
#   bash scripts/clamd.sh start    # idempotent; prints the CLAMD_URL once clamd answers PING
#   bash scripts/clamd.sh stop
#   bash scripts/clamd.sh status   # exit 0 when clamd answers PING, 3 otherwise
#
# Environment: CLAMD_BASE (folder for config, database, logs; default /tmp/platform-clamd),
# CLAMD_PORT (3310), CLAMD_START_TIMEOUT (seconds, 60).
set -euo pipefail

BASE=${CLAMD_BASE:-/tmp/platform-clamd}
HOST=127.0.0.1
PORT=${CLAMD_PORT:-3310}
START_TIMEOUT=${CLAMD_START_TIMEOUT:-60}
CONF=$BASE/clamd.conf
DB=$BASE/db
PIDFILE=$BASE/clamd.pid
LOG=$BASE/clamd.out
CLAMD_URL="tcp://$HOST:$PORT"
# The signature name tests expect; clamd reports it with ".UNOFFICIAL" appended, as for any
# database that is not signed by ClamAV.
SIGNATURE=Platform.Test.EICAR

log() { echo "clamd: $*" >&2; }

# wait_until_ready, stop, status, dispatch
URL=$CLAMD_URL
READY_WHAT="PONG on $HOST:$PORT"
STOP_POLL=0.1
# shellcheck source=scripts/daemon.sh
source "$(dirname "$0")/daemon.sh"

# True when something accepts TCP connections on the port.
port_open() {
  timeout 3 bash -c "exec 3<>/dev/tcp/$HOST/$PORT" 2>/dev/null
}

# True when the port answers zPING with PONG: clamd binds before its database is loaded.
ready() {
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "zPING\0" >&3
    IFS= read -r -d "" -t 4 line <&3 || exit 1
    [ "$line" = PONG ]
  ' "$HOST" "$PORT" 2>/dev/null
}

# The recorded pid is alive and still our clamd (after a reboot the pid may belong to anything).
pid_alive() {
  [ -f "$PIDFILE" ] && grep -qa "$CONF" "/proc/$(cat "$PIDFILE")/cmdline" 2>/dev/null
}

clamd_bin() {
  command -v clamd 2>/dev/null || { [ -x /usr/sbin/clamd ] && echo /usr/sbin/clamd; } || true
}

# The Debian package's own services must not run: freshclam cannot reach its mirrors here and
# retries forever, and the system clamd would load a database that does not exist.
stop_package_services() {
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    systemctl disable --now clamav-freshclam.service clamav-daemon.service clamav-daemon.socket >/dev/null 2>&1 || true
  fi
  # Nor at the next boot of a machine with SysV init.
  update-rc.d -f clamav-daemon disable >/dev/null 2>&1 || true
  update-rc.d -f clamav-freshclam disable >/dev/null 2>&1 || true
  local pidfile
  for pidfile in /run/clamav/freshclam.pid /run/clamav/clamd.pid; do
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      log "stopping the package's $(basename "$pidfile" .pid) (pid $(cat "$pidfile"))"
      kill "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
}

ensure_installed() {
  if [ -n "$(clamd_bin)" ]; then return; fi
  log "installing the Debian clamav-daemon package"
  # A policy-rc.d that denies every action keeps the postinsts from starting freshclam or
  # clamd (Debian's container images ship one; a developer's machine may not).
  local own_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    own_policy=1
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  # "manual": no freshclam daemon, cron job or if-up hook.
  echo "clamav-freshclam clamav-freshclam/autoupdate_freshclam select manual" | debconf-set-selections 2>/dev/null || true
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clamav-daemon >/dev/null
  if [ -n "$own_policy" ]; then
    rm -f /usr/sbin/policy-rc.d
    trap - EXIT
  fi
  stop_package_services
  [ -n "$(clamd_bin)" ] || { log "clamd not found after installing clamav-daemon"; exit 1; }
}

# The EICAR test file, built from two halves so that this script is not itself a detection.
# shellcheck disable=SC2016 # the $ signs are EICAR's own
eicar() {
  printf '%s' 'X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANT'
  printf '%s' 'IVIRUS-TEST-FILE!$H+H*'
}

# A database clamd loads without freshclam: the EICAR file by MD5 and size (.hdb), and its bytes
# anywhere in any file (.ndb), so EICAR inside a larger file or an archive entry is found too.
write_db() {
  mkdir -p "$DB"
  rm -f "$DB"/*
  local md5 size hex
  md5=$(eicar | md5sum | cut -d' ' -f1)
  size=$(eicar | wc -c)
  hex=$(eicar | od -An -v -tx1 | tr -d ' \n')
  echo "$md5:$size:$SIGNATURE" >"$DB/platform-test.hdb"
  echo "$SIGNATURE:0:*:$hex" >"$DB/platform-test.ndb"
}

# StreamMaxLength and MaxFileSize alike: a stream clamd accepts is scanned whole (past
# MaxFileSize it would answer OK unscanned).
write_conf() {
  mkdir -p "$BASE/tmp"
  cat >"$CONF" <<CONF
# Written by scripts/clamd.sh; rewritten at every start.
Foreground yes
TCPAddr $HOST
TCPSocket $PORT
LocalSocket $BASE/clamd.ctl
LocalSocketMode 600
DatabaseDirectory $DB
TemporaryDirectory $BASE/tmp
LogFile $BASE/clamd.log
LogTime yes
LogFileMaxSize 2M
StreamMaxLength 128M
MaxFileSize 128M
MaxThreads 4
SelfCheck 0
CONF
}

start() {
  if ready; then echo "$CLAMD_URL"; return 0; fi
  mkdir -p "$BASE"
  # Test files run in parallel and each may call start: one launcher (and installer) at a time,
  # the others wait for it and then find clamd answering.
  exec 9>"$BASE/.lock"
  flock -w "$((START_TIMEOUT + 300))" 9 || { log "timed out waiting for another start"; exit 1; }
  if ready; then echo "$CLAMD_URL"; return 0; fi
  ensure_installed

  local started_at=$SECONDS
  if ! pid_alive; then
    if port_open; then log "port $PORT is taken by something that does not answer zPING"; exit 1; fi
    write_db
    write_conf
    rm -f "$PIDFILE" "$BASE/clamd.ctl"
    # setsid + all fds redirected: clamd outlives the caller, and a caller that reads our
    # output through a pipe (child_process.exec) is not kept waiting by clamd holding it.
    setsid bash -c 'echo $$ > "$0"; exec "$@"' "$PIDFILE" \
      "$(clamd_bin)" --config-file="$CONF" </dev/null >"$LOG" 2>&1 9>&- &
    log "launched (log $LOG)"
  else
    log "already launched (pid $(cat "$PIDFILE")), waiting for PONG"
  fi

  wait_until_ready "$started_at" 0.2 "$LOG" "$BASE/clamd.log"
}

dispatch "$@"
