#!/usr/bin/env bash
# The Debian package, built and installed as a user would: dpkg-buildpackage
# -us -uc -b on a copy of the source tree must give postgresql-NN-bloomsketch
# for every PostgreSQL version from 15 on whose server development files are
# installed here (debian/rules).  The package of BS_PG_MAJOR then replaces
# the source build (make uninstall, dpkg -i), a throwaway server runs CREATE
# EXTENSION and the aggregates from it, with and without JIT inlining, and
# creates 0.1.0 and updates it; the package is then purged.
#
# Run by scripts/test.sh --here, as root, after its other parts: it takes
# away the source build, which scripts/test.sh installs again afterwards.
# The package is built without its regression tests (DEB_BUILD_OPTIONS and
# DEB_BUILD_PROFILES nocheck): scripts/test.sh has just run them on the same
# code, and a plain dpkg-buildpackage runs them again (dh_pgxs_test).
# Prints one "ok"/"FAILED" line per check, ends with a line of totals and
# exits non-zero on any failure.  The build's log is test/deb-build.log.
source "$(dirname "$0")/../../scripts/lib.sh"
bs_require_root "$@"

status=0
checks=0
ok() { checks=$((checks + 1)); echo "ok     $*"; }
fail() { checks=$((checks + 1)); echo "FAILED $*"; status=1; }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}
finish() {
	echo "$checks checks, $([ $status = 0 ] && echo "all passed" || echo "some FAILED")"
	exit $status
}

V=$BS_PG_MAJOR
PKG=postgresql-$V-bloomsketch
SHAREDIR=$("$PG_BIN/pg_config" --sharedir)
PKGLIBDIR=$("$PG_BIN/pg_config" --pkglibdir)
version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$BS_ROOT/bloomsketch.control")

# the extension's files installed in the server's directories, one a line
installed_files() {
	find "$SHAREDIR/extension" "$PKGLIBDIR" -maxdepth 2 -name 'bloomsketch*' 2>/dev/null | sort
}

bs_log "build tools for the Debian package"
bs_install_packages build-essential debhelper postgresql-server-dev-all

work=$(mktemp -d /tmp/bloomsketch-deb.XXXXXX)
chmod 755 "$work" # the throwaway server's user starts in it
# Whatever happens, the package does not stay installed.
cleanup() {
	bs_stop_server
	dpkg --purge "$PKG" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT

# The version is said in four places, which must agree.
meta=$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))
print(m["version"], m["provides"]["bloomsketch"]["version"])' "$BS_ROOT/META.json")
debian=$(cd "$BS_ROOT" && dpkg-parsechangelog -S Version)
if [ "$meta" = "$version $version" ] && [ "${debian%-*}" = "$version" ]; then
	ok "bloomsketch.control, META.json and debian/changelog all say $version ($debian)"
else
	fail "versions disagree: bloomsketch.control $version, META.json '$meta', debian/changelog $debian"
fi

bs_log "dpkg-buildpackage -us -uc -b in $work"
src=$work/bloomsketch-$version
mkdir "$src"
tar -C "$BS_ROOT" --exclude=.git --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
	--exclude=./results --exclude=./test/fuzz/build --exclude=./test/fuzz/work \
	--exclude=./test/fuzz/artifacts --exclude=./test/fuzz/logs -cf - . | tar -C "$src" -xf -
start=$SECONDS
if ! (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck \
	dpkg-buildpackage -us -uc -b) >"$BS_ROOT/test/deb-build.log" 2>&1; then
	fail "dpkg-buildpackage (test/deb-build.log):"
	tail -30 "$BS_ROOT/test/deb-build.log"
	finish
fi
built=$(cd "$work" && ls -- *.deb | grep -v -- -dbgsym_ | sed 's/_.*//' | sort | paste -sd ' ')
wanted=$(dpkg-query -W -f '${db:Status-Status} ${Package}\n' 'postgresql-server-dev-[0-9]*' 2>/dev/null |
	awk '$1 == "installed" { sub("postgresql-server-dev-", "", $2); if ($2 + 0 >= 15) print "postgresql-" $2 "-bloomsketch" }' |
	sort | paste -sd ' ')
if [ "$built" = "$wanted" ]; then
	ok "dpkg-buildpackage built $built in $((SECONDS - start)) s"
else
	fail "dpkg-buildpackage built '$built', not '$wanted' (one per installed postgresql-server-dev-NN, NN >= 15)"
