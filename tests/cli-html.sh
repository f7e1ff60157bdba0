#!/bin/sh
# pn-dot --html without a browser (tests/html-browser.sh opens the pages):
# the command line, a page that fetches nothing, its size, its data
# decoded back to the trace (every step's fired transitions, the marking
# at every snapshot), ids that need escaping, the limits, atomic output,
# and the page's script the same as render/viewer.js.
. "${srcdir:-tests}/lib.sh"
top="$srcdir/.."

"$BIN/pn-gen-gpu" --warps 4 --arith 3 --shared 2 --global 2 -o "$TMP/g.pnml"
"$BIN/pn-run" --seed 5 --snapshot 4 --trace "$TMP/g.trace" "$TMP/g.pnml" > /dev/null
steps=$(sed -n 's/^E dead //p' "$TMP/g.trace")
[ "$steps" -gt 20 ] && ok || bad "a run of $steps steps"

# the command line
expect 2 "$BIN/pn-dot" --html "$TMP/x.html" "$TMP/g.pnml"
has "$TMP/err" "--html FILE names the page to write and needs --trace"
expect 2 "$BIN/pn-dot" --html "$TMP/x.html" -o "$TMP/y.html" --trace "$TMP/g.trace" "$TMP/g.pnml"
expect 2 "$BIN/pn-dot" --html "$TMP/x.html" --timeline --trace "$TMP/g.trace" "$TMP/g.pnml"
expect 2 "$BIN/pn-dot" --html "$TMP/x.html" --step 2 --trace "$TMP/g.trace" "$TMP/g.pnml"
[ -e "$TMP/x.html" ] && bad "a page written for a bad command line" || ok
expect 1 "$BIN/pn-dot" --html "$TMP/x.html" --trace "$TMP/missing.trace" "$TMP/g.pnml"
[ -e "$TMP/x.html" ] && bad "a page written for a missing trace" || ok
expect 3 "$BIN/pn-dot" --html "$TMP/no/such/dir/x.html" --trace "$TMP/g.trace" "$TMP/g.pnml"
has "$TMP/err" "cannot write"

# a page
umask 022
expect 0 "$BIN/pn-dot" --html "$TMP/g.html" --trace "$TMP/g.trace" "$TMP/g.pnml"
[ "$(stat -c %a "$TMP/g.html")" = 644 ] && ok || bad "mode $(stat -c %a "$TMP/g.html")"
ls "$TMP" | grep -q '\.tmp' && bad "temporary file left" || ok
expect 0 sh -c "'$BIN/pn-dot' --html - --trace '$TMP/g.trace' '$TMP/g.pnml' | cmp - '$TMP/g.html'"
has "$TMP/g.html" "<!DOCTYPE html>"
has "$TMP/g.html" 'id="pnv-slider"'
has "$TMP/g.html" 'id="pnv-play"'
has "$TMP/g.html" 'id="pnv-marking"'
has "$TMP/g.html" 'id="pnv-timeline"'
# the net's SVG inline, without its XML declaration and doctype
has "$TMP/g.html" '<g id="w3_t16" class="node">'
lacks "$TMP/g.html" "<?xml"
lacks "$TMP/g.html" "<!DOCTYPE svg"
# it fetches nothing: no src or href (but the SVG's own #links), no
# @import or url() in the style, no fetch or request in the script
grep -Eio '(src|href)=["'"'"']?[^"'"'"' >]*' "$TMP/g.html" | grep -v '^[a-z:]*href="#' > "$TMP/links"
[ -s "$TMP/links" ] && bad "the page links out: $(head -3 "$TMP/links")" || ok
grep -Eiq '@import|url\(|fetch\(|XMLHttpRequest|<link|<iframe|<img' "$TMP/g.html" && bad "the page may fetch" || ok
# its size: the picture, the style and script (< 60 kB), the data
svg=$("$BIN/pn-dot" -f svg --trace "$TMP/g.trace" --step 0 "$TMP/g.pnml" | wc -c)
size=$(wc -c < "$TMP/g.html")
[ "$size" -gt "$svg" ] && [ "$size" -lt $((svg + 60000 + $(wc -c < "$TMP/g.trace"))) ] && ok ||
    bad "a page of $size bytes for an SVG of $svg"

