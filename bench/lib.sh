# bench/lib.sh — the tables of the server benchmarks, loaded the same way by
# bench/run.sh and bench/ab.sh (both source this file after scripts/lib.sh),
# so that an A/B run times the very data bench/run.sh does.  Each function
# prints SQL for psql; the caller creates the extensions first (bloomsketch,
# or bloomsketch_<tag> in bench/ab.sh; pg_prewarm; hll for the Bloom section).

# bench_map_sql TABLE...: scans that map every shared buffer of the tables
# into the backend before anything is timed.  A count(*) is not enough: it
# reads a page's header and line pointers, the first 4 kB of each 8 kB
# buffer, so the first timed query that reads the rows themselves paid the
# page faults of the other halves (count(id) took 2.3 times what it took
# right after); `r IS NOT NULL` reads every column of every row.
bench_map_sql() {
	local table
	for table in "$@"; do
		echo "SELECT count(*) FROM $table AS r WHERE r IS NOT NULL;"
	done
}

# bench_t_sql ROWS: t(id, s) with ids 1..ROWS and 32-character s.
bench_t_sql() {
	cat <<-SQL
		CREATE TABLE t AS
			SELECT i AS id, md5(i::text) AS s FROM generate_series(1::bigint, $1) i;
		VACUUM (FREEZE, ANALYZE) t;
	SQL
}

# bench_bloom_tables_sql ROWS CAPACITY FPR: other(id) with ids ROWS/2 + 1 ..
# ROWS/2 + ROWS, so that half of t's ids are in other and half are not; the
# filter of other, built once and stored (TOASTed, ~12 MB at 10M rows); all
# of it prewarmed into shared_buffers with t.
bench_bloom_tables_sql() {
	cat <<-SQL
		CREATE TABLE other AS
			SELECT i AS id FROM generate_series($1 / 2 + 1::bigint, $1 / 2 + $1) i;
		CREATE TABLE other_filter AS
			SELECT bloom_agg(id, $2, $3) AS f FROM other;
		VACUUM (FREEZE, ANALYZE) other;
		VACUUM (FREEZE, ANALYZE) other_filter;
		CHECKPOINT;
		SELECT 'prewarmed ' || sum(pg_prewarm(c)) || ' blocks' FROM (VALUES ('t'::regclass), ('other'), ('other_filter'),
			((SELECT reltoastrelid FROM pg_class WHERE oid = 'other_filter'::regclass))) v(c);
	SQL
}

# bench_cms_tables_sql PROBES GROUPS: cms_agg's default sketch (epsilon =
# delta = 0.001) of t.s, stored TOASTed; the first PROBES values of t.s to
# look up; t's ids with a group number, whose statistics tell the planner
# there are GROUPS groups; all of it prewarmed into shared_buffers with t.
bench_cms_tables_sql() {
	cat <<-SQL
		CREATE TABLE cms_store AS SELECT cms_agg(s) AS sketch FROM t;
		CREATE TABLE cms_probe AS SELECT s FROM t WHERE id <= $1;
		CREATE TABLE cms_groups AS SELECT id, (id % $2)::int AS g FROM t;
		VACUUM (FREEZE, ANALYZE) cms_store;
		VACUUM (FREEZE, ANALYZE) cms_probe;
		VACUUM (FREEZE, ANALYZE) cms_groups;
		CHECKPOINT;
		SELECT 'prewarmed ' || sum(pg_prewarm(c)) || ' blocks' FROM (VALUES ('t'::regclass), ('cms_store'), ('cms_probe'),
			('cms_groups'), ((SELECT reltoastrelid FROM pg_class WHERE oid = 'cms_store'::regclass))) v(c);
	SQL
}

