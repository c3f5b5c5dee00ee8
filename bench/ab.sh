#!/usr/bin/env bash
# bench/ab.sh — what a change costs in speed: two builds of bloomsketch side
# by side in ONE server run.
#
#   bash bench/ab.sh OLD_COMMIT [NEW_COMMIT]      (as root; NEW defaults to HEAD)
#   RUNS=7 SECTIONS="bloom cms" AB_REPORT=/tmp/ab.md bash bench/ab.sh 96502f5
#
# Why: bench/run.sh times one build, and two of its runs differ by more than
# a small change costs (a VM's background load, which memory the host backs,
# the page cache).  Here both builds run in the same server, on the same data,
# in interleaved rounds (each round: a fresh session in the old build's
# database, then one in the new build's), so a burst of load or a slow stretch
# hits both alike and the new/old ratios are about the code alone.
#
# How: each commit is checked out in a git worktree under /tmp, built with
# PGXS, and installed under a name of its own — bloomsketch_old and
# bloomsketch_new (bloomsketch_<tag>.so, .control and the SQL scripts renamed)
# — so the two coexist and nothing named bloomsketch (the work tree's own
# install) is touched; this script never runs `make install`.  One throwaway
# server (port 54392, private socket, bench/run.sh's settings) gets one
# database, bench, with bench/run.sh's tables and each build's extension in a
# schema of its own (CREATE EXTENSION bloomsketch_old SCHEMA old, and new):
# a session of a build runs with search_path = <tag>, public.  Both builds
# read the very same tables t, other, cms_probe, cms_groups and tg; only the
# small tables whose columns have the extension's types (the stored filter
# and sketch, the one-item values) exist once per schema.  (With a database
# per build, count(id), which never calls the extension, differed by up to
# 60% between the two copies of t: where a table's buffers sit in memory
# matters more on this VM than a small change in the code.)  Then, section
# by section, every timed query of bench/run.sh runs for both: one warm-up round,
# then $RUNS measured rounds; the figure is the median "Execution Time" of
# EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON), as in bench/run.sh, and beside
# it the median CPU time the backend spent on the query, which a busy
# machine disturbs less (see CPU_READING below).
#
#   bloom section: A count(id), B bloom_agg(id), C count(s), D bloom_agg(s),
#                  E hll_add_agg, F/F' bloom_contains probe, G exact semi-join
#   cms section:   H count(id), I cms_agg(id), J count(s), K cms_agg(s),
#                  L cms_estimate x 1M, M hashtext x 1M, N/O per-group
#   scaleout:      bench/scaleout.sh's queries: P1-P6 under a forced parallel
#                  plan with 2 workers (count(id), bloom_agg(id), cms_agg(id),
#                  and bloom_union_agg, bloom_intersect_agg, cms_merge_agg over
#                  $TINY_ROWS one-item values), then serially S1-S3 the three
#                  merge aggregates, S4 the blocked scheme and S5/S6 GROUP BY
#                  g (1,000 groups) with bloom_agg and hll_add_agg
#
# The ratios that carry targets are B/A, D/C (bloom) and I/H, K/J (cms); the
# report gives each for old and new and how much it moved.  bench/run.sh's
# peak-memory probe is not repeated here (this measures speed only).
#
# Both databases' tables of one section fit in shared_buffers=3GB together
# (about 2.0 GB for bloom, 2.3 GB for cms); the bloom section's own tables are
# dropped before the cms section loads its own, so the two never compete.
#
# On exit (also on error or Ctrl-C) it stops the server and removes the
# worktrees and every bloomsketch_old/_new file it installed.
source "$(dirname "$0")/../scripts/lib.sh"
source "$(dirname "$0")/lib.sh"
bs_require_root "$@"

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: bash bench/ab.sh OLD_COMMIT [NEW_COMMIT]" >&2
	exit 2
fi
OLD_COMMIT=$(git -C "$BS_ROOT" rev-parse --verify "$1^{commit}")
NEW_COMMIT=$(git -C "$BS_ROOT" rev-parse --verify "${2:-HEAD}^{commit}")

