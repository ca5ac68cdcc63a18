#!/usr/bin/env bash
# A throwaway single-node Ceph cluster with one RADOS Gateway (a real S3 server) for tests, under DIR:
#   rgw.sh start DIR MON_PORT RGW_PORT memstore|bluestore ACCESS_KEY SECRET_KEY   (cluster, gateway, S3 user)
#   rgw.sh stop-gateway DIR | start-gateway DIR                                 (the object store "unreachable")
#   rgw.sh stop DIR                                                              (every daemon, by its pid file)
# Settings from the workspace notes on PostgreSQL and RGW: no cephx on loopback, crc for the gateway's monitor client (else it
# waits 300 s for the mon config), a 50 ms paxos interval (start in about 1 s instead of 11), one OSD.
set -euo pipefail
cmd=$1
dir=$2
conf="$dir/ceph.conf"

# Stops the daemon of one pid file with SIGNAL and waits until it is gone (a throwaway cluster needs no clean
# shutdown: the whole cluster goes with SIGKILL; the gateway alone with SIGTERM, then SIGKILL after 2 s).
stop_pidfile() {
  local f=$1 signal=$2
  [ -f "$f" ] || return 0
  local pid
  pid=$(cat "$f")
  rm -f "$f"
  kill "-$signal" "$pid" 2>/dev/null || return 0
  for _ in $(seq 20); do alive "$pid" || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 20); do alive "$pid" || return 0; sleep 0.1; done
}

# A daemonized process that has exited stays a zombie until a container's init reaps it: that is gone too.
alive() {
  [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

start_gateway() {
  radosgw -c "$conf" -n client.rgw 2>>"$dir/log/rgw-start.log"
  local port
  port=$(cat "$dir/rgw-port")
  for _ in $(seq 300); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/"; then return 0; fi
    sleep 0.1
  done
  echo "rgw.sh: the gateway did not answer on 127.0.0.1:$port within 30 s (log: $dir/log/client.rgw.log)" >&2
  exit 1
}

case "$cmd" in
  start)
    mon_port=$3 rgw_port=$4 store=$5 access=$6 secret=$7
    if [ ! -x /usr/bin/radosgw ]; then
      echo "Installing Debian's ceph-mon, ceph-osd and radosgw (the cluster tests' S3 server)…" >&2
      if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ceph-mon ceph-osd radosgw >/dev/null
    fi
    mkdir -p "$dir"/{mon,osd,run,log,rgw}
    echo "$rgw_port" >"$dir/rgw-port"
    fsid=$(cat /proc/sys/kernel/random/uuid)
    cat >"$conf" <<CONF
[global]
fsid = $fsid
mon_host = [v2:127.0.0.1:$mon_port]
ms_bind_msgr1 = false
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
ms_mon_client_mode = crc
paxos_propose_interval = 0.05
mon_data_avail_crit = 0
mon_allow_pool_size_one = true
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
mon_max_pg_per_osd = 1000
osd_crush_chooseleaf_type = 0
osd_class_load_list = *
osd_class_default_list = *
mon_warn_on_pool_no_redundancy = false
run_dir = $dir/run
admin_socket = $dir/run/\$name.asok
pid_file = $dir/run/\$name.pid
log_file = $dir/log/\$name.log
keyring = $dir/keyring
[mon.a]
mon_data = $dir/mon
[osd.0]
osd_data = $dir/osd
osd_objectstore = $store
memstore_device_bytes = 4294967296
bluestore_block_path = $dir/block.img
bluestore_block_create = true
bluestore_block_size = 10737418240
bluestore_fsck_on_mkfs = false
osd_memory_target = 536870912
[client.rgw]
rgw_frontends = beast endpoint=127.0.0.1:$rgw_port
rgw_data = $dir/rgw
rgw_enable_usage_log = false
CONF
    : >"$dir/keyring"
    monmaptool --create --clobber --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
    ceph-mon -c "$conf" -i a --mkfs --monmap "$dir/monmap"
    ceph-mon -c "$conf" -i a
    uuid=$(cat /proc/sys/kernel/random/uuid)
    id=$(ceph -c "$conf" --connect-timeout 30 osd new "$uuid")
    [ "$id" = 0 ] || { echo "rgw.sh: expected osd.0, got osd.$id" >&2; exit 1; }
    ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$uuid" 2>>"$dir/log/mkfs.log"
    ceph-osd -c "$conf" -i 0 2>>"$dir/log/osd-start.log"
    radosgw-admin -c "$conf" -n client.rgw user create --uid=test --display-name=test \
      --access-key="$access" --secret="$secret" >/dev/null
    start_gateway
    ;;
  start-gateway) start_gateway ;;
  stop-gateway) stop_pidfile "$dir/run/client.rgw.pid" TERM ;;
  stop)
    stop_pidfile "$dir/run/client.rgw.pid" KILL
    stop_pidfile "$dir/run/osd.0.pid" KILL
    stop_pidfile "$dir/run/mon.a.pid" KILL
    ;;
  *)
    echo "usage: rgw.sh start|stop|start-gateway|stop-gateway DIR …" >&2
    exit 2
    ;;
esac
