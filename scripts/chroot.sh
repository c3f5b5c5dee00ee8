#!/usr/bin/env bash
# scripts/chroot.sh — a Debian chroot for one PostgreSQL major version, made
# with debootstrap from the mirror this machine's apt already uses, and kept
# under /var/tmp/bs-chroots/ for the next run.
#
#   scripts/chroot.sh create MAJOR        make the chroot if it is missing or
#                                         incomplete; print its directory
#   scripts/chroot.sh run MAJOR CMD...    run CMD as root inside it, with /proc,
#                                         /dev/pts and /dev/shm mounted for the
#                                         time of the command
#
# MAJOR is 15 (Debian 12 bookworm), 17 (Debian 13 trixie) or 18 (Debian
# testing).  PostgreSQL 15 normally runs on the host; its chroot is there to
# test it without touching the host's installation.  A chroot counts as
# complete once debootstrap and the package installation have both finished
# (the file .bs-complete); a half-made one is finished, or removed and made
# again when debootstrap itself did not finish (no .bs-base).
source "$(dirname "$0")/lib.sh"

BS_CHROOT_BASE=${BS_CHROOT_BASE:-/var/tmp/bs-chroots}

# bs_chroot_release MAJOR: "SUITE SCRIPT NAME" for debootstrap.  Debian 12's
# debootstrap knows no script by the name of the current testing release, so
# testing is made with the sid script.
bs_chroot_release() {
	case $1 in
		15) echo "bookworm bookworm bookworm" ;;
		17) echo "trixie trixie trixie" ;;
		18) echo "testing sid testing" ;;
		*) echo "no chroot for PostgreSQL $1 (15, 17 or 18)" >&2; return 1 ;;
	esac
}

# The first Debian mirror of this machine's apt configuration (deb822 or
# one-line format).
bs_chroot_mirror() {
	local m
	m=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	if [ -z "$m" ]; then
		m=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)
	fi
	[ -n "$m" ] || { echo "no Debian mirror found in /etc/apt" >&2; return 1; }
	echo "$m"
}

bs_chroot_dir() {
	local rel
	rel=$(bs_chroot_release "$1") || return 1
	echo "$BS_CHROOT_BASE/${rel##* }"
}

bs_chroot_need_debootstrap() {
	if ! command -v debootstrap >/dev/null 2>&1; then
		bs_log "installing debootstrap"
		DEBIAN_FRONTEND=noninteractive apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
	fi
}

bs_chroot_create() {
	local major=$1 dir suite script mirror rel
	rel=$(bs_chroot_release "$major") || return 1
	read -r suite script _ <<<"$rel"
	dir=$(bs_chroot_dir "$major")
	if [ -f "$dir/.bs-complete" ]; then
		echo "$dir"
		return 0
	fi
	bs_chroot_need_debootstrap
	if [ ! -f "$dir/.bs-base" ]; then
		mirror=$(bs_chroot_mirror)
		if [ -e "$dir" ]; then
			bs_log "removing the incomplete chroot $dir"
			bs_chroot_umount "$dir"
			rm -rf --one-file-system "$dir"
		fi
		mkdir -p "$BS_CHROOT_BASE"
		bs_log "debootstrap $suite into $dir (several minutes)"
		debootstrap --variant=minbase "$suite" "$dir" "$mirror" "/usr/share/debootstrap/scripts/$script" \
			>"$BS_CHROOT_BASE/$suite.log" 2>&1 ||
			{ tail -30 "$BS_CHROOT_BASE/$suite.log" >&2; return 1; }
		touch "$dir/.bs-base"
	fi
	# No service starts inside the chroot, and installing PostgreSQL creates
	# no default cluster: the tests run throwaway servers of their own.
	printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
	chmod 755 "$dir/usr/sbin/policy-rc.d"
	mkdir -p "$dir/etc/postgresql-common/createcluster.d"
	echo "create_main_cluster = false" >"$dir/etc/postgresql-common/createcluster.d/bloomsketch.conf"
	# The mirror may be a dated snapshot whose testing Release file has
	# expired by now: accept it all the same.
	echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99bloomsketch-snapshot"
	bs_log "installing PostgreSQL $major and the build tools in $dir"
	bs_chroot_enter "$dir" bash -c "export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends \
		postgresql-$major postgresql-server-dev-$major libxxhash-dev make gcc python3" \
		>>"$BS_CHROOT_BASE/$suite.log" 2>&1 ||
		{ tail -30 "$BS_CHROOT_BASE/$suite.log" >&2; return 1; }
	touch "$dir/.bs-complete"
	echo "$dir"
}

bs_chroot_umount() {
	local dir=$1 m
	for m in dev/shm dev/pts proc; do
		if mountpoint -q "$dir/$m" 2>/dev/null; then umount "$dir/$m" 2>/dev/null || umount -l "$dir/$m"; fi
	done
}

# bs_chroot_enter DIR CMD...: run CMD as root in the chroot DIR, with what a
# server needs mounted (and unmounted again afterwards).
bs_chroot_enter() {
	local dir=$1 rc=0
	shift
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
	mkdir -p "$dir/dev/pts" "$dir/dev/shm"
	mountpoint -q "$dir/dev/pts" || mount -t devpts -o newinstance,ptmxmode=0666 devpts "$dir/dev/pts"
	mountpoint -q "$dir/dev/shm" || mount -t tmpfs -o mode=1777 tmpfs "$dir/dev/shm"
	chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" "$@" || rc=$?
	bs_chroot_umount "$dir"
	return $rc
}

# bs_chroot_run MAJOR CMD...: run CMD in the chroot of PostgreSQL MAJOR,
# making the chroot first if needed.
bs_chroot_run() {
	local major=$1 dir
	shift
	dir=$(bs_chroot_create "$major") || return 1
	bs_chroot_enter "$dir" "$@"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	bs_require_root "$@"
	case ${1:-} in
		create) [ $# -eq 2 ] || { echo "usage: scripts/chroot.sh create MAJOR" >&2; exit 2; }
			bs_chroot_create "$2" ;;
		run) [ $# -ge 3 ] || { echo "usage: scripts/chroot.sh run MAJOR CMD..." >&2; exit 2; }
			major=$2; shift 2; bs_chroot_run "$major" "$@" ;;
		*) echo "usage: scripts/chroot.sh create|run MAJOR [CMD...]" >&2; exit 2 ;;
	esac
fi
