#!/usr/bin/env bash
# bloomsketch on a Citus cluster: a coordinator and two workers on loopback.
#
# Builds Citus 13.2.2 from its source tarball into the PostgreSQL whose
# binaries are in PG_BIN (bloomsketch must already be installed there),
# starts three servers as the postgres user, and checks on distributed
# tables, against local twins holding the same rows:
#  * bloom_agg (every arity, every scheme), bloom_fit_agg (every arity, states
#    of both forms, a group over its ceiling) and cms_agg (every arity, weighted
#    too) over columns of 17 types: the same bytes as over the local table,
#    plain and with GROUP BY a column that is not the distribution column,
#    with NULLs and with empty shards, and EXPLAIN shows them pushed down to
#    the workers (worker_partial_agg with a typed overload, coord_combine_agg);
#  * the same over columns of other types (arrays, jsonb, interval, ranges,
#    time, inet): the same bytes, the rows gathered to the coordinator;
#  * topk_agg (both arities) and topk_weighted_agg over the same columns,
#    plain and GROUP BY g, and
#    topk_merge_agg over a distributed column of summaries: pushed down as
#    the others, and every summary meets its guarantees against the exact
#    counts of the local twin (its bytes may differ: docs/topk.md);
#  * GROUP BY the distribution column (the whole aggregate on the workers),
#    1.2 MB filters (bloom_agg's prefetch pipeline), and over a distributed
#    column of filters and sketches: bloom_union_agg, bloom_intersect_agg,
#    cms_merge_agg, the estimates, the per-row and element-wise functions, a
#    co-located join
#    and an UPDATE calling bloom_add and cms_add;
#  * citext refused by every aggregate, pushed down or not.
# Then prints what a partial state costs on the wire, per shard.
#
#   PG_BIN=/usr/lib/postgresql/15/bin bash test/harness/citus.sh
#
# Environment: PG_BIN (default /usr/lib/postgresql/15/bin); BS_CITUS_TARBALL
# (default ../shared/deps/citus-13.2.2.tar.gz beside the repository; missing
# is a failure); BS_CITUS_CACHE, where builds are kept between runs (default
# /var/tmp/bs-citus-build, one build per tarball and PostgreSQL);
# BS_CITUS_PORT, the first of three ports (default 54410); BS_CITUS_ROWS,
# the rows of the large-state table (default 200000; more for timings).
# Runs as root (it installs build dependencies and runs servers as postgres).
# Prints one "ok"/"FAILED" line per group of checks and exits non-zero on
# any failure.  About 3 minutes, plus about 3 minutes for a first build.
set -euo pipefail
BS_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_CONFIG=$PG_BIN/pg_config
TARBALL=${BS_CITUS_TARBALL:-$BS_ROOT/../shared/deps/citus-13.2.2.tar.gz}
CACHE=${BS_CITUS_CACHE:-/var/tmp/bs-citus-build}
PORT=${BS_CITUS_PORT:-54410}
ROWS=${BS_CITUS_ROWS:-200000}
SQL_DIR=$BS_ROOT/test/harness/citus

passed=0
failed=0
fail() { # NAME DETAIL...
	local name=$1
	shift
	echo "FAILED $name"
	printf '%s\n' "$@" | sed 's/^/    /'
	failed=$((failed + 1))
}
ok() {
	echo "ok     $*"
	passed=$((passed + 1))
}
finish() {
	echo "$((passed + failed)) checks: $passed ok, $failed FAILED"
	[ "$failed" -eq 0 ]
	exit
}

# ---------------------------------------------------------------------------
# Citus, built once per tarball and PostgreSQL installation

if [ ! -f "$TARBALL" ]; then
	fail "Citus source not found at $TARBALL (set BS_CITUS_TARBALL)"
	finish
fi

