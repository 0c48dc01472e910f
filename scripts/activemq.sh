#!/usr/bin/env bash
# A local ActiveMQ 5.17 broker with a STOMP connector, for tests, CI and developers.
#
#   bash scripts/activemq.sh start    # idempotent; prints the STOMP URL once the broker answers CONNECT
#   bash scripts/activemq.sh stop
#   bash scripts/activemq.sh status   # exit 0 when STOMP answers, 3 otherwise
#
# Environment: ACTIVEMQ_BASE (folder for config, data, logs; default /tmp/platform-activemq),
# STOMP_PORT (61613), OPENWIRE_PORT (61616), ACTIVEMQ_START_TIMEOUT (seconds, 90),
# ACTIVEMQ_DISK_SYNC (always|periodic|never, default periodic), ACTIVEMQ_JAVA_OPTS.
set -euo pipefail

AMQ_HOME=${ACTIVEMQ_HOME:-/usr/share/activemq}
BASE=${ACTIVEMQ_BASE:-/tmp/platform-activemq}
HOST=127.0.0.1
STOMP_PORT=${STOMP_PORT:-61613}
OPENWIRE_PORT=${OPENWIRE_PORT:-61616}
START_TIMEOUT=${ACTIVEMQ_START_TIMEOUT:-90}
# periodic = fsync the journal once a second: a crash of the broker process loses nothing
# (the OS holds the writes), only a crash of the machine may; several times faster for
# persistent sends. Set "always" for the stock behaviour.
DISK_SYNC=${ACTIVEMQ_DISK_SYNC:-periodic}
JAVA_OPTS=${ACTIVEMQ_JAVA_OPTS:--Xms128m -Xmx512m -XX:+UseSerialGC}
CONF=$BASE/conf
DATA=$BASE/data
PIDFILE=$BASE/activemq.pid
LOG=$BASE/activemq.out
STOMP_URL="stomp://$HOST:$STOMP_PORT"

log() { echo "activemq: $*" >&2; }

# wait_until_ready, stop, status, dispatch
URL=$STOMP_URL
READY_WHAT="STOMP CONNECTED on $HOST:$STOMP_PORT"
STOP_POLL=0.3
# shellcheck source=scripts/daemon.sh
source "$(dirname "$0")/daemon.sh"

# True when something accepts TCP connections on the STOMP port.
port_open() {
  timeout 3 bash -c "exec 3<>/dev/tcp/$HOST/$STOMP_PORT" 2>/dev/null
}

# True when the STOMP port answers CONNECT with CONNECTED: an open port alone is not enough,
# the transport connector binds before the broker accepts sessions.
ready() {
  timeout 5 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "CONNECT\naccept-version:1.2\nhost:localhost\nheart-beat:0,0\n\n\0" >&3
    IFS= read -r -t 4 line <&3 || exit 1
    printf "DISCONNECT\n\n\0" >&3
    [ "${line%$'"'"'\r'"'"'}" = CONNECTED ]
  ' "$HOST" "$STOMP_PORT" 2>/dev/null
}

# The recorded pid is alive and still our broker (after a reboot the pid may belong to anything).
pid_alive() {
  [ -f "$PIDFILE" ] && grep -qa activemq.jar "/proc/$(cat "$PIDFILE")/cmdline" 2>/dev/null
}

ensure_installed() {
  if [ ! -f "$AMQ_HOME/bin/activemq.jar" ]; then
    log "installing the Debian activemq package"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq activemq >/dev/null
  fi
  command -v java >/dev/null || { log "java not found"; exit 1; }
}

stock_conf_dir() {
  local dir
  for dir in /etc/activemq/instances-available/main /etc/activemq/instances-enabled/main "$AMQ_HOME/conf"; do
    if [ -f "$dir/activemq.xml" ]; then echo "$dir"; return; fi
  done
  log "no stock activemq.xml found"; exit 1
}

