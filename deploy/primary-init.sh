#!/bin/sh
# Run once by the postgres image on an empty primary: the replica may connect for replication
# (pg_basebackup, streaming) with the same role and password as the servers.
set -e
echo "host replication sitemall all scram-sha-256" >> "$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "alter role sitemall replication"
