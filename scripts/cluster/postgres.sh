#!/usr/bin/env bash
# A throwaway PostgreSQL 15 (Debian's) for tests, under DIR (owned by the postgres user: initdb refuses root):
#   postgres.sh init DIR PORT PASSWORD   (cluster, database "store" owned by user "store" with PASSWORD, started)
#   postgres.sh start DIR | stop DIR     (same data, same port; stop is `pg_ctl -m immediate`, a crash)
# The socket lives in DIR, so /var/run/postgresql is not needed; only 127.0.0.1 listens.
set -euo pipefail
cmd=$1
dir=$2
bin=/usr/lib/postgresql/15/bin
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start() {
  local port
  port=$(cat "$dir/port")
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 start -o "-h 127.0.0.1 -p $port -k $dir" >/dev/null
}

case "$cmd" in
  init)
    port=$3 password=$4
    if [ ! -x "$bin/initdb" ]; then
      echo "Installing Debian's postgresql (the cluster tests' database)…" >&2
      if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
    fi
    mkdir -p "$dir"
    echo "$port" >"$dir/port"
    printf '%s\n' "$password" >"$dir/pwfile"
    [ "$(id -u)" = 0 ] && chown -R postgres: "$dir"
    as_pg "$bin/initdb" --no-sync -A scram-sha-256 -U postgres --pwfile="$dir/pwfile" -D "$dir/data" >/dev/null
    start
    export PGPASSWORD=$password
    as_pg env PGPASSWORD="$password" "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -q -v ON_ERROR_STOP=1 \
      -c "CREATE USER store PASSWORD '$password' CREATEDB" -c "CREATE DATABASE store OWNER store" >/dev/null
    ;;
  start) start ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null
    ;;
  *)
    echo "usage: postgres.sh init|start|stop DIR …" >&2
    exit 2
    ;;
esac