fi
deb=$(ls "$work/${PKG}_${version}"-*_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	fail "no $PKG package of version $version"
	finish
fi

# Its files: the control file and every install and update script of the
# tree, the library and its JIT bitcode, the copyright; nothing else.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub("^\\./", "/", $6); print $6 }' | sort >"$work/files"
{
	echo "$SHAREDIR/extension/bloomsketch.control"
	for f in "$BS_ROOT"/sql/bloomsketch--*.sql; do echo "$SHAREDIR/extension/$(basename "$f")"; done
	echo "$PKGLIBDIR/bloomsketch.so"
	[ -d "$PKGLIBDIR/bitcode" ] && echo "$PKGLIBDIR/bitcode/bloomsketch.index.bc"
	echo "/usr/share/doc/$PKG/copyright"
} | sort >"$work/want"
missing=$(comm -13 "$work/files" "$work/want")
stray=$({ grep -v -e "^$PKGLIBDIR/bitcode/bloomsketch/" -e "^/usr/share/doc/$PKG/" "$work/files" || true; } |
	comm -23 - "$work/want")
if [ -z "$missing" ] && [ -z "$stray" ]; then
	ok "$(basename "$deb"): $(wc -l <"$work/files") files, the control file, $(ls "$BS_ROOT"/sql/bloomsketch--*.sql | wc -l) scripts, the library$([ -d "$PKGLIBDIR/bitcode" ] && echo " and its bitcode")"
else
	fail "$(basename "$deb") lacks: ${missing:-nothing}; has besides: ${stray:-nothing}"
fi
depends=$(dpkg-deb -f "$deb" Depends)
check "$PKG depends on the server: $depends" grep -q "postgresql-$V\b" <<<"$depends"

# In place of the source build.
bs_log "dpkg -i $(basename "$deb") in place of the source build"
make -C "$BS_ROOT" -s PG_CONFIG="$PG_BIN/pg_config" uninstall >/dev/null
left=$(installed_files)
check "make uninstall leaves none of the extension's files" test -z "$left"
if ! dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then
	fail "dpkg -i $(basename "$deb"):"
	tail -20 "$work/dpkg.log"
else
	check "dpkg -i: $PKG installed, its files as packaged (dpkg -V)" \
		bash -c "dpkg-query -W -f '\${db:Status-Status}' $PKG | grep -qx installed && [ -z \"\$(dpkg -V $PKG)\" ]"
	unowned=$(installed_files | while read -r f; do dpkg -S "$f" >/dev/null 2>&1 || echo "$f"; done)
	check "every file of the extension in the server's directories belongs to $PKG ($(installed_files | wc -l) files)" \
		test -z "$unowned"

	cd "$work" # the server's user may not enter the caller's directory
	BS_PG_PORT=$((BS_PG_PORT + 10)) bs_start_server
	trap cleanup EXIT # bs_start_server set its own
	psql() { "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
	got=$(psql -c "CREATE EXTENSION bloomsketch" -c "SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch'" 2>&1) || true
	check "CREATE EXTENSION bloomsketch from the package: version $got" test "$got" = "$version"
	query="SELECT (SELECT count(*) FROM generate_series(1, 10000) i WHERE f @> i) || ' ' ||
		(SELECT count(*) FROM generate_series(10001, 20000) i WHERE f @> i) || ' ' ||
		cms_total(c) || ' ' || cms_estimate(c, 7)
		FROM (SELECT bloom_agg(i, 10000, 0.01) AS f, cms_agg(i % 100) AS c FROM generate_series(1, 10000) i) t"
	read -r found false_positives total estimate <<<"$(psql -c "$query" 2>&1)"
	if [ "$found" = 10000 ] && [ "${false_positives:-999}" -lt 200 ] && [ "$total" = 10000 ] && [ "${estimate:-0}" -ge 100 ]; then
		ok "bloom_agg finds its 10000 members ($false_positives false positives in 10000 others), cms_agg counts 10000 rows, 7 at least 100 times ($estimate)"
	else
		fail "bloom_agg/cms_agg from the package answer: members '$found', false positives '$false_positives', total '$total', estimate '$estimate'"
	fi
	if [ "$(psql -c "SELECT pg_jit_available()")" = t ]; then
		jit=(-c "SET jit = on" -c "SET jit_above_cost = 0" -c "SET jit_inline_above_cost = 0"
			-c "SET jit_optimize_above_cost = 0")
		inlined=$(psql "${jit[@]}" -c "EXPLAIN (ANALYZE, FORMAT JSON) $query" 2>&1 |
			python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["JIT"]["Options"]["Inlining"])' 2>&1) || true
		answers=$(psql "${jit[@]}" -c "$query" 2>&1) || true
		check "the same answers compiled by the JIT with inlining (Inlining: $inlined), which reads the packaged bitcode" \
			test "$inlined" = True -a "$answers" = "$found $false_positives $total $estimate"
	else
		echo "note   no JIT in this server: the packaged bitcode is not exercised"
	fi
	got=$(psql -c "CREATE DATABASE bs_deb_update" >/dev/null 2>&1 &&
		psql -d bs_deb_update -c "CREATE EXTENSION bloomsketch VERSION '0.1.0'" \
			-c "ALTER EXTENSION bloomsketch UPDATE" \
			-c "SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch'" 2>&1) || true
	check "the package updates 0.1.0 to $got" test "$got" = "$version"
	bs_stop_server

	dpkg --purge "$PKG" >"$work/dpkg.log" 2>&1 || { tail -20 "$work/dpkg.log"; }
	left=$(installed_files)
	check "dpkg --purge $PKG removes its files" \
		bash -c "[ -z '$left' ] && ! dpkg-query -W -f '\${db:Status-Status}' $PKG 2>/dev/null | grep -qx installed"
fi

finish
