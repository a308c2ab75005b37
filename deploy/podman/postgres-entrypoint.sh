#!/bin/sh
# The official postgres image's contract, in short: on an empty data directory, initdb with
# POSTGRES_USER (default postgres) and POSTGRES_PASSWORD, create POSTGRES_DB, accept password
# (scram) connections from the network; then run the server as the postgres user.
set -eu
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown -R postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "postgres: POSTGRES_PASSWORD is not set" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$db" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres -c "CREATE DATABASE \"$db\"" >/dev/null
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "postgres: initialised $PGDATA (user $user, database $db)"
fi
if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
