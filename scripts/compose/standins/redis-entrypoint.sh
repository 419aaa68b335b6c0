#!/bin/sh
# As the official redis image's entrypoint: redis-server runs as the user redis, with protected
# mode off when no configuration file is given.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  case "${1:-}" in
    *.conf) ;;
    *) set -- --protected-mode no "$@" ;;
  esac
  chown -R redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server "$@"
fi
exec "$@"
