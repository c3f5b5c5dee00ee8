#!/usr/bin/env bash
# bench/pair_cpu.sh — two builds' CPU time per query, in paired single-user runs.
#
# usage: sudo bash bench/pair_cpu.sh OLD_REF [NEW_REF]
#
# Builds OLD_REF (a git worktree of it under a temporary directory) and
# NEW_REF (the same; without NEW_REF, this checkout as it is, uncommitted
# changes included), installs each into a private copy of PostgreSQL 15
# (OLD_COPY, NEW_COPY: directories made as /opt/pgc/regress.sh makes them,
# by copying the system's PostgreSQL 15; PostgreSQL finds its share and lib
# directories relative to its binary), and loads one data directory once:
# bench/run.sh's tables (bench/lib.sh) in a template database, copied into
# database bench_old and bench_new, where each build creates its own version
# of the extension (0.1.0 has fewer functions) and its stored filter and
# sketch.  Both builds thus read the same table bytes.
#
# Then PAIRS pairs (after one warm-up pair): each pair runs a single-user
# backend (`postgres --single`) of the old build and one of the new, in
# alternating order (old first in even pairs, new first in odd ones).  Each
# backend reads the tables into its shared buffers, then runs every query
# once under EXPLAIN ANALYZE, reading its own CPU time (user + system, the
# first field of /proc/self/schedstat, in ns) before and after each query.
# CPU time leaves out time spent waiting for a CPU, so other processes on the
# machine stretch it only through the caches and memory they share.
#
# Per query it prints the median of the pairs' new/old ratios and a
# distribution-free confidence interval for that median (order statistics of
# the paired ratios; the binomial(PAIRS, 1/2) distribution gives the ranks
# and the exact coverage, at least 95%), with the medians of the CPU times.
#
# Environment: ROWS (10000000; fewer for a quick run), PAIRS (15, at least 9),
# OLD_COPY (/opt/pgc/speed-old), NEW_COPY (/opt/pgc/speed-new), DATA (the data
# directory; kept and reused when it already holds ROWS rows), QUERIES (labels
# to run, default all but Q, U, W, Ms and Md; N alone costs as much CPU as all the
# others), CHECK=no
# (skip comparing the builds' results), REPORT (a file to copy the report to).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	sed -n '2,4p' "$0" >&2
	exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "pair_cpu.sh: run as root (it installs into the copies and runs PostgreSQL as user postgres)" >&2
	exit 1
fi

HERE=$(cd "$(dirname "$0")/.." && pwd)
source "$HERE/scripts/lib.sh"
source "$HERE/bench/lib.sh"

OLD_REF=$1
NEW_REF=${2:-}
ROWS=${ROWS:-10000000}
PAIRS=${PAIRS:-15}
OLD_COPY=${OLD_COPY:-/opt/pgc/speed-old}
NEW_COPY=${NEW_COPY:-/opt/pgc/speed-new}
DATA=${DATA:-/var/tmp/bs_pair_cpu/data}
CAPACITY=$ROWS
FPR=0.01
CMS_PROBES=$((ROWS / 10))
CMS_GROUPS=1000
PG_SUBDIR=usr/lib/postgresql/15/bin
[ "$PAIRS" -ge 9 ] || { echo "pair_cpu.sh: PAIRS must be at least 9" >&2; exit 2; }

