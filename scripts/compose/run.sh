#!/usr/bin/env bash
# npm run test:compose — the deployment users run first, for real: the project's images built from
# deploy/Dockerfile unchanged, docker-compose.yml started unchanged (with scripts/compose/
# docker-compose.ci.yml for what this machine needs), and test/compose/*.compose.ts run against it.
#
# On a Debian machine without registry access (as CI's): installs docker.io, docker-compose and
# debootstrap if missing; starts a Docker engine of its own (stopped, and its bridges removed, on
# every exit); builds stand-ins for the four registry images (said plainly below); builds; tests.
# Needs root (dockerd). The whole tier is bounded by AC_COMPOSE_BUDGET_S (50 minutes by default;
# typically 10 to 15 on 2 cores with the cache, 17 without: docs/benchmarks.md). Cached between runs, outside the
# repository, in AC_COMPOSE_CACHE: the Debian root and the stand-in images.
set -euo pipefail
cd "$(dirname "$0")/../.."

STARTED=$(date +%s)
BUDGET_S=${AC_COMPOSE_BUDGET_S:-3000}
export AC_COMPOSE_CACHE=${AC_COMPOSE_CACHE:-/var/cache/agentchassis-compose}
export AC_COMPOSE_HOST_IP=${AC_COMPOSE_HOST_IP:-127.24.31.1}
export AC_COMPOSE_WORK
AC_COMPOSE_WORK=$(mktemp -d /tmp/ac-compose.XXXXXX)

source scripts/compose/docker-engine.sh
source scripts/compose/standins.sh
export COMPOSE_PROJECT_NAME=acci
export COMPOSE_FILE=docker-compose.yml:scripts/compose/docker-compose.ci.yml
# the classic builder, as docker-compose 1.29 drives it (BuildKit would fetch its Dockerfile frontend)
export COMPOSE_DOCKER_CLI_BUILD=0 DOCKER_BUILDKIT=0
export AC_COMPOSE_DOCKER=$DOCKER

step() { printf '\n== compose tier: %s (%ss in) ==\n' "$*" "$(($(date +%s) - STARTED))"; }
remaining() { echo $((BUDGET_S - ($(date +%s) - STARTED))); }
# within <max seconds> <command...>: runs it for at most that long, or what is left of the budget
within() {
  local cap=$1 left
  shift
  left=$(remaining)
  [ "$left" -gt 0 ] || { echo "the compose tier's budget of ${BUDGET_S}s is spent" >&2; return 1; }
  [ "$cap" -lt "$left" ] || cap=$left
  timeout --kill-after=10 "$cap" "$@"
}

cleanup() {
  local status=$?
  set +e
  if [ -S "$AC_COMPOSE_WORK/engine/docker.sock" ]; then
    if [ $status -ne 0 ]; then
      step "failed: the stack as it was"
      timeout 60 docker-compose ps
      timeout 60 docker-compose logs --no-color --tail=40
    fi
    step "down"
    timeout 180 docker-compose down -v --timeout 10 >/dev/null 2>&1
  fi
  engine_stop "$AC_COMPOSE_WORK/engine"
  rm -rf "$AC_COMPOSE_WORK"
  printf '\n== compose tier: %s in %ss ==\n' "$([ $status -eq 0 ] && echo passed || echo FAILED)" "$(($(date +%s) - STARTED))"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$(id -u)" -ne 0 ]; then
  echo "the compose tier starts its own Docker engine and needs root" >&2
  exit 1
fi

step "packages"
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} from Debian"
  export DEBIAN_FRONTEND=noninteractive
  # installing docker.io must not start Debian's own engine: only ours runs
  no_start=""
  [ -e /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; no_start=1; }
  within 600 apt-get update -qq
  within 600 apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ -z "$no_start" ] || rm -f /usr/sbin/policy-rc.d
fi
[ -f dist/libs/testing/src/scripted-llm/main.js ] || within 600 npm run build --silent

step "Docker engine"
mkdir -p "$AC_COMPOSE_CACHE"
engine_start "$AC_COMPOSE_WORK/engine"

step "stand-ins for the registry images (cache: $AC_COMPOSE_CACHE)"
standins_build

step "configuration for this machine"
mkdir -p "$AC_COMPOSE_WORK/nats"
export AC_COMPOSE_NATS_CONF="$AC_COMPOSE_WORK/nats/nats.conf"
# Debian's nats-server 2.9 stands in for 2.12, which alone knows sync_interval: the one difference
grep -v '^\s*sync_interval:' deploy/nats/nats.conf >"$AC_COMPOSE_NATS_CONF"
echo "NATS stand-in config = deploy/nats/nats.conf minus what 2.9 lacks:"
diff deploy/nats/nats.conf "$AC_COMPOSE_NATS_CONF" | sed 's/^/  /' || true
export AC_COMPOSE_NPM_CA
AC_COMPOSE_NPM_CA=$(node_modules/.bin/node scripts/compose/registry-ca.mjs)
echo "npm inside builds trusts: $(printf '%s\n' "$AC_COMPOSE_NPM_CA" | openssl x509 -noout -subject 2>/dev/null || echo 'the registry CA')"
# what a user's .env would say: the scripted model, an admin key
export LLM_PROVIDER=openai-compatible LLM_BASE_URL=http://llm:4010/v1 LLM_MODEL=scripted-model LLM_API_KEY=scripted
export AC_ADMIN_KEY="ac_compose_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"

step "images from deploy/Dockerfile"
if ! within 1800 docker-compose build >"$AC_COMPOSE_WORK/build.log" 2>&1; then
  tail -40 "$AC_COMPOSE_WORK/build.log"
  exit 1
fi
grep -m1 -E '^runtime layer:' "$AC_COMPOSE_WORK/build.log"
"$DOCKER" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep '^agentchassis/' | sort

step "the stack (test/compose)"
within 1500 node_modules/.bin/vitest run --config scripts/compose/vitest.config.mts
