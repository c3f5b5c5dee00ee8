# test/harness/fuzz_watch.sh — sourced by test/harness/mutation_fuzz.sh and test/harness/sqlsmith.sh:
# notices whether the server crashed while they ran.  Three signs, each
# enough on its own:
#   - pg_postmaster_start_time() changed (the postmaster restarted);
#   - a sentinel session opened at the start is gone at the end (a backend
#     that dies of a signal makes the postmaster end every other session);
#   - the server log gained "terminated by signal" or "was terminated by
#     exception" lines (printed with the statement that was running).  The log is $BS_SERVER_LOG, or the file the logging
#     collector writes; without either this sign is skipped (and said so).
# Uses PGHOST, PGPORT and PGUSER like psql.

watch_psql() { psql -X -At -d postgres "$@"; }

# watch_start WORKDIR: remember the server's state and open the sentinel.
watch_start() {
	WATCH_DIR=$1
	WATCH_START_TIME=$(watch_psql -c "SELECT pg_postmaster_start_time()")
	WATCH_LOG=${BS_SERVER_LOG:-}
	if [ -z "$WATCH_LOG" ]; then
		WATCH_LOG=$(watch_psql -c "SELECT CASE WHEN pg_current_logfile() IS NULL THEN ''
			WHEN pg_current_logfile() LIKE '/%' THEN pg_current_logfile()
			ELSE current_setting('data_directory') || '/' || pg_current_logfile() END" 2>/dev/null || true)
	fi
	WATCH_LOG_SIZE=0
	if [ -n "$WATCH_LOG" ] && [ -r "$WATCH_LOG" ]; then
		WATCH_LOG_SIZE=$(stat -c %s "$WATCH_LOG")
	else
		echo "note: no readable server log (set BS_SERVER_LOG); crash checks use the start time and a sentinel session" >&2
		WATCH_LOG=""
	fi
	watch_psql -c "SELECT pg_backend_pid()" -c "SELECT pg_sleep(86400)" \
		>"$WATCH_DIR/sentinel.out" 2>&1 &
	WATCH_SENTINEL=$!
	for _ in $(seq 50); do
		[ -s "$WATCH_DIR/sentinel.out" ] && break
		sleep 0.1
	done
	WATCH_SENTINEL_BACKEND=$(head -1 "$WATCH_DIR/sentinel.out")
}

# watch_check: print what happened; returns 1 when the server crashed.
watch_check() {
	local crashed=0 now lines
	now=$(watch_psql -c "SELECT pg_postmaster_start_time()" 2>/dev/null || echo unreachable)
	if [ "$now" != "$WATCH_START_TIME" ]; then
		echo "CRASH: postmaster start time changed ($WATCH_START_TIME -> $now)"
		crashed=1
	fi
	if ! kill -0 "$WATCH_SENTINEL" 2>/dev/null; then
		echo "CRASH: the sentinel session was terminated: $(tail -1 "$WATCH_DIR/sentinel.out")"
		crashed=1
	elif [[ "$WATCH_SENTINEL_BACKEND" =~ ^[0-9]+$ ]]; then
		watch_psql -c "SELECT pg_cancel_backend($WATCH_SENTINEL_BACKEND)" >/dev/null 2>&1 || true
		wait "$WATCH_SENTINEL" 2>/dev/null || true
	else
		kill "$WATCH_SENTINEL" 2>/dev/null || true
	fi
	if [ -n "$WATCH_LOG" ]; then
		lines=$(tail -c +"$((WATCH_LOG_SIZE + 1))" "$WATCH_LOG" |
			grep -E 'terminated by signal|was terminated by exception|Failed process was running' || true)
		if echo "$lines" | grep -qE 'terminated by (signal|exception)'; then
			echo "CRASH: server log $WATCH_LOG says:"
			echo "$lines" | head -6 | cut -c1-2000
			crashed=1
		fi
	fi
	[ "$crashed" -eq 0 ] && echo "server: no crash (same postmaster, sentinel session alive${WATCH_LOG:+, no signal in $WATCH_LOG})"
	return "$crashed"
}