WORK=$(mktemp -d /var/tmp/bs_pair_cpu_work.XXXXXX)
chmod 755 "$WORK"
cleanup() {
	local dir
	for dir in "$WORK"/src_*; do
		[ -d "$dir" ] && git -C "$HERE" worktree remove --force "$dir" >/dev/null 2>&1
	done
	rm -rf "$WORK"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------
# The two builds, each in its own copy of PostgreSQL 15
# ---------------------------------------------------------------------------

# make_copy DIR: a private PostgreSQL 15, as /opt/pgc/regress.sh makes one
make_copy() {
	local c=$1
	[ -x "$c/$PG_SUBDIR/postgres" ] && return
	mkdir -p "$c/usr/lib/postgresql" "$c/usr/share/postgresql" "$c/usr/include"
	cp -a /usr/lib/postgresql/15 "$c/usr/lib/postgresql/"
	cp -a /usr/share/postgresql/15 "$c/usr/share/postgresql/"
	cp -a /usr/include/postgresql "$c/usr/include/"
}

# build_into TAG REF COPY: build REF (or this checkout for an empty REF) and
# install it into COPY; sets COMMIT[TAG]
declare -A COMMIT
build_into() {
	local tag=$1 ref=$2 c=$3 src
	make_copy "$c"
	if [ -n "$ref" ]; then
		COMMIT[$tag]=$(git -C "$HERE" rev-parse --short "$ref^{commit}")
		if [ "$(cat "$c/bloomsketch_build" 2>/dev/null)" = "${COMMIT[$tag]}" ]; then
			bs_log "$tag: ${COMMIT[$tag]} is installed in $c already"
			return
		fi
		src=$WORK/src_$tag
		git -C "$HERE" worktree add --detach "$src" "$ref" >/dev/null 2>&1
	else
		src=$HERE
		COMMIT[$tag]="$(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD -- src sql && echo '' || echo '+changes')"
	fi
	rm -f "$c/bloomsketch_build"
	bs_log "$tag: building ${COMMIT[$tag]} into $c"
	# the installed extension files of another build must not linger
	rm -f "$c"/usr/share/postgresql/15/extension/bloomsketch*
	make -s -C "$src" -j2 PG_CONFIG="$c/$PG_SUBDIR/pg_config" >"$WORK/build_$tag.log" 2>&1 &&
		make -s -C "$src" PG_CONFIG="$c/$PG_SUBDIR/pg_config" install >>"$WORK/build_$tag.log" 2>&1 ||
		{ cat "$WORK/build_$tag.log" >&2; exit 1; }
	[ -z "$ref" ] || echo "${COMMIT[$tag]}" >"$c/bloomsketch_build"
}
build_into old "$OLD_REF" "$OLD_COPY"
build_into new "$NEW_REF" "$NEW_COPY"

# ---------------------------------------------------------------------------
# One data directory, loaded once
# ---------------------------------------------------------------------------
OPTIONS=(-c shared_buffers=3GB -c work_mem=1GB -c max_parallel_workers_per_gather=0
	-c jit=off -c fsync=off -c full_page_writes=off -c synchronous_commit=off)

# single COPY DATABASE: a single-user backend of COPY's build, statements on
# standard input (one a line), its output on standard output
single() {
	runuser -u postgres -- "$1/$PG_SUBDIR/postgres" --single -D "$DATA" "${OPTIONS[@]}" "$2"
}

# run_checked COPY DATABASE LOG: as single, failing on any ERROR
run_checked() {
	single "$1" "$2" >"$3" 2>&1 || { cat "$3" >&2; exit 1; }
	if grep -q 'ERROR' "$3"; then cat "$3" >&2; exit 1; fi
}

# the SQL of bench/lib.sh, one statement a line, for the single-user backend
one_line() { tr '\n\t' '  ' | sed 's/;[[:space:]]*/;\n/g'; }

if [ "$(cat "$DATA/bench_rows" 2>/dev/null)" != "$ROWS" ]; then
	bs_log "loading $ROWS rows into a fresh data directory $DATA"
	rm -rf "$DATA"
	mkdir -p "$DATA"
	chown postgres: "$DATA" "$(dirname "$DATA")"
	runuser -u postgres -- "$NEW_COPY/$PG_SUBDIR/initdb" -D "$DATA" -U postgres -A trust \
		--no-sync >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; exit 1; }
	echo "CREATE DATABASE bench_base" | run_checked "$NEW_COPY" postgres "$WORK/load0.log"
	{
		bench_t_sql "$ROWS"
		echo "CREATE TABLE other AS SELECT i AS id FROM generate_series($ROWS / 2 + 1::bigint, $ROWS / 2 + $ROWS) i;"
		echo "CREATE TABLE cms_probe AS SELECT s FROM t WHERE id <= $CMS_PROBES;"
		echo "CREATE TABLE cms_groups AS SELECT id, (id % $CMS_GROUPS)::int AS g FROM t;"
		echo "VACUUM (FREEZE, ANALYZE) other; VACUUM (FREEZE, ANALYZE) cms_probe; VACUUM (FREEZE, ANALYZE) cms_groups;"
	} | one_line | run_checked "$NEW_COPY" bench_base "$WORK/load1.log"
	printf 'CREATE DATABASE bench_old TEMPLATE bench_base;\nCREATE DATABASE bench_new TEMPLATE bench_base;\n' |
		run_checked "$NEW_COPY" postgres "$WORK/load2.log"
	echo "$ROWS" >"$DATA/bench_rows"
else
	bs_log "reusing the data directory $DATA ($ROWS rows)"
fi