ROWS=${ROWS:-10000000}    # rows of t (smaller only for a smoke test)
RUNS=${RUNS:-5}            # measured rounds per build, after one warm-up round
SECTIONS=${SECTIONS:-"bloom cms scaleout"}
TINY_ROWS=${TINY_ROWS:-2000000}  # one-item filters and sketches of the scaleout section
CAPACITY=10000000
FPR=0.01
PORT=54392
TAGS=(old new)
declare -A COMMIT=([old]=$OLD_COMMIT [new]=$NEW_COMMIT)

PG_CONFIG=$PG_BIN/pg_config
PKGLIBDIR=$($PG_CONFIG --pkglibdir)
EXTDIR=$($PG_CONFIG --sharedir)/extension

bs_install_packages postgresql-$BS_PG_MAJOR-hll

WORK=$(mktemp -d /tmp/bs_ab.XXXXXX)
INSTALLED=()               # files this script put into PostgreSQL's directories
WORKTREES=()

cleanup() {
	local f wt
	bs_stop_server
	for f in "${INSTALLED[@]}"; do rm -f "$f"; done
	for wt in "${WORKTREES[@]}"; do
		git -C "$BS_ROOT" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	done
	git -C "$BS_ROOT" worktree prune 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------
# Build each commit in a worktree and install it as bloomsketch_<tag>.
# ---------------------------------------------------------------------------
install_as() {
	local tag=$1 wt=$2 name=bloomsketch_$1 version f base
	version=$(sed -n "s/^default_version *= *'\(.*\)'.*/\1/p" "$wt/bloomsketch.control")
	install -m 755 "$wt/bloomsketch.so" "$PKGLIBDIR/$name.so"
	INSTALLED+=("$PKGLIBDIR/$name.so")
	cat >"$EXTDIR/$name.control" <<-EOF
		# bloomsketch built from ${COMMIT[$tag]} for bench/ab.sh (removed when it ends)
		comment = 'bloomsketch ($tag build, ${COMMIT[$tag]:0:7}) for bench/ab.sh'
		default_version = '$version'
		module_pathname = '\$libdir/$name'
		relocatable = true
	EOF
	INSTALLED+=("$EXTDIR/$name.control")
	# the install scripts and any update scripts (old: 0.1.0 and 0.1.0--0.2.0, or
	# 0.1.0 alone; new: 0.1.0, 0.2.0 and 0.1.0--0.2.0)
	for f in "$wt"/sql/bloomsketch--*.sql; do
		base=$(basename "$f")
		install -m 644 "$f" "$EXTDIR/$name--${base#bloomsketch--}"
		INSTALLED+=("$EXTDIR/$name--${base#bloomsketch--}")
	done
	bs_log "$tag: ${COMMIT[$tag]:0:7} installed as extension $name (default_version $version)"
}

for tag in "${TAGS[@]}"; do
	wt=$WORK/$tag
	WORKTREES+=("$wt")
	git -C "$BS_ROOT" worktree add --detach "$wt" "${COMMIT[$tag]}" >/dev/null
	bs_log "$tag: building ${COMMIT[$tag]:0:7} in $wt"
	make -C "$wt" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" >"$WORK/build.$tag.log" 2>&1 ||
		{ cat "$WORK/build.$tag.log" >&2; exit 1; }
	install_as "$tag" "$wt"
done

# ---------------------------------------------------------------------------
# One server with bench/run.sh's settings, on port $PORT and a private socket
# (bs_start_server would take port 54329; bs_stop_server stops this one too).
# ---------------------------------------------------------------------------
BS_PGDIR=$(mktemp -d /tmp/bs_ab-pg.XXXXXX)
chown postgres:postgres "$BS_PGDIR"
chmod 700 "$BS_PGDIR"
export PGHOST=$BS_PGDIR PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres
OPTIONS="-c listen_addresses='' -k $BS_PGDIR -p $PORT"
for setting in shared_buffers=3GB max_parallel_workers_per_gather=0 jit=off \
	work_mem=1GB track_io_timing=off autovacuum=off wal_level=minimal \
	max_wal_senders=0 max_wal_size=20GB checkpoint_timeout=1h fsync=off \
	synchronous_commit=off full_page_writes=off; do
	OPTIONS+=" -c $setting"
done
bs_log "starting a throwaway PostgreSQL 15 server in $BS_PGDIR (port $PORT)"
runuser -u postgres -- $PG_BIN/initdb -D "$BS_PGDIR/data" -U postgres -A trust \
	--no-sync >"$BS_PGDIR/initdb.log" 2>&1 || { cat "$BS_PGDIR/initdb.log" >&2; exit 1; }
runuser -u postgres -- $PG_BIN/pg_ctl -D "$BS_PGDIR/data" -l "$BS_PGDIR/server.log" \
	-o "$OPTIONS" -w start >/dev/null || { cat "$BS_PGDIR/server.log" >&2; exit 1; }

sql() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }
# a session of one build: its schema first on the search path
in_db() { local tag=$1; shift; PGOPTIONS="-c search_path=$tag,public" sql -d bench "$@"; }

