#!/bin/sh
# As the official postgres image's entrypoint: an empty data folder is initialised with the
# superuser POSTGRES_USER (password POSTGRES_PASSWORD, scram-sha-256 over the network) and the
# database POSTGRES_DB; then the server runs as the user postgres, listening on every address.
set -eu
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ "${1:-}" != postgres ]; then exec "$@"; fi
shift
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  pwfile=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "${POSTGRES_DB:-$user}" != postgres ]; then
    as_postgres psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres -c "CREATE DATABASE \"${POSTGRES_DB:-$user}\""
  fi
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo 'stand-in postgres: database initialised'
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
