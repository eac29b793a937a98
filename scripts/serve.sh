#!/bin/sh
# The server's start command: the image's CMD, and `npm run serve:replicated`.
# Without LITESTREAM_REPLICA_URL it runs the server exactly as `npm run serve`
# does. With it, Litestream first restores the database when the volume has
# none and the replica has one, then replicates every write while it runs
# the server as its child (scripts/litestream.yml). With READ_ONLY as well,
# it restores the replica's latest copy and runs the server alone.
#
# A shell script, not Node: it ends in `exec`, so nothing stays behind just
# to wait (a Node process would cost some 40 MB of a 256 MB container), and
# `docker stop`'s SIGTERM reaches Litestream, which passes it on to the
# server and, once the server has closed, syncs one last time.
set -eu
cd "$(dirname "$0")/.."

fail() {
  printf 'Invalid configuration:\n  - %s\n' "$1" >&2
  exit 1
}

# The node flags and environment of package.json's config, as `npm run serve` uses them.
node_flags=$(node -p 'require("./package.json").config.nodeFlags')
server_env=$(node -p 'require("./package.json").config.serverEnv')
export $server_env # unquoted: NAME=value pairs, a word each
export NODE_ENV=production
server="node $node_flags build/http/index.js"

if [ -z "${LITESTREAM_REPLICA_URL:-}" ]; then
  exec $server # unquoted: the flags are words of their own
fi

case $LITESTREAM_REPLICA_URL in
  s3://[!/]*/?*)
    if [ -z "${LITESTREAM_ACCESS_KEY_ID:-}" ] || [ -z "${LITESTREAM_SECRET_ACCESS_KEY:-}" ]; then
      fail "LITESTREAM_REPLICA_URL is an S3 address: set LITESTREAM_ACCESS_KEY_ID and LITESTREAM_SECRET_ACCESS_KEY too."
    fi
    case ${LITESTREAM_ENDPOINT:-} in
      "" | http://?* | https://?*) ;;
      *) fail "LITESTREAM_ENDPOINT must be the http(s):// address of an S3-compatible service, got \"$LITESTREAM_ENDPOINT\"." ;;
    esac
    ;;
  file:///*)
    [ -z "${LITESTREAM_ENDPOINT:-}" ] || fail "LITESTREAM_ENDPOINT is for S3-compatible services; LITESTREAM_REPLICA_URL is a path (file://)."
    ;;
  *) fail "LITESTREAM_REPLICA_URL must be s3://bucket/path or file:///absolute/path, got \"$LITESTREAM_REPLICA_URL\"." ;;
esac

# Litestream names the database by its absolute path, as the server resolves it.
database=${DATABASE_PATH:-./data/dejiny.db}
case $database in
  /*) ;;
  *) database="$PWD/${database#./}" ;;
esac
export DATABASE_PATH="$database"

litestream=node_modules/@flydotio/litestream-linux-x64/litestream
config=scripts/litestream.yml
# The web server never holds the storage's keys (Litestream copies them to AWS_*).
keys="LITESTREAM_ACCESS_KEY_ID LITESTREAM_SECRET_ACCESS_KEY AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY"
server_without_keys="env$(printf ' -u %s' $keys) $server"

# A read-only replica (docs/operations.md, "Past one box") serves the replica's latest
# copy, restored afresh at each start, and never replicates: its own history
# would be written over the primary's. Any value but off/false/0 counts here
# (never replicate by mistake); the server then refuses one it does not know.
case $(printf %s "${READ_ONLY:-}" | tr '[:upper:]' '[:lower:]') in
  "" | off | false | 0) ;;
  *)
    # Only a copy this branch restored is replaced: READ_ONLY set by mistake on the primary's volume
    # must not throw away its database (and the writes Litestream has not shipped yet).
    marker="$DATABASE_PATH.replica-copy"
    if [ -e "$DATABASE_PATH" ] && [ ! -e "$marker" ]; then
      fail "READ_ONLY is on, but $DATABASE_PATH is not a copy restored for a replica: it would be replaced. Give a replica a volume of its own."
    fi
    copy="$DATABASE_PATH.restoring"
    rm -f "$copy" "$copy.tmp-wal" "$copy.tmp-shm"
    "$litestream" restore -config "$config" -o "$copy" "$DATABASE_PATH"
    # Litestream leaves the WAL files of its temporary copy behind; the old copy's go with it.
    rm -f "$copy.tmp-wal" "$copy.tmp-shm" "$DATABASE_PATH-wal" "$DATABASE_PATH-shm"
    mv "$copy" "$DATABASE_PATH"
    : >"$marker"
    exec $server_without_keys
    ;;
esac

# An empty volume gets the replica's database back before anything opens it.
# A failure stops here: a server starting empty would replicate an empty database.
"$litestream" restore -config "$config" -if-db-not-exists -if-replica-exists "$DATABASE_PATH"
# Tells the server that Litestream does the checkpoints (app/db/connection.server.ts).
export LITESTREAM_REPLICATING=1
exec "$litestream" replicate -config "$config" -exec "$server_without_keys"