# ---------------------------------------------------------------------------
# Data, as bench/run.sh builds it (bench/lib.sh), once, in database bench.
# ---------------------------------------------------------------------------
bs_log "loading t ($ROWS rows) into database bench"
sql -c "CREATE DATABASE bench"
{
	for tag in "${TAGS[@]}"; do
		echo "CREATE SCHEMA $tag;"
		echo "CREATE EXTENSION bloomsketch_$tag SCHEMA $tag;"
	done
	echo "CREATE EXTENSION pg_prewarm;"
	echo "CREATE EXTENSION hll;"
	bench_t_sql "$ROWS"
} | sql -d bench >"$WORK/load.log" 2>&1 || { cat "$WORK/load.log" >&2; exit 1; }
for tag in "${TAGS[@]}"; do
	bs_log "schema $tag: extension $(in_db "$tag" -c "SELECT extname || ' ' || extversion FROM pg_extension WHERE extname = 'bloomsketch_$tag'"), t $(in_db "$tag" -c "SELECT pg_size_pretty(pg_relation_size('t'))")"
done

# median/min/max of a file of times (the same median as bench/run.sh's)
stats() { sort -g "$1" | awk -v n="$RUNS" '{ v[NR] = $1 } END { printf "%s %s %s\n", v[int((n + 1) / 2)], v[1], v[NR] }'; }

