# scripts/lib.sh — shared by scripts/test.sh, scripts/demo.sh and bench/run.sh.
# Installs what bloomsketch needs on Debian, builds and installs it, and runs
# a throwaway PostgreSQL server as the postgres user on a private Unix socket
# (no TCP), so nothing clashes with another server.
#
# BS_PG_MAJOR chooses the PostgreSQL major version (15, Debian 12's, unless
# set; 17 and 18 run in the chroots of scripts/chroot.sh), BS_PG_PORT the
# throwaway server's port (54329 for 15, 54401 for 17, 54402 for 18),
# BS_PG_BIN the binaries (default /usr/lib/postgresql/<major>/bin), for a
# copy of PostgreSQL installed elsewhere.
set -euo pipefail

BS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export BS_PG_MAJOR=${BS_PG_MAJOR:-15}
case $BS_PG_MAJOR in
	17) BS_DEFAULT_PORT=54401 ;;
	18) BS_DEFAULT_PORT=54402 ;;
	*) BS_DEFAULT_PORT=54329 ;;
esac
export BS_PG_PORT=${BS_PG_PORT:-$BS_DEFAULT_PORT}
PG_BIN=${BS_PG_BIN:-/usr/lib/postgresql/$BS_PG_MAJOR/bin}
BS_PACKAGES=(postgresql-$BS_PG_MAJOR postgresql-server-dev-$BS_PG_MAJOR libxxhash-dev make gcc python3 python3-xxhash
	python3-venv python3-pytest python3-psycopg2)

bs_log() { printf '==> %s\n' "$*" >&2; }

# Re-run the calling script as root (apt, make install and runuser need it).
bs_require_root() {
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1; then
			exec sudo -E bash "$0" "$@"
		fi
		echo "this script must run as root (installing packages and the extension)" >&2
		exit 1
	fi
}

# Install the Debian packages that are missing, plus any extra ones given.
bs_install_packages() {
	local wanted=("${BS_PACKAGES[@]}" "$@") missing=() p
	for p in "${wanted[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		bs_log "installing ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# Fetch apt's package lists unless some are there already.
bs_apt_lists() {
	if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
		apt-get update -qq
	fi
}

# Whether Debian has a package of that name here (apt-get update first).
bs_package_available() {
	[ -n "$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" { print $2 }')" ]
}

# The version of the clang that Debian's "clang" package depends on here
# (14 on Debian 12); the fuzz targets use clang-N and libfuzzer-N-dev.
bs_clang_version() {
	apt-cache depends clang 2>/dev/null | awk -F'clang-' '/Depends: clang-[0-9]+$/ { print $2; exit }'
}

bs_build_install() {
	bs_log "building and installing bloomsketch"
	make -C "$BS_ROOT" -s PG_CONFIG=$PG_BIN/pg_config >/dev/null
	make -C "$BS_ROOT" -s PG_CONFIG=$PG_BIN/pg_config install >/dev/null
}

# Start a server in a fresh temporary directory; extra -c settings may be given
# as arguments (name=value).  Exports PGHOST, PGPORT, PGUSER, PGDATABASE and
# stops the server when the calling script exits.
bs_start_server() {
	BS_PGDIR=$(mktemp -d /tmp/bloomsketch-pg.XXXXXX)
	chown postgres:postgres "$BS_PGDIR"
	chmod 700 "$BS_PGDIR"
	export PGHOST=$BS_PGDIR PGPORT=$BS_PG_PORT PGUSER=postgres PGDATABASE=postgres
	local options="-c listen_addresses='' -k $BS_PGDIR -p $PGPORT" setting
	for setting in "$@"; do options+=" -c $setting"; done
	bs_log "starting a throwaway PostgreSQL $BS_PG_MAJOR server in $BS_PGDIR"
	runuser -u postgres -- $PG_BIN/initdb -D "$BS_PGDIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
		--no-sync >"$BS_PGDIR/initdb.log" 2>&1 ||
		{ cat "$BS_PGDIR/initdb.log" >&2; return 1; }
	runuser -u postgres -- $PG_BIN/pg_ctl -D "$BS_PGDIR/data" -l "$BS_PGDIR/server.log" \
		-o "$options" -w start >/dev/null ||
		{ cat "$BS_PGDIR/server.log" >&2; return 1; }
	trap bs_stop_server EXIT
}

# Reserve enough 2 MB huge pages for a server's shared memory of the given
# size in MB (vm.nr_hugepages; 10% more for PostgreSQL's other shared
# structures).  Sets BS_HUGE_PAGES to "on" when the kernel granted them, else
# to "off" (leaving the reservation as it was).  bs_stop_server puts the old
# value back.
bs_reserve_huge_pages() {
	local mb=$1 pages
	BS_OLD_HUGE_PAGES=$(cat /proc/sys/vm/nr_hugepages)
	pages=$((mb * 11 / 10 / 2 + BS_OLD_HUGE_PAGES))
	echo "$pages" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
	if [ "$(cat /proc/sys/vm/nr_hugepages)" -ge "$pages" ]; then
		BS_HUGE_PAGES=on
	else
		bs_release_huge_pages
		BS_HUGE_PAGES=off
	fi
}

bs_release_huge_pages() {
	if [ -n "${BS_OLD_HUGE_PAGES:-}" ]; then
		echo "$BS_OLD_HUGE_PAGES" >/proc/sys/vm/nr_hugepages 2>/dev/null || true
		unset BS_OLD_HUGE_PAGES
	fi
}

# Stop the server, if one was started, and give back reserved huge pages.
bs_stop_server() {
	if [ -n "${BS_PGDIR:-}" ] && [ -d "$BS_PGDIR/data" ]; then
		runuser -u postgres -- $PG_BIN/pg_ctl -D "$BS_PGDIR/data" -m fast -w stop >/dev/null 2>&1 || true
		if [ "${BS_KEEP_SERVER_DIR:-0}" != 1 ]; then rm -rf "$BS_PGDIR"; fi
	fi
	bs_release_huge_pages
}
