#!/usr/bin/env bash
# Opens a report's report.html in headless Chromium, as a reader's browser would, and checks:
#  - the page loads and logs nothing on its console (no script error, no message at all);
#  - every plot the report wrote (plot-*.svg, gap-*.svg, scale-*.svg) is inline in the DOM, one
#    <svg> element each, and every legend entry of them made it in;
#  - every relative link (the diagrams, the plot files) names a file that exists;
# then takes a screenshot of the page's top (REPORT_DIR/report.png, or the second argument) for a
# person to look at.
#
#   scripts/check_report_html.sh REPORT_DIR [SCREENSHOT.png]
#
# Exit 0 when every check passes, 1 when one fails, 2 on bad usage or no browser.
set -euo pipefail

dir=${1:-}
if [ -z "$dir" ] || [ ! -f "$dir/report.html" ]; then
  echo "usage: $0 REPORT_DIR [SCREENSHOT.png] (REPORT_DIR/report.html must exist)" >&2
  exit 2
fi
shot=${2:-$dir/report.png}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "no chromium on PATH (apt-get install chromium)" >&2
  exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Without the networking flags the browser waits on a network that is not there.
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --user-data-dir="$scratch/profile")
url="file://$(realpath "$dir/report.html")"
failed=0
fail() {
  echo "report.html: $*" >&2
  failed=1
}

timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --dump-dom "$url" \
  >"$scratch/dom.html" 2>"$scratch/stderr.txt" || fail "the browser did not load it (exit $?)"
if grep -E 'CONSOLE|Uncaught' "$scratch/stderr.txt" >&2; then
  fail "its console is not empty"
fi

plots=$(find "$dir" -maxdepth 1 \( -name 'plot-*.svg' -o -name 'gap-*.svg' -o -name 'scale-*.svg' \) | wc -l)
inline=$(grep -o '<svg' "$scratch/dom.html" | wc -l)
[ "$plots" -gt 0 ] || fail "the report wrote no plot"
[ "$inline" -eq "$plots" ] || fail "$inline <svg> elements in the DOM for $plots plot files"
entries=$(cat "$dir"/plot-*.svg "$dir"/gap-*.svg "$dir"/scale-*.svg 2>/dev/null | grep -o 'class="legend-entry"' | wc -l)
in_dom=$(grep -o 'class="legend-entry"' "$scratch/dom.html" | wc -l)
[ "$in_dom" -eq "$entries" ] || fail "$in_dom legend entries in the DOM for $entries in the plot files"

links=0
while IFS= read -r href; do
  links=$((links + 1))
  [ -f "$dir/$href" ] || fail "links to $href, which does not exist"
done < <(grep -o 'href="[^"#:]*"' "$dir/report.html" | sed 's/^href="//; s/"$//' | sort -u)

timeout 120 "$browser" "${flags[@]}" --hide-scrollbars --window-size=1400,2400 \
  --screenshot="$shot" "$url" >/dev/null 2>&1 || fail "no screenshot (exit $?)"
[ -s "$shot" ] || fail "the screenshot $shot is empty"

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "report.html: loaded without console messages; $inline plots inline with $in_dom legend entries; $links relative links resolve; screenshot $shot"