# each build's extension, at its own version, with its stored filter and sketch
for tag in old new; do
	copy=$([ $tag = old ] && echo "$OLD_COPY" || echo "$NEW_COPY")
	{
		echo "DROP EXTENSION IF EXISTS bloomsketch CASCADE;"
		echo "DROP TABLE IF EXISTS other_filter, cms_store;"
		echo "CREATE EXTENSION bloomsketch;"
		echo "CREATE TABLE other_filter AS SELECT bloom_agg(id, $CAPACITY, $FPR) AS f FROM other;"
		echo "CREATE TABLE cms_store AS SELECT cms_agg(s) AS sketch FROM t;"
		echo "VACUUM (FREEZE, ANALYZE) other_filter; VACUUM (FREEZE, ANALYZE) cms_store;"
		# stored heavy-hitters summaries to merge, in builds that have them:
		# 10,000 parts of one value in 300 (parts share their values) and
		# 10,000 of consecutive ids (each part values of its own)
		if grep -qs "topk_merge_agg" "$copy"/usr/share/postgresql/15/extension/bloomsketch--*.sql; then
			echo "DROP TABLE IF EXISTS topk_shared, topk_disjoint;"
			echo "CREATE TABLE topk_shared AS SELECT id % 10000 AS part, topk_agg(id / 10000 % 300, 100) AS s FROM t GROUP BY 1;"
			echo "CREATE TABLE topk_disjoint AS SELECT id / 1000 AS part, topk_agg(id, 100) AS s FROM t GROUP BY 1;"
			echo "VACUUM (FREEZE, ANALYZE) topk_shared; VACUUM (FREEZE, ANALYZE) topk_disjoint;"
		fi
	} | one_line | run_checked "$copy" "bench_$tag" "$WORK/ext_$tag.log"
done

# ---------------------------------------------------------------------------
# The queries: every bench/run.sh query whose functions 0.1.0 has
# ---------------------------------------------------------------------------
LABELS=(A B Bb C D Db F I K L N)
declare -A QUERY
QUERY[A]="SELECT count(id) FROM t"
QUERY[B]="SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t"
QUERY[Bb]="SELECT bloom_agg(id, $CAPACITY, $FPR, 'blocked') FROM t"
QUERY[C]="SELECT count(s) FROM t"
QUERY[D]="SELECT bloom_agg(s, $CAPACITY, $FPR) FROM t"
QUERY[Db]="SELECT bloom_agg(s, $CAPACITY, $FPR, 'blocked') FROM t"
QUERY[F]="SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM other_filter), id)"
QUERY[I]="SELECT cms_agg(id) FROM t"
QUERY[K]="SELECT cms_agg(s) FROM t"
QUERY[L]="SELECT sum(cms_estimate((SELECT sketch FROM cms_store), s)) FROM cms_probe"
QUERY[N]="SELECT g, cms_agg(id) FROM cms_groups GROUP BY g"
# Heavy hitters, for builds that both have topk_agg (name them in QUERIES):
# distinct ids, the texts, and 1,000 values of 10,000 rows each.
QUERY[Q]="SELECT topk_agg(id, 100) FROM t"
QUERY[U]="SELECT topk_agg(s, 100) FROM t"
QUERY[W]="SELECT topk_agg(id % 1000, 100) FROM t"
# Merging the stored summaries above, in builds that both have them.
QUERY[Ms]="SELECT topk_merge_agg(s) FROM topk_shared"
QUERY[Md]="SELECT topk_merge_agg(s) FROM topk_disjoint"
if [ -n "${QUERIES:-}" ]; then read -r -a LABELS <<<"$QUERIES"; fi
for label in "${LABELS[@]}"; do
	[ -n "${QUERY[$label]:-}" ] || { echo "pair_cpu.sh: no query $label" >&2; exit 2; }
done

# Both builds must give the same bytes: the md5 of each result, once per
# build (CHECK=no skips it).
SAME_RESULTS="not compared (CHECK=no)"
for tag in $([ "${CHECK:-yes}" = no ] || echo old new); do
	copy=$([ $tag = old ] && echo "$OLD_COPY" || echo "$NEW_COPY")
	for label in B Bb D Db I K; do
		echo "SELECT 'digest=' || md5(x::text) AS r FROM (${QUERY[$label]}) q(x);"
	done >"$WORK/check.sql"
	for label in F L; do echo "SELECT 'digest=' || x AS r FROM (${QUERY[$label]}) q(x);"; done >>"$WORK/check.sql"
	run_checked "$copy" "bench_$tag" "$WORK/check_$tag.log" <"$WORK/check.sql"
	grep -o 'digest=[0-9a-f]*' "$WORK/check_$tag.log" >"$WORK/digests_$tag"
done
# Builds of one format version must agree byte for byte; 0.2.0 writes
# version-2 filters (another m), so against 0.1.0 only F and L may agree.
if [ "${CHECK:-yes}" = no ]; then
	:
elif cmp -s "$WORK/digests_old" "$WORK/digests_new" && [ "$(wc -l <"$WORK/digests_new")" -eq 8 ]; then
	SAME_RESULTS="the same bytes for B Bb D Db I K and the same results of F and L"
else
	SAME_RESULTS="different bytes of B Bb D Db I K; F $(sed -n 's/^digest=//;7p' "$WORK/digests_old") and L $(sed -n 's/^digest=//;8p' "$WORK/digests_old") (old), F $(sed -n 's/^digest=//;7p' "$WORK/digests_new") and L $(sed -n 's/^digest=//;8p' "$WORK/digests_new") (new)"
