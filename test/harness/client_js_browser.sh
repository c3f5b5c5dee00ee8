#!/usr/bin/env bash
# The JavaScript client in a browser: Debian's Chromium, headless, loads
# clients/js/test/browser/index.html from a web server of its own over the
# repository (python3's http.server on 127.0.0.1), and that page checks the
# library against docs/vectors with no Node.js API, as the Node.js tests do,
# writing "PASS n" or "FAIL reason" into its title.  Needs chromium
# (scripts/test.sh installs it) and python3.  Ends with one line
# "client_js_browser: ..."; exits non-zero on failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	echo "client_js_browser: FAILED, no chromium (apt-get install chromium)"
	exit 1
fi
work=$(mktemp -d /tmp/bloomsketch-browser.XXXXXX)
server=
cleanup() {
	[ -z "$server" ] || kill "$server" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$repo" "$port" >"$work/server.log" 2>&1 &
server=$!
url=http://127.0.0.1:$port/clients/js/test/browser/index.html
for _ in $(seq 100); do
	python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1])" "$url" 2>/dev/null && break
	sleep 0.1
done
# root needs --no-sandbox; the virtual time budget lets the page's fetches
# and checks finish before the DOM is printed
dom=$(timeout 300 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--user-data-dir="$work/profile" --virtual-time-budget=120000 --dump-dom "$url" \
	2>"$work/browser.log" || true)
title=$(printf '%s\n' "$dom" | sed -n 's:.*<title>\(.*\)</title>.*:\1:p' | head -1)
version=$("$browser" --version 2>/dev/null | head -1)
case $title in
	PASS*)
		echo "client_js_browser: ok (${title#PASS } checks of docs/vectors in $version)"
		;;
	*)
		tail -20 "$work/browser.log"
		echo "client_js_browser: FAILED in $version: ${title:-no result}"
		exit 1
		;;
esac