install_build_deps() {
	local wanted=(liblz4-dev libzstd-dev libkrb5-dev libicu-dev make gcc) missing=() p
	for p in "${wanted[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "==> installing ${missing[*]}" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# Citus's compatibility header defines its own have_createdb_privilege() for
# PostgreSQL < 17, which clashes with the extern one that Debian's 15.x
# backported; renaming Citus's copy is enough.
patch_citus() {
	sed -i '/^static inline bool$/{N;s/^static inline bool\nhave_createdb_privilege(void)$/#define have_createdb_privilege bs_citus_have_createdb_privilege\n&/}' \
		"$1/src/include/pg_version_compat.h"
}

build_citus() {
	local key dir
	key=$(sha256sum "$TARBALL" | cut -c1-12)-$("$PG_CONFIG" --version | tr -c 'A-Za-z0-9.\n' '_')-$(echo "$PG_BIN" | md5sum | cut -c1-8)
	dir=$CACHE/$key
	if [ ! -f "$dir/.built" ]; then
		install_build_deps
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -C "$dir" -xzf "$TARBALL" --strip-components=1
		patch_citus "$dir"
		echo "==> building Citus in $dir (a few minutes; kept for the next run)" >&2
		# without LLVM bitcode for JIT, which takes most of the build time
		(cd "$dir" && ./configure PG_CONFIG="$PG_CONFIG" --without-libcurl &&
			make -j2 with_llvm=no) >"$dir/build.log" 2>&1 || { tail -30 "$dir/build.log"; return 1; }
		touch "$dir/.built"
	fi
	make -C "$dir" with_llvm=no install >"$dir/install.log" 2>&1 || { tail -30 "$dir/install.log"; return 1; }
}

start=$SECONDS
if build_out=$(build_citus 2>&1); then
	ok "Citus built and installed into $("$PG_CONFIG" --pkglibdir) ($((SECONDS - start)) s)"
else
	fail "building Citus from $TARBALL" "$build_out"
	finish
fi

# ---------------------------------------------------------------------------
# The cluster

work=$(mktemp -d /tmp/bloomsketch-citus.XXXXXX)
chown postgres:postgres "$work"
chmod 700 "$work"
nodes=(coordinator worker1 worker2)
stop_cluster() {
	local i
	for i in 0 1 2; do
		if [ -d "$work/${nodes[$i]}" ]; then
			runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$work/${nodes[$i]}" -m fast -w stop >/dev/null 2>&1 || true
		fi
	done
	rm -rf "$work"
}
trap stop_cluster EXIT

psql() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$work" -U postgres -d postgres "$@"; }

start_cluster() {
	local i
	for i in 0 1 2; do
		runuser -u postgres -- "$PG_BIN/initdb" -D "$work/${nodes[$i]}" -U postgres -A trust -E UTF8 \
			--locale=C.UTF-8 --no-sync >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; return 1; }
		runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$work/${nodes[$i]}" -l "$work/${nodes[$i]}.log" -w start \
			-o "-c listen_addresses=127.0.0.1 -k $work -p $((PORT + i)) -c shared_preload_libraries=citus
				-c fsync=off -c max_worker_processes=16" >/dev/null ||
			{ cat "$work/${nodes[$i]}.log"; return 1; }
		psql -p $((PORT + i)) -c "CREATE EXTENSION citus"
	done
	psql -p "$PORT" -c "SELECT citus_set_coordinator_host('127.0.0.1', $PORT)" \
		-c "SELECT citus_add_node('127.0.0.1', $((PORT + 1)))" \
		-c "SELECT citus_add_node('127.0.0.1', $((PORT + 2)))" \
		-c "CREATE EXTENSION bloomsketch" >/dev/null
}