# bench_rounds WORK TAG RUNS PREAMBLE QUERIES LABELS MEDIAN MIN MAX
# [POSTAMBLE]: times the queries of the associative array named QUERIES, in
# the order of the array named LABELS, in RUNS + 1 rounds.  Each round is a
# fresh psql session (the caller's sql function) that runs PREAMBLE, then
# EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) of every query once, then
# POSTAMBLE (statements whose output the caller reads from the round's
# file); round 0 is a warm-up.
# Interleaving the queries this way exposes them all to the same background
# load, which keeps the ratios meaningful on a busy machine.  Fills the
# associative arrays named MEDIAN, MIN and MAX with each query's "Execution
# Time"s (ms) over the measured rounds, and leaves round N's output in
# WORK/TAG_roundN.out.
bench_rounds() {
	local work=$1 tag=$2 runs=$3 preamble=$4 round i label line
	local -n queries=$5 labels=$6 medians=$7 mins=$8 maxes=$9
	local postamble=${10:-}
	local -a times
	for ((round = 0; round <= runs; round++)); do
		bs_log "$tag round $round of $runs$([ "$round" -eq 0 ] && echo ' (warm-up)')"
		{
			printf '%s\n' "$preamble"
			for label in "${labels[@]}"; do
				printf 'EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) %s;\n' "${queries[$label]}"
			done
			printf '%s\n' "$postamble"
		} | sql >"$work/${tag}_round$round.out"
		mapfile -t times < <(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$work/${tag}_round$round.out")
		if [ ${#times[@]} -ne ${#labels[@]} ]; then
			cat "$work/${tag}_round$round.out" >&2
			echo "$tag round $round: expected ${#labels[@]} execution times, got ${#times[@]}" >&2
			exit 1
		fi
		line=
		for i in "${!labels[@]}"; do
			[ "$round" -gt 0 ] && echo "${times[$i]}" >>"$work/${tag}_times.$i"
			line+="${labels[$i]} ${times[$i]%.*}  "
		done
		bs_log "  ms: $line"
	done
	for i in "${!labels[@]}"; do
		label=${labels[$i]}
		sort -g "$work/${tag}_times.$i" >"$work/${tag}_sorted.$i"
		medians[$label]=$(sed -n "$(((runs + 1) / 2))p" "$work/${tag}_sorted.$i")
		mins[$label]=$(head -1 "$work/${tag}_sorted.$i")
		maxes[$label]=$(tail -1 "$work/${tag}_sorted.$i")
	done
}

# bench_report_tables QUERIES LABELS MEDIAN MIN MAX: the Markdown table of the
# timed queries, then the table of the ratios read from standard input, one
# "numerator denominator target" line each (target - for none).
bench_report_tables() {
	local -n queries=$1 labels=$2 medians=$3 mins=$4 maxes=$5
	local label num den limit r
	echo "| query | median ms | min ms | max ms |"
	echo "|---|---:|---:|---:|"
	for label in "${labels[@]}"; do
		printf '| %s. `%s` | %.1f | %.1f | %.1f |\n' "$label" "${queries[$label]}" \
			"${medians[$label]}" "${mins[$label]}" "${maxes[$label]}"
	done
	echo
	echo "| ratio | value | target | |"
	echo "|---|---:|---|---|"
	while read -r num den limit; do
		r=$(awk -v a="${medians[$num]}" -v b="${medians[$den]}" 'BEGIN { printf "%.2f", a / b }')
		if [ "$limit" = - ]; then
			printf '| %s/%s | %s | - | |\n' "$num" "$den" "$r"
		else
			printf '| %s/%s | %s | <= %s | %s |\n' "$num" "$den" "$r" "$limit" \
				"$(awk -v r="$r" -v l="$limit" 'BEGIN { print (r <= l ? "PASS" : "FAIL") }')"
		fi
	done
}

# rss_anon PID: sets RSS to the RssAnon of PID in kB (no fork)
rss_anon() {
	local key value rest
	RSS=0
	while read -r key value rest; do
		if [ "$key" = RssAnon: ]; then RSS=$value; return; fi
	done <"/proc/$1/status"
}

# bench_peak_memory WORK TAG WARMUP QUERY: the backend's peak anonymous
# memory while it runs QUERY.  A fresh session runs WARMUP (to load and warm
# its caches), publishes its pid, and waits until a background loop has read
# the baseline RssAnon (the backend's private memory; shared_buffers are
# RssShmem); the loop then polls /proc/<pid>/status every ~2 ms while QUERY
# runs under EXPLAIN ANALYZE (without forking: the pause is a read with a
# timeout on a FIFO nobody writes).  That is fast enough to catch the copy
# PostgreSQL makes of an aggregate's result when it finishes, which lives
# only a few milliseconds.  Sets MEM_BASE, MEM_PEAK (kB), MEM_SAMPLES and
# MEM_QUERY_MS; its files are WORK/TAG_mem.*.
bench_peak_memory() {
	local work=$1 tag=$2 warmup=$3 query=$4 poller
	local m=$work/${tag}_mem
	(
		while [ ! -s "$m.pid" ]; do sleep 0.01; done
		pid=$(cat "$m.pid")
		mkfifo "$m.tick"
		exec {tick}<>"$m.tick"
		rss_anon "$pid"
		base=$RSS peak=$RSS samples=0
		touch "$m.ready"
		while [ ! -e "$m.done" ]; do
			rss_anon "$pid"
			[ "$RSS" -gt "$peak" ] && peak=$RSS
			samples=$((samples + 1))
			read -r -t 0.002 -u "$tick" || true
		done
		echo "$base $peak $samples" >"$m.result"
	) &
	poller=$!
	sql >"$m.out" <<-SQL
		$warmup
		\o $m.pid.tmp
		SELECT pg_backend_pid();
		\o
		\! mv $m.pid.tmp $m.pid
		\! while [ ! -e $m.ready ]; do sleep 0.01; done
		EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) $query;
		\! touch $m.done
	SQL
	wait "$poller"
	read -r MEM_BASE MEM_PEAK MEM_SAMPLES <"$m.result"
	MEM_QUERY_MS=$(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$m.out")
}