# run_rounds SECTION PREAMBLE_FUNCTION LABELS...: STATEMENT[label] is timed.
# Round r runs a fresh session of the old build, then one of the new; round 0 is
# the warm-up.  Times go to $WORK/<section>.<tag>.<label index>.
run_rounds() {
	local section=$1 preamble=$2 round tag i line out med min max
	shift 2
	local labels=("$@")
	for ((round = 0; round <= RUNS; round++)); do
		for tag in "${TAGS[@]}"; do
			out=$WORK/$section.$tag.round$round.out
			{
				$preamble "$tag"
				echo "$CPU_READING"
				for label in "${labels[@]}"; do
					printf '%s %s;\n' "$EXPLAIN" "${STATEMENT[$label]}"
					echo "$CPU_READING"
				done
			} | in_db "$tag" >"$out"
			mapfile -t times < <(sed -n 's/^Execution Time: \([0-9.]*\) ms$/\1/p' "$out")
			mapfile -t cpu < <(sed -n 's/^cpu_ns=\([0-9]*\).*$/\1/p' "$out")
			if [ ${#times[@]} -ne ${#labels[@]} ] || [ ${#cpu[@]} -ne $((${#labels[@]} + 1)) ]; then
				cat "$out" >&2
				echo "$section round $round ($tag): expected ${#labels[@]} execution times and CPU readings, got ${#times[@]} and $((${#cpu[@]} - 1))" >&2
				exit 1
			fi
			line=
			for i in "${!labels[@]}"; do
				if [ "$round" -gt 0 ]; then
					echo "${times[$i]}" >>"$WORK/$section.$tag.$i"
					echo $(((cpu[i + 1] - cpu[i]) / 1000))e-3 >>"$WORK/$section.$tag.$i.cpu"
				fi
				line+="${labels[$i]} ${times[$i]%.*}  "
			done
			bs_log "$section round $round$([ $round -eq 0 ] && echo ' (warm-up)') $tag ms: $line"
		done
	done
	for i in "${!labels[@]}"; do
		for tag in "${TAGS[@]}"; do
			read -r med min max < <(stats "$WORK/$section.$tag.$i")
			MED[$tag.${labels[$i]}]=$med MIN[$tag.${labels[$i]}]=$min MAX[$tag.${labels[$i]}]=$max
			read -r med min max < <(stats "$WORK/$section.$tag.$i.cpu")
			CPU[$tag.${labels[$i]}]=$med
		done
	done
}

EXPLAIN="EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)"
# The backend's own CPU time, from the kernel's per-task scheduler
# statistics (Documentation/scheduler/sched-stats.rst: the first field of
# /proc/<pid>/schedstat is the time spent on a CPU, in ns), read before and
# after each query in the same session.  Unlike the Execution Time it leaves
# out time the backend spent waiting for a CPU, which is what makes two
# builds' times differ on a busy machine; it still includes the memory stalls
# that other tenants' traffic causes.
CPU_READING="SELECT 'cpu_ns=' || split_part(pg_read_file('/proc/self/schedstat'), ' ', 1);"
declare -A QUERY STATEMENT MED MIN MAX CPU SERIAL_LABEL
REPORT=$WORK/report.md
: >"$REPORT"

# query_table LABELS...: one row per query, old and new side by side
query_table() {
	local label
	echo "| query | old median ms (min-max) | new median ms (min-max) | new/old | old CPU ms | new CPU ms | new/old CPU |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for label in "$@"; do
		awk -v l="$label" -v q="${QUERY[$label]}" \
			-v om="${MED[old.$label]}" -v on="${MIN[old.$label]}" -v ox="${MAX[old.$label]}" \
			-v nm="${MED[new.$label]}" -v nn="${MIN[new.$label]}" -v nx="${MAX[new.$label]}" \
			-v oc="${CPU[old.$label]:-0}" -v nc="${CPU[new.$label]:-0}" -v serial="${SERIAL_LABEL[$label]:-1}" \
			'BEGIN { printf "| %s. `%s` | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) | %.3f%s |",
				l, q, om, on, ox, nm, nn, nx, nm / om, (nm / om > 1.10 ? " **>10% slower**" : "")
				if (serial) printf " %.1f | %.1f | %.3f%s |\n", oc, nc, nc / oc, (nc / oc > 1.10 ? " **>10% more**" : "")
				else printf " – | – | – |\n" }'
	done
}

# ratio_table "NUM DEN TARGET"...: each ratio of medians for old and new
ratio_table() {
	local num den target
	echo "| ratio | target | old | new | change | old, CPU | new, CPU | change, CPU |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	for spec in "$@"; do
		read -r num den target <<<"$spec"
		awk -v n="$num" -v d="$den" -v t="$target" \
			-v on="${MED[old.$num]}" -v od="${MED[old.$den]}" \
			-v nn="${MED[new.$num]}" -v nd="${MED[new.$den]}" \
			-v ocn="${CPU[old.$num]}" -v ocd="${CPU[old.$den]}" \
			-v ncn="${CPU[new.$num]}" -v ncd="${CPU[new.$den]}" \
			-v cpu="$((${SERIAL_LABEL[$num]:-1} && ${SERIAL_LABEL[$den]:-1}))" \
			'BEGIN { o = on / od; w = nn / nd
				printf "| %s/%s | %s | %.3f | %.3f | %+.1f%% |", n, d, (t == "-" ? "-" : "<= " t), o, w, (w / o - 1) * 100
				if (!cpu) { printf " – | – | – |\n"; exit }
				oc = ocn / ocd; nc = ncn / ncd
				printf " %.3f | %.3f | %+.1f%% |\n", oc, nc, (nc / oc - 1) * 100 }'
	done
}