fi
bs_log "the builds give $SAME_RESULTS"

# ---------------------------------------------------------------------------
# The pairs
# ---------------------------------------------------------------------------
CPU_READING="SELECT 'cpu=' || split_part(pg_read_file('/proc/self/schedstat'), ' ', 1) AS r;"
{
	# map the tables' shared buffers into this backend first (bench_map_sql)
	bench_map_sql t other_filter cms_store cms_probe $([[ " ${LABELS[*]} " == *" N "* ]] && echo cms_groups)
	echo "$CPU_READING"
	for label in "${LABELS[@]}"; do
		echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF, COSTS OFF) ${QUERY[$label]};"
		echo "$CPU_READING"
	done
} >"$WORK/session.sql"

# session TAG PAIR: one backend of TAG's build; appends each query's CPU ms
session() {
	local tag=$1 pair=$2 copy out i
	local -a cpu
	copy=$([ "$tag" = old ] && echo "$OLD_COPY" || echo "$NEW_COPY")
	out=$WORK/session_$tag.$pair.log
	run_checked "$copy" "bench_$tag" "$out" <"$WORK/session.sql"
	mapfile -t cpu < <(grep -o 'cpu=[0-9]*' "$out" | cut -d= -f2)
	if [ ${#cpu[@]} -ne $((${#LABELS[@]} + 1)) ]; then
		cat "$out" >&2
		echo "pair_cpu.sh: pair $pair ($tag): expected $((${#LABELS[@]} + 1)) CPU readings, got ${#cpu[@]}" >&2
		exit 1
	fi
	for i in "${!LABELS[@]}"; do
		[ "$pair" -gt 0 ] && echo "$(((cpu[i + 1] - cpu[i]) / 1000))e-3" >>"$WORK/cpu_$tag.${LABELS[$i]}"
	done
	return 0
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
for ((pair = 0; pair <= PAIRS; pair++)); do
	if ((pair % 2 == 0)); then order=(old new); else order=(new old); fi
	for tag in "${order[@]}"; do session "$tag" "$pair"; done
	bs_log "pair $pair of $PAIRS$([ $pair -eq 0 ] && echo ' (warm-up)') done (${order[*]})"
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------
# ratio_stats OLD_FILE NEW_FILE: median old ms, median new ms, median
# new/old, CI low, CI high, coverage; the CI is [r(l), r(n + 1 - l)] for the
# largest l with P(Binomial(n, 1/2) <= l - 1) <= 0.025
ratio_stats() {
	paste "$1" "$2" | awk '
		function median(a, n,   b, i, j, t) {
			for (i = 1; i <= n; i++) b[i] = a[i]
			for (i = 2; i <= n; i++) for (j = i; j > 1 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
			return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
		}
		{ n++; o[n] = $1; w[n] = $2; r[n] = $2 / $1 }
		END {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && r[j - 1] > r[j]; j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
			p = 0.5 ^ n; cdf = p; l = 0
			for (k = 0; cdf <= 0.025; k++) { l = k + 1; tail = cdf; p = p * (n - k) / (k + 1); cdf += p }
			printf "%.1f %.1f %.3f %.3f %.3f %.1f\n", median(o, n), median(w, n), median(r, n),
				r[l], r[n + 1 - l], (1 - 2 * tail) * 100
		}'
}

{
	echo "# bloomsketch paired CPU time: ${COMMIT[old]} (old) against ${COMMIT[new]} (new)"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); load average before $LOAD_BEFORE, after $LOAD_AFTER"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
	echo "- results: $SAME_RESULTS"
	echo "- method: $ROWS rows, $PAIRS pairs of single-user backends (after one warm-up pair), old and new" \
		"alternating; CPU time of each query (/proc/self/schedstat) after reading the tables into shared buffers"
	echo
	echo "| query | old CPU ms | new CPU ms | new/old (median of pairs) | CI of the median | coverage |"
	echo "|---|---:|---:|---:|---|---:|"
	for label in "${LABELS[@]}"; do
		read -r om nm ratio lo hi cover < <(ratio_stats "$WORK/cpu_old.$label" "$WORK/cpu_new.$label")
		printf '| %s `%s` | %s | %s | %s%s | %s – %s | %s%% |\n' "$label" "${QUERY[$label]}" "$om" "$nm" \
			"$ratio" "$(awk -v r="$ratio" 'BEGIN { if (r > 1.10) printf " **> 1.10**" }')" "$lo" "$hi" "$cover"
	done
} >"$WORK/report.md"
echo
cat "$WORK/report.md"
if [ -n "${REPORT:-}" ]; then cp "$WORK/report.md" "$REPORT"; fi