# Copy the stock config and adapt it: STOMP connector, loopback-only OpenWire, no advisories
# (nothing here consumes them; they cost a topic send per consumer/producer change), explicit
# usage limits (the defaults exceed the free disk and log a warning at every start).
write_conf() {
  local stock
  stock=$(stock_conf_dir)
  mkdir -p "$CONF" "$DATA" "$BASE/tmp"
  cp "$stock"/* "$CONF"/
  local connectors="<transportConnectors>\n\
            <transportConnector name=\"openwire\" uri=\"tcp://$HOST:$OPENWIRE_PORT\"/>\n\
            <transportConnector name=\"stomp\" uri=\"stomp://$HOST:$STOMP_PORT\"/>\n\
        </transportConnectors>\n\
        <systemUsage><systemUsage>\n\
            <memoryUsage><memoryUsage percentOfJvmHeap=\"70\"/></memoryUsage>\n\
            <storeUsage><storeUsage limit=\"4 gb\"/></storeUsage>\n\
            <tempUsage><tempUsage limit=\"1 gb\"/></tempUsage>\n\
        </systemUsage></systemUsage>"
  # The stock file has one <transportConnectors> block: replace it whole.
  perl -0pi -e "s#<transportConnectors>.*?</transportConnectors>#$connectors#s" "$CONF/activemq.xml"
  perl -0pi -e 's#<broker xmlns="http://activemq.apache.org/schema/core"#<broker xmlns="http://activemq.apache.org/schema/core" advisorySupport="false"#' "$CONF/activemq.xml"
  perl -0pi -e "s#<kahaDB directory=\"([^\"]*)\"/>#<kahaDB directory=\"\$1\" journalDiskSyncStrategy=\"$DISK_SYNC\"/>#" "$CONF/activemq.xml"
  # The broker logs through log4j 1.2 (Debian's jars), which finds no config by itself.
  cat >"$CONF/log4j.properties" <<LOG4J
log4j.rootLogger=INFO, file
log4j.logger.org.springframework=WARN
log4j.logger.org.apache.xbean=WARN
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$DATA/activemq.log
log4j.appender.file.MaxFileSize=1MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=%d | %-5p | %m | %c | %t%n
LOG4J
  grep -q "name=\"stomp\"" "$CONF/activemq.xml" || { log "could not add the STOMP connector to $CONF/activemq.xml"; exit 1; }
}

start() {
  if ready; then echo "$STOMP_URL"; return 0; fi
  ensure_installed
  mkdir -p "$BASE"
  # Test files run in parallel and each may call start: one launcher at a time, the others
  # wait for it and then find the broker answering.
  exec 9>"$BASE/.lock"
  flock -w "$((START_TIMEOUT + 30))" 9 || { log "timed out waiting for another start"; exit 1; }
  if ready; then echo "$STOMP_URL"; return 0; fi

  if ! pid_alive; then
    if port_open; then log "port $STOMP_PORT is taken by something that does not speak STOMP"; exit 1; fi
    write_conf
    rm -f "$PIDFILE"
    local started_at=$SECONDS
    # setsid + all fds redirected: the broker outlives the caller, and a caller that reads
    # our output through a pipe (child_process.exec) is not kept waiting by java holding it.
    # shellcheck disable=SC2086
    setsid bash -c 'echo $$ > "$0"; exec "$@"' "$PIDFILE" \
      java $JAVA_OPTS -Djava.awt.headless=true -Djava.io.tmpdir="$BASE/tmp" -Dlog4j.configuration="file:$CONF/log4j.properties" \
      -Dactivemq.home="$AMQ_HOME" -Dactivemq.base="$BASE" -Dactivemq.conf="$CONF" -Dactivemq.data="$DATA" \
      -jar "$AMQ_HOME/bin/activemq.jar" start "xbean:file:$CONF/activemq.xml" \
      </dev/null >"$LOG" 2>&1 9>&- &
    log "launched (log $LOG)"
  else
    local started_at=$SECONDS
    log "already launched (pid $(cat "$PIDFILE")), waiting for STOMP"
  fi

  wait_until_ready "$started_at" 0.3 "$LOG"
}

dispatch "$@"