# ===========================================================================
# Bloom filters (bench/run.sh's first section)
# ===========================================================================
if [[ " $SECTIONS " == *" bloom "* ]]; then
	bs_log "bloom: loading other and its stored filter in both databases"
	# other once, in public; each build's stored filter of it in its schema
	bench_bloom_tables_sql "$ROWS" "$CAPACITY" "$FPR" | in_db old | sed "s/^/==> /" >&2
	in_db old -c "ALTER TABLE old.other SET SCHEMA public"
	in_db new -c "CREATE TABLE other_filter AS SELECT bloom_agg(id, $CAPACITY, $FPR) AS f FROM other" \
		-c "VACUUM (FREEZE, ANALYZE) other_filter" -c "SELECT pg_prewarm('other_filter'), pg_prewarm(reltoastrelid) FROM pg_class WHERE oid = 'other_filter'::regclass" >/dev/null

	LABELS=(A B C D E F "F'" G)
	QUERY[A]="SELECT count(id) FROM t"
	QUERY[B]="SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t"
	QUERY[C]="SELECT count(s) FROM t"
	QUERY[D]="SELECT bloom_agg(s, $CAPACITY, $FPR) FROM t"
	QUERY[E]="SELECT hll_add_agg(hll_hash_bigint(id)) FROM t"
	QUERY[F]="SELECT count(*) FROM t WHERE bloom_contains((SELECT f FROM other_filter), id)"
	QUERY[F\']="PREPARE p(bloomfilter) AS SELECT count(*) FROM t WHERE bloom_contains(\$1, id); EXECUTE p(:'filter')"
	QUERY[G]="SELECT count(*) FROM t WHERE id IN (SELECT id FROM other)"
	for label in "${LABELS[@]}"; do STATEMENT[$label]=${QUERY[$label]}; done
	STATEMENT[F\']="EXECUTE p(:'filter')"
	# as bench/run.sh's PREAMBLE, with the build's own library
	bloom_preamble() {
		cat <<-SQL
			LOAD 'bloomsketch_$1';
			LOAD 'hll';
			SELECT count(*) FROM t;
			SELECT count(*) FROM other;
			SELECT f::text AS filter FROM other_filter \gset
			PREPARE p(bloomfilter) AS SELECT count(*) FROM t WHERE bloom_contains(\$1, id);
		SQL
	}

	# what F, F' and G find, per build (a check that both builds answer alike)
	declare -A COUNTS
	for tag in "${TAGS[@]}"; do
		COUNTS[$tag]=$({
			bloom_preamble "$tag"
			echo "SELECT 'F=' || count(*) FROM t WHERE bloom_contains((SELECT f FROM other_filter), id);"
			echo "EXECUTE p(:'filter');"
			echo "SELECT 'G=' || count(*) FROM t WHERE id IN (SELECT id FROM other);"
		} | in_db "$tag" | grep -E '^(F=|G=|[0-9]+$)' | tail -3 | paste -sd' ')
		bs_log "bloom: $tag counts: ${COUNTS[$tag]} (F, F', G)"
	done

	BLOOM_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
	run_rounds bloom bloom_preamble "${LABELS[@]}"
	{
		echo "## Bloom filters (bench/run.sh section 1)"
		echo
		echo "Load average before timing: $BLOOM_LOAD; after: $(cut -d' ' -f1-3 /proc/loadavg)."
		echo "Rows found (F, G, F'): old ${COUNTS[old]}; new ${COUNTS[new]}."
		echo
		query_table "${LABELS[@]}"
		echo
		ratio_table "B A 1.6" "D C 1.6" "F A 1.6" "F G 0.2" "F' A 1.6" "F' G 0.2" "E A -"
		echo
	} >>"$REPORT"

	# free their shared buffers for the cms section's tables
	in_db old -c "DROP TABLE public.other, old.other_filter, new.other_filter"
fi

# ===========================================================================
# Count-min sketches (bench/run.sh's cms section)
# ===========================================================================
if [[ " $SECTIONS " == *" cms "* ]]; then
	CMS_PROBES=1000000
	CMS_GROUPS=1000
	bs_log "cms: storing the sketch of t.s and $CMS_PROBES values to look up in both databases"
	declare -A CMS_SUM
	# cms_probe and cms_groups once, in public; each build's stored sketch in its schema
	bench_cms_tables_sql "$CMS_PROBES" "$CMS_GROUPS" | in_db old | sed "s/^/==> /" >&2
	in_db old -c "ALTER TABLE old.cms_probe SET SCHEMA public" -c "ALTER TABLE old.cms_groups SET SCHEMA public"
	in_db new -c "CREATE TABLE cms_store AS SELECT cms_agg(s) AS sketch FROM t" \
		-c "VACUUM (FREEZE, ANALYZE) cms_store" -c "SELECT pg_prewarm('cms_store'), pg_prewarm(reltoastrelid) FROM pg_class WHERE oid = 'cms_store'::regclass" >/dev/null
	for tag in "${TAGS[@]}"; do
		CMS_SUM[$tag]=$(in_db "$tag" -c "SELECT sum(cms_estimate((SELECT sketch FROM cms_store), s)) FROM cms_probe")
		bs_log "cms: $tag: sum of $CMS_PROBES estimates ${CMS_SUM[$tag]}"
	done

	LABELS=(H I J K L M N O)
	QUERY[H]="SELECT count(id) FROM t"
	QUERY[I]="SELECT cms_agg(id) FROM t"
	QUERY[J]="SELECT count(s) FROM t"
	QUERY[K]="SELECT cms_agg(s) FROM t"
	QUERY[L]="SELECT sum(cms_estimate((SELECT sketch FROM cms_store), s)) FROM cms_probe"
	QUERY[M]="SELECT sum(hashtext(s)::bigint) FROM cms_probe"
	QUERY[N]="SELECT g, cms_agg(id) FROM cms_groups GROUP BY g"
	QUERY[O]="SELECT g, count(*) FROM cms_groups GROUP BY g"
	for label in "${LABELS[@]}"; do STATEMENT[$label]=${QUERY[$label]}; done
	cms_preamble() {
		echo "LOAD 'bloomsketch_$1'; SELECT count(*) FROM t; SELECT count(*) FROM cms_probe; SELECT count(*) FROM cms_groups;"
	}

	CMS_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
	run_rounds cms cms_preamble "${LABELS[@]}"
	{
		echo "## Count-min sketches (bench/run.sh cms section)"
		echo
		echo "Load average before timing: $CMS_LOAD; after: $(cut -d' ' -f1-3 /proc/loadavg)."
		echo "Sum of the $CMS_PROBES estimates of query L: old ${CMS_SUM[old]}; new ${CMS_SUM[new]}."
		echo
		query_table "${LABELS[@]}"
		echo
		ratio_table "I H 1.4" "K J 1.4" "L M 1.5" "N O -"
		echo
	} >>"$REPORT"
fi

# ===========================================================================
# Parallel query and the other bench/scaleout.sh measures
# ===========================================================================
if [[ " $SECTIONS " == *" scaleout "* ]]; then
	bs_log "scaleout: loading $TINY_ROWS one-item filters and sketches and t's groups in both databases"
	in_db old -c "CREATE TABLE public.tg AS SELECT id, (id % 1000)::int AS g FROM t" \
		-c "VACUUM (FREEZE, ANALYZE) public.tg" >/dev/null
	for tag in "${TAGS[@]}"; do
		in_db "$tag" <<-SQL
			CREATE TABLE tiny_values AS
				SELECT bloom_add(bloom_create(1, 0.01), i) AS f, cms_add(cms_create_dims(5, 2), i) AS c
				FROM generate_series(1::bigint, $TINY_ROWS) i;
			VACUUM (FREEZE, ANALYZE) tiny_values;
			CHECKPOINT;
			SELECT sum(pg_prewarm(c)) FROM (VALUES ('t'::regclass), ('tiny_values'), ('tg')) v(c);
		SQL
	done >/dev/null
	QUERY[P1]="SELECT count(id) FROM t"
	QUERY[P2]="SELECT bloom_agg(id, $CAPACITY, $FPR) FROM t"
	QUERY[P3]="SELECT cms_agg(id) FROM t"
	QUERY[P4]="SELECT bloom_union_agg(f) FROM tiny_values"
	QUERY[P5]="SELECT bloom_intersect_agg(f) FROM tiny_values"
	QUERY[P6]="SELECT cms_merge_agg(c) FROM tiny_values"
	QUERY[S1]=${QUERY[P4]}
	QUERY[S2]=${QUERY[P5]}
	QUERY[S3]=${QUERY[P6]}
	QUERY[S4]="SELECT bloom_agg(id, $CAPACITY, $FPR, 'blocked') FROM t"
	QUERY[S5]="SELECT g, bloom_agg(id, 10000, 0.01) FROM tg GROUP BY g"
	QUERY[S6]="SELECT g, hll_add_agg(hll_hash_bigint(id)) FROM tg GROUP BY g"
	for label in P1 P2 P3 P4 P5 P6 S1 S2 S3 S4 S5 S6; do STATEMENT[$label]=${QUERY[$label]}; done
	# The backend's CPU time leaves out the workers': no CPU column for P*.
	for label in P1 P2 P3 P4 P5 P6; do SERIAL_LABEL[$label]=0; done
	parallel_preamble() {
		echo "LOAD 'bloomsketch_$1'; LOAD 'hll'; SELECT count(*) FROM t; SELECT count(*) FROM tiny_values;"
		echo "SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0;"
		echo "SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
	}
	serial_preamble() {
		echo "LOAD 'bloomsketch_$1'; LOAD 'hll'; SELECT count(*) FROM t; SELECT count(*) FROM tiny_values; SELECT count(*) FROM tg;"
	}
	SCALEOUT_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
	run_rounds parallel parallel_preamble P1 P2 P3 P4 P5 P6
	run_rounds scaleout_serial serial_preamble S1 S2 S3 S4 S5 S6
	{
		echo "## Parallel query and the other bench/scaleout.sh measures"
		echo
		echo "Load average before timing: $SCALEOUT_LOAD; after: $(cut -d' ' -f1-3 /proc/loadavg)."
		echo "P1-P6 under a forced parallel plan with 2 workers (the leader scans too); S1-S6 serial."
		echo
		query_table P1 P2 P3 P4 P5 P6 S1 S2 S3 S4 S5 S6
		echo
		ratio_table "S1 P4 -" "S2 P5 -" "S3 P6 -" "S5 S6 1.2"
		echo
	} >>"$REPORT"
fi

{
	echo "# bloomsketch A/B: ${OLD_COMMIT:0:7} (old) against ${NEW_COMMIT:0:7} (new), one server"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(awk '/^MemTotal/ { printf "%.0f GB RAM", $2 / 1048576 }' /proc/meminfo)"
	echo "- server: $(sql -c 'SHOW server_version'), shared_buffers=3GB, work_mem=1GB," \
		"max_parallel_workers_per_gather=0, jit=off; one database, each build in its own schema"
	echo "- method: one warm-up round, then $RUNS rounds; each round a fresh session per build," \
		"old then new, over the same tables; median of the server-side \"Execution Time\" of $EXPLAIN," \
		"and median of the backend's CPU time over the query (/proc/self/schedstat)"
	echo
	cat "$REPORT"
} >"$WORK/full.md"
echo
cat "$WORK/full.md"
if [ -n "${AB_REPORT:-}" ]; then
	cp "$WORK/full.md" "$AB_REPORT"
	bs_log "written to $AB_REPORT"
fi