# (to a file: a server started inside $(...) would hold its pipe open)
if start_cluster >"$work/cluster.log" 2>&1; then
	version=$(psql -p "$PORT" -Atc "SELECT citus_version()" | awk '{print $2}')
	workers=$(psql -p "$PORT" -Atc "SELECT count(*) FROM citus_get_active_worker_nodes()")
	on_workers=$(psql -p "$PORT" -Atc "SELECT string_agg(result, ',') FROM run_command_on_workers(
		\$\$SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch'\$\$)")
	if [ "$workers" = 2 ] && [ "$on_workers" = "0.2.0,0.2.0" ]; then
		ok "cluster up: Citus $version, coordinator and $workers workers on ports $PORT-$((PORT + 2)), bloomsketch $on_workers on the workers"
	else
		fail "cluster" "Citus $version, $workers active workers, bloomsketch on workers: $on_workers"
		finish
	fi
else
	fail "starting the cluster" "$(tail -30 "$work/cluster.log")"
	finish
fi
export PGPORT=$PORT

start=$SECONDS
if ! out=$(psql -v big_rows="$ROWS" -f "$SQL_DIR/setup.sql" 2>&1); then
	fail "loading the test tables" "$out"
	finish
fi
echo "==> tables loaded in $((SECONDS - start)) s" >&2

# ---------------------------------------------------------------------------
# The checks, recorded in the table checks by check_query (setup.sql)

q() { printf "SELECT check_query(%s, %s, %s, %s%s);\n" "$(lit "$1")" "$(lit "$2")" "$(lit "$3")" "$(lit "$4")" \
	"${5:+, $(lit "$5")}"; }
lit() { printf "'%s'" "${1//\'/\'\'}"; }

# over each column: plain and GROUP BY g, over the full table and the one
# with empty shards
column_checks() { # GROUP COLUMN MODE
	local grp=$1 c=$2 mode=$3 f tbl
	for tbl in all few; do
		for f in "bloom_agg($c, 5000)" "bloom_agg($c, 5000, 0.02)" "bloom_agg($c, 5000, 0.01, 'blocked')" \
			"bloom_fit_agg($c)" "bloom_fit_agg($c, 0.001)" "bloom_fit_agg($c, 0.01, 65536)" \
			"cms_agg($c)" "cms_agg($c, 0.01, 0.01)" "cms_agg($c, w)" "cms_agg($c, w, 0.01, 0.005)"; do
			q "$grp" "$f over $tbl" "SELECT $f FROM T" "$mode" "$tbl"
			q "$grp" "$f over $tbl, GROUP BY g" "SELECT g, $f FROM T GROUP BY g ORDER BY g" "$mode" "$tbl"
		done
	done
}

typed=(int2 int4 int8 numeric float4 float8 text varchar bpchar name char bytea uuid date timestamp
	timestamptz boolean)
others=(int4_array jsonb interval int4range time inet)
# the SQL type of each column, to read topk_items' texts back
declare -A sql_type=([int2]=int2 [int4]=int4 [int8]=int8 [numeric]=numeric [float4]=float4
	[float8]=float8 [text]=text [varchar]=varchar [bpchar]=bpchar [name]=name [char]='"char"'
	[bytea]=bytea [uuid]=uuid [date]=date [timestamp]=timestamp [timestamptz]=timestamptz
	[boolean]=boolean [int4_array]='int4[]' [jsonb]=jsonb [interval]=interval
	[int4range]=int4range [time]=time [inet]=inet)

# topk_agg over a column: plain and GROUP BY g, over both tables, checked
# against the exact counts (check_topk, setup.sql)
topk_checks() { # GROUP COLUMN TYPE MODE
	local grp=$1 c=$2 typ=$3 mode=$4 f tbl
	for tbl in all few; do
		for f in "topk_agg($c, 20)|1" "topk_agg($c, 5, 0.1)|1" "topk_weighted_agg($c, w, 20)|w"; do
			printf "SELECT check_topk(%s, %s, %s, %s, %s, %s, %s, %s, false, %s);\n" "$(lit "$grp")" \
				"$(lit "${f%|*} over $tbl")" "$(lit "SELECT 0 AS g, ${f%|*} AS s FROM T")" "$(lit "$mode")" \
				"$(lit "$tbl")" "$(lit "local_$tbl")" "$(lit "$c")" "$(lit "$typ")" "$(lit "${f#*|}")"
			printf "SELECT check_topk(%s, %s, %s, %s, %s, %s, %s, %s, true, %s);\n" "$(lit "$grp")" \
				"$(lit "${f%|*} over $tbl, GROUP BY g")" "$(lit "SELECT g, ${f%|*} AS s FROM T GROUP BY g ORDER BY g")" \
				"$(lit "$mode")" "$(lit "$tbl")" "$(lit "local_$tbl")" "$(lit "$c")" "$(lit "$typ")" "$(lit "${f#*|}")"
		done
	done
}
{
	for t in "${typed[@]}"; do column_checks "typed: $t" "c_$t" partial; done
	for t in "${others[@]}"; do column_checks "other: $t" "o_$t" gathered; done
	for t in "${typed[@]}"; do topk_checks "heavy hitters: typed" "c_$t" "${sql_type[$t]}" partial; done
	for t in "${others[@]}"; do topk_checks "heavy hitters: other" "o_$t" "${sql_type[$t]}" gathered; done
	# (an ordered aggregate is not split into partial ones: any plan will do)
	for f in "topk_merge_agg(k)|partial" "topk_merge_agg(k ORDER BY id, day)|any"; do
		printf "SELECT check_topk(%s, %s, %s, %s, %s, %s, %s, %s, false);\n" "'heavy hitters: summaries'" \
			"$(lit "${f%|*}")" "$(lit "SELECT 0 AS g, ${f%|*} AS s FROM T")" "$(lit "${f#*|}")" "'sketches'" \
			"'local_all'" "'least(abs(c_int4) % 17, abs(c_int4) % 5)'" "'int4'"
		printf "SELECT check_topk(%s, %s, %s, %s, %s, %s, %s, %s, true);\n" "'heavy hitters: summaries'" \
			"$(lit "${f%|*} GROUP BY day")" "$(lit "SELECT day AS g, ${f%|*} AS s FROM T GROUP BY day ORDER BY day")" \
			"$(lit "${f#*|}")" "'sketches'" "'local_all'" "'least(abs(c_int4) % 17, abs(c_int4) % 5)'" "'int4'"
	done
	for c in c_int8 c_text; do
		for s in double double_square double_cube partition independent blocked; do
			q "schemes" "bloom_agg($c, 5000, 0.01, '$s')" "SELECT bloom_agg($c, 5000, 0.01, '$s') FROM T" partial
			q "schemes" "bloom_agg($c, 5000, 0.01, '$s') GROUP BY g" \
				"SELECT g, bloom_agg($c, 5000, 0.01, '$s') FROM T GROUP BY g ORDER BY g" partial
		done
	done
	q "GROUP BY the distribution column" "bloom_agg" "SELECT id, bloom_agg(c_text, 100) FROM T GROUP BY id ORDER BY id" workers
	q "GROUP BY the distribution column" "cms_agg" "SELECT id, cms_agg(c_int4, w) FROM T GROUP BY id ORDER BY id" workers
	# bloom_fit_agg: shards' states in the bits form (past 4,096 values at a
	# ceiling of 2^20), and a group over its ceiling
	for f in "bloom_agg(v, 1000000)" "bloom_agg(s, 1000000, 0.01, 'blocked')" "bloom_agg(v, 1000000, 0.01, 'partition')" \
		"bloom_fit_agg(v)" "bloom_fit_agg(v, 0.01, 1048576)" "bloom_fit_agg(s, 0.01, 65536)" "cms_agg(s)"; do
		q "large states" "$f" "SELECT $f FROM T" partial big
		q "large states" "$f GROUP BY g" "SELECT g, $f FROM T GROUP BY g ORDER BY g" partial big
	done
	for f in "bloom_union_agg(f)" "bloom_intersect_agg(f)" "cms_merge_agg(s)" \
		"bloom_cardinality(bloom_union_agg(f)), bloom_fpr(bloom_union_agg(f)), cms_estimate(cms_merge_agg(s), 'user-5'::text), cms_total(cms_merge_agg(s))"; do
		q "aggregates over filters" "$f" "SELECT $f FROM T" partial sketches
		q "aggregates over filters" "$f GROUP BY day" "SELECT day, $f FROM T GROUP BY day ORDER BY day" partial sketches
	done
	q "functions" "per-row functions" "SELECT id, day, bloom_contains(f, 1000000007::int8), f @> 42::bigint,
		bloom_cardinality(f), bloom_cardinality_bounds(f), bloom_fpr(f), bloom_info(f), cms_estimate(s, 'user-7'::text),
		cms_total(s), cms_info(s) FROM T ORDER BY id, day" any sketches
	q "functions" "filters of a co-located join" "SELECT a.id, bloom_union(a.f, b.f), bloom_intersect(a.f, b.f),
		bloom_jaccard(a.f, b.f), bloom_union_cardinality(a.f, b.f), bloom_intersection_cardinality(a.f, b.f),
		cms_merge(a.s, b.s), cms_inner_product(a.s, b.s) FROM T a JOIN T b ON a.id = b.id AND a.day = 0 AND b.day = 2
		ORDER BY a.id" any sketches
	q "functions" "rows selected by a filter" "SELECT id, day FROM T WHERE f @> 2000000014::bigint ORDER BY id, day" any sketches
	q "functions" "element-wise functions" "SELECT id, day, bloom_contains_each(f, ARRAY[7, 1000000007, NULL]::int8[]),
		bloom_contains_any(f, ARRAY[2000000014]::int8[]), bloom_contains_all(f, ARRAY[]::int8[]),
		cms_estimate_each(s, ARRAY['user-5', 'user-7', NULL]), bloom_add_each(f, ARRAY[5, 6]::int8[]),
		cms_add_each(s, ARRAY['x', 'y'], 2) FROM T ORDER BY id, day" any sketches
	q "functions" "members of arrays, a row each" "SELECT id, day, m FROM T, bloom_members(f, ARRAY[7, 1000000007, 2000000014]::int8[]) m
		ORDER BY id, day, m" any sketches
	for tbl in dist_sketches local_sketches; do
		echo "UPDATE $tbl SET f = bloom_add(f, 7::bigint), s = cms_add(s, 'x'::text, 3) WHERE day = 2;"
	done
	q "functions" "after UPDATE with bloom_add and cms_add" "SELECT * FROM T ORDER BY id, day" any sketches
} >"$work/checks.sql"

start=$SECONDS
if ! out=$(psql -f "$work/checks.sql" 2>&1); then
	fail "running the checks" "$out"
	finish
fi
echo "==> $(grep -cE 'check_(query|topk)' "$work/checks.sql") checks run in $((SECONDS - start)) s" >&2

while IFS='|' read -r grp total bad detail; do
	if [ "$bad" = 0 ]; then
		case $grp in
			typed:*) ok "$grp: $total queries byte-identical to the local table, pushed down (worker_partial_agg)" ;;
			other:*) ok "$grp: $total queries byte-identical to the local table, rows gathered to the coordinator" ;;
			"heavy hitters: typed"*) ok "$grp: $total queries whose summaries meet their guarantees, pushed down (worker_partial_agg)" ;;
			"heavy hitters: other"*) ok "$grp: $total queries whose summaries meet their guarantees, rows gathered to the coordinator" ;;
			"heavy hitters"*) ok "$grp: $total queries whose summaries meet their guarantees, plans as expected" ;;
			*) ok "$grp: $total queries byte-identical to the local table, plans as expected" ;;
		esac
	else
		fail "$grp: $bad of $total queries" "$detail"
	fi
