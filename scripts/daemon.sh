# Sourced by scripts/activemq.sh and scripts/clamd.sh: a local server run in the background with a
# pidfile. The script sets PIDFILE, URL (what `start` prints), READY_WHAT (what readiness means, for
# messages), STOP_POLL (seconds between checks while it stops) and defines log, pid_alive and ready.

# Waits until `ready` answers; fails with the last lines of the given logs if the server dies first
# or the START_TIMEOUT passes. Prints URL once ready.
wait_until_ready() {
  local started_at=$1 poll=$2
  shift 2
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! ready; do
    sleep "$poll"
    if [ -f "$PIDFILE" ] && ! pid_alive; then
      log "exited during start; last lines of $*:"
      tail -n 30 "$@" >&2 2>/dev/null || true
      exit 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "no $READY_WHAT after ${START_TIMEOUT}s; last lines of $*:"
      tail -n 30 "$@" >&2 2>/dev/null || true
      exit 1
    fi
  done
  log "ready after $((SECONDS - started_at))s"
  echo "$URL"
}

stop() {
  if ! pid_alive; then log "not running"; rm -f "$PIDFILE"; return 0; fi
  local pid
  pid=$(cat "$PIDFILE")
  kill "$pid"
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PIDFILE"; log "stopped"; return 0; }
    sleep "$STOP_POLL"
  done
  log "pid $pid ignored TERM, killing"
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$PIDFILE"
}

status() {
  if ready; then
    if pid_alive; then echo "running (pid $(cat "$PIDFILE")): $URL"; else echo "running (not started by this script): $URL"; fi
    return 0
  fi
  if pid_alive; then echo "starting (pid $(cat "$PIDFILE")), no $READY_WHAT yet"; else echo "not running"; fi
  return 3
}

dispatch() {
  case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
  esac
}
