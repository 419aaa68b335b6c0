# The compose tier's own Docker engine (sourced by run.sh): Debian's dockerd with its data root,
# exec root and socket under one folder, no iptables rules and no forwarding change on the host.
# Containers on a compose network talk over its bridge; the host reaches them on their addresses
# (it is on every bridge) and through the published ports (docker-proxy, which needs no iptables).
# Nothing routes from a container to beyond the host (no forwarding, no NAT): the stack needs
# nothing there, and image builds use the host's network. Stopped by its pid.

DOCKER=/usr/bin/docker

# engine_start <folder>: starts dockerd and exports DOCKER_HOST; fails if docker0 is someone else's.
engine_start() {
  local root=$1
  if ip link show docker0 >/dev/null 2>&1; then
    if pgrep -x dockerd >/dev/null; then
      echo "a docker0 bridge exists and a dockerd runs: another Docker engine uses this machine; stop it first" >&2
      return 1
    fi
    # left by an engine that was killed with its run (no dockerd owns it any more)
    ip link delete docker0 && echo "removed a stale docker0 bridge"
  fi
  mkdir -p "$root/data" "$root/exec"
  ip -o link show type bridge | awk -F': ' '{print $2}' | sort >"$root/bridges.before"
  dockerd --data-root "$root/data" --exec-root "$root/exec" --host "unix://$root/docker.sock" \
    --pidfile "$root/dockerd.pid" --iptables=false --ip-forward=false --storage-driver overlay2 \
    >"$root/dockerd.log" 2>&1 &
  echo $! >"$root/dockerd.started"
  export DOCKER_HOST="unix://$root/docker.sock"
  local waited=0
  until "$DOCKER" version >/dev/null 2>&1; do
    if [ $waited -ge 60 ] || ! kill -0 "$(cat "$root/dockerd.started")" 2>/dev/null; then
      echo "dockerd did not start within 60 s:" >&2
      tail -20 "$root/dockerd.log" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "dockerd $("$DOCKER" version --format '{{.Server.Version}}') (pid $(cat "$root/dockerd.started")): data under $root, socket $DOCKER_HOST"
}

# engine_stop <folder>: stops dockerd by its pid (TERM, then KILL after 30 s), removes the bridges
# it made (docker0, the compose networks'), unmounts what it left mounted and deletes the folder.
engine_stop() {
  local root=$1 pid since=$SECONDS
  [ -d "$root" ] || return 0
  pid=$(cat "$root/dockerd.started" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "dockerd (pid $pid) did not stop within 30 s: killed" >&2
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
    fi
  fi
  local stopped=$SECONDS
  # its containerd, should it have outlived it (a KILL), wrote its pid under the exec root
  local containerd
  containerd=$(cat "$root/exec/containerd/containerd.pid" 2>/dev/null || true)
  if [ -n "$containerd" ] && kill -0 "$containerd" 2>/dev/null; then kill -KILL "$containerd" 2>/dev/null || true; fi
  ip -o link show type bridge | awk -F': ' '{print $2}' | sort >"$root/bridges.after"
  local bridge
  for bridge in $(comm -13 "$root/bridges.before" "$root/bridges.after"); do
    ip link delete "$bridge" 2>/dev/null && echo "removed the bridge $bridge"
  done
  # overlay, shm and network namespace mounts left by a killed engine
  awk -v root="$root" 'index($2, root) == 1 {print $2}' /proc/mounts | sort -r | while read -r mount; do
    umount -l "$mount" 2>/dev/null || true
  done
  rm -rf "$root"
  echo "Docker engine stopped in $((stopped - since))s, its folder removed in $((SECONDS - stopped))s"
}