done < <(psql -At -F'|' -c "SELECT grp, count(*), count(*) FILTER (WHERE NOT ok),
	replace(left(string_agg(detail, ' / ') FILTER (WHERE NOT ok), 1500), E'\n', ' ')
	FROM checks GROUP BY grp ORDER BY min(ctid)")

# every type the test lists has its group of checks (none silently missing)
groups=$(psql -Atc "SELECT count(DISTINCT grp) FROM checks")
if [ "$groups" -eq $((${#typed[@]} + ${#others[@]} + 8)) ]; then
	ok "all $groups groups of checks ran"
else
	fail "groups of checks" "$groups groups ran, $((${#typed[@]} + ${#others[@]} + 8)) expected"
fi

# ---------------------------------------------------------------------------
# citext is refused on the cluster too: its implicit cast to text would
# reach the typed text overloads, which push down, and the workers cannot
# tell the cast from one the user wrote.  CREATE EXTENSION citext runs on
# every node, whose event trigger adds the citext overloads that refuse.
citext_setup=$(psql -c "CREATE EXTENSION citext" \
	-c "CREATE TABLE dist_citext (id int, c citext, t text)" \
	-c "SELECT create_distributed_table('dist_citext', 'id')" \
	-c "INSERT INTO dist_citext SELECT i, 'V' || i, 'v' || i FROM generate_series(1, 100) i" 2>&1) ||
	fail "citext: creating the table" "$citext_setup"
citext_overloads=$(psql -Atc "SELECT string_agg(result, ',') FROM run_command_on_workers(
	\$\$SELECT count(*) FROM pg_proc WHERE prokind = 'a' AND proargtypes[0] = 'citext'::regtype
		AND proname IN ('bloom_agg', 'cms_agg', 'bloom_fit_agg', 'topk_agg', 'topk_weighted_agg')\$\$)" 2>&1) || true
citext_bad=()
# (GROUP BY the distribution column: the whole aggregate runs on the workers)
for query in "bloom_agg(c, 100) FROM dist_citext" "cms_agg(c) FROM dist_citext" \
	"bloom_fit_agg(c) FROM dist_citext" "topk_agg(c, 3) FROM dist_citext" \
	"topk_weighted_agg(c, 2, 3) FROM dist_citext" \
	"bloom_agg(t::citext, 100) FROM dist_citext" "cms_agg(c, 0.01, 0.01) FROM dist_citext GROUP BY id"; do
	out=$(psql -c "SELECT $query" 2>&1) || true
	grep -q "cannot hash values of type citext" <<<"$out" || citext_bad+=("$query: $out")
done
if [ ${#citext_bad[@]} -eq 0 ] && [ "$citext_overloads" = "14,14" ]; then
	ok "citext: 7 distributed aggregates refused, refusing overloads on both workers"
else
	fail "citext" "overloads on the workers: $citext_overloads; ${citext_bad[*]:-}"
fi

# ---------------------------------------------------------------------------
# What a partial state costs on the wire: the text each worker sends per
# shard (worker_partial_agg's result is the state's text output).
wire() { # AGGREGATE-SIGNATURE ARGUMENTS
	psql -Atc "SELECT min(result::int), max(result::int), count(*) FROM run_command_on_shards('dist_big',
		\$\$SELECT octet_length(worker_partial_agg('$1'::regprocedure, $2)::text) FROM %s\$\$)"
}
filter_wire=$(wire 'bloom_agg(bigint,bigint)' 'ROW(v, 1000000::bigint)' 2>&1) || true
sketch_wire=$(wire 'cms_agg(text)' 's' 2>&1) || true
filter_bytes=$(psql -Atc "SELECT octet_length(bloom_agg(v, 1000000)::bytea) FROM local_big" 2>&1) || true
sketch_bytes=$(psql -Atc "SELECT octet_length(cms_agg(s)::bytea) FROM local_big" 2>&1) || true
IFS='|' read -r fmin fmax fshards <<<"$filter_wire"
IFS='|' read -r smin smax sshards <<<"$sketch_wire"
if [ "$fmin" = "$fmax" ] && [ "$smin" = "$smax" ] && [ "$fshards" = 8 ] && [ "$sshards" = 8 ]; then
	ok "on the wire per shard: bloom_agg(bigint, 1000000) $fmin bytes of text ($filter_bytes bytes binary), cms_agg(text) $smin bytes ($sketch_bytes bytes binary), on each of $fshards shards"
else
	fail "bytes on the wire per shard" "filter: $filter_wire; sketch: $sketch_wire"
fi

# Timings of one run (informative, not checked): distributed against local.
timing() { # QUERY-OVER-T
	local d l
	d=$({ echo '\timing on'; echo "${1// T/ dist_big};"; } | psql -At | awk '/^Time:/ {print $2}')
	l=$({ echo '\timing on'; echo "${1// T/ local_big};"; } | psql -At | awk '/^Time:/ {print $2}')
	echo "$1: distributed $d ms, local $l ms"
}
echo "==> timings over $ROWS rows (one run each, informative):" >&2
timing "SELECT octet_length(bloom_agg(v, 1000000)::bytea) FROM T" >&2
timing "SELECT octet_length(cms_agg(s)::bytea) FROM T" >&2
timing "SELECT count(*) FROM T" >&2

finish