# the data, decoded: unsigned LEB128 numbers in base64
numbers() {
    sed -n '/<script type="text\/plain" id="pnv-data">/,/<\/script>/p' "$1" |
        sed '1d;$d' | base64 -d | od -An -tu1 -v |
        awk 'BEGIN {m = 1} {for (i = 1; i <= NF; i++) {v += ($i % 128) * m;
             m *= 128; if ($i < 128) {print v; v = 0; m = 1}}}'
}
# ids LIST FILE: a JSON list of the page's meta ("places", "transitions")
ids() { sed -n "s/^\"$1\":\[\(.*\)\],*\$/\1/p" "$2" | tr ',' '\n' | tr -d '"'; }
# decode PAGE: the run as the trace has it, each line's ids sorted: "S
# step id...", and "M step id=n..." at the trace's snapshot steps
decode() {
    ids places "$1" > "$TMP/p.ids"
    ids transitions "$1" > "$TMP/t.ids"
    numbers "$1" | awk -v snaps="$(sed -n 's/^M \([0-9]*\) .*/\1/p' "$3" | tr '\n' ' ')" '
        function snapshot(s,  line, p) {
            if (!(s in snap)) return
            line = "M " s
            for (p = 0; p < np; p++) if (m[p]) line = line " " pid[p] "=" m[p]
            print line
        }
        FILENAME == ARGV[1] {pid[NR - 1] = $0; next}
        FILENAME == ARGV[2] {tid[FNR - 1] = $0; next}
        {x[n++] = $0}
        END {
            split(snaps, a, " "); for (i in a) snap[a[i]] = 1
            k = 0; np = x[k++]; nt = x[k++]; steps = x[k++]
            for (p = 0; p < np; p++) m[p] = x[k++]
            snapshot(0)
            for (s = 1; s <= steps; s++) {
                nf = x[k++]; t = 0; line = "S " s
                for (i = 0; i < nf; i++) { t += x[k++]; line = line " " tid[t] }
                print line
                nd = x[k++]; p = -1
                for (i = 0; i < nd; i++) { p += x[k++] + 1; m[p] = x[k++] }
                snapshot(s)
            }
            if (k != n) print "left over: " n - k " numbers"
        }' "$TMP/p.ids" "$TMP/t.ids" - |
        awk '{printf "%s %s", $1, $2; n = split($0, a, " "); delete a[1]; delete a[2];
              m = 0; for (i = 3; i <= n; i++) b[++m] = a[i];
              for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (b[j] < b[i]) {t = b[i]; b[i] = b[j]; b[j] = t}
              for (i = 1; i <= m; i++) printf " %s", b[i]; print ""}' > "$2"
}
# the trace's S and M lines, ids sorted
sorted_trace() {
    grep '^[SM] ' "$1" |
        awk '{printf "%s %s", $1, $2; n = split($0, a, " ");
              m = 0; for (i = 3; i <= n; i++) b[++m] = a[i];
              for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (b[j] < b[i]) {t = b[i]; b[i] = b[j]; b[j] = t}
              for (i = 1; i <= m; i++) printf " %s", b[i]; print ""}'
}
decode "$TMP/g.html" "$TMP/decoded" "$TMP/g.trace"
sorted_trace "$TMP/g.trace" > "$TMP/want"
[ "$(grep -c '^M' "$TMP/want")" -ge 5 ] && ok || bad "too few snapshots to compare"
if cmp -s "$TMP/decoded" "$TMP/want"; then ok; else
    bad "the page's data is not the trace: $(diff "$TMP/want" "$TMP/decoded" | head -5)"; fi
# the meta says as much
has "$TMP/g.html" "\"steps\":$steps,"
has "$TMP/g.html" '"rowsTitle":"warp"'

# a run that is not a GPU net's, with ids that need escaping in the page
net="$srcdir/pnml/valid/odd-ids/net.pnml"
"$BIN/pn-run" --trace "$TMP/o.trace" "$net" > /dev/null
expect 0 "$BIN/pn-dot" --html "$TMP/o.html" --trace "$TMP/o.trace" "$net"
lacks "$TMP/o.html" '"<'
# a token count beyond what the page's numbers hold exactly
net="$srcdir/pnml/valid/max-marking/net.pnml"
"$BIN/pn-run" --trace "$TMP/mm.trace" "$net" > /dev/null
expect 4 "$BIN/pn-dot" --html "$TMP/mm.html" --trace "$TMP/mm.trace" "$net"
has "$TMP/err" "more than a page shows exactly (9007199254740991)"
[ -e "$TMP/mm.html" ] && bad "a page written for a count too large" || ok
# a net too large for the layout: the advice of pn-dot
"$BIN/pn-gen-gpu" --warps 64 -o "$TMP/big.pnml"
"$BIN/pn-run" --max-steps 50 --trace "$TMP/big.trace" "$TMP/big.pnml" > /dev/null
expect 4 "$BIN/pn-dot" --html "$TMP/big.html" --trace "$TMP/big.trace" "$TMP/big.pnml"
has "$TMP/err" "or --positions to draw it where the PNML places it"
expect 0 "$BIN/pn-dot" --positions --html "$TMP/big.html" --trace "$TMP/big.trace" "$TMP/big.pnml"

# the page's style and script are render/viewer.css and render/viewer.js
# (made C strings when the library is built)
sed -n '/^<style>$/,/^<\/style>$/p' "$TMP/g.html" | sed '1d;$d' > "$TMP/css"
cmp -s "$TMP/css" "$top/render/viewer.css" && ok ||
    bad "the page's style is not render/viewer.css"
sed -n '/^<script>$/,/^<\/script>$/p' "$TMP/g.html" | sed '1d;$d' > "$TMP/js"
cmp -s "$TMP/js" "$top/render/viewer.js" && ok ||
    bad "the page's script is not render/viewer.js"
if command -v node > /dev/null; then
    node --check "$top/render/viewer.js" && ok || bad "render/viewer.js does not parse"
fi
finish
