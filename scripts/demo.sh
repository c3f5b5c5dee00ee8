#!/usr/bin/env bash
# The demonstration: installs what is missing, builds and installs bloomsketch,
# starts a throwaway PostgreSQL 15 server and runs scripts/demo.sql on it.
# scripts/demo.sql itself needs only a server with the extension installed.
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"
bs_install_packages
bs_build_install
bs_start_server shared_buffers=1GB max_parallel_workers_per_gather=2 work_mem=64MB jit=off
bs_log "running scripts/demo.sql"
$PG_BIN/psql -X -v ON_ERROR_STOP=1 -f "$BS_ROOT/scripts/demo.sql"
