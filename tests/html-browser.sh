#!/bin/sh
# pn-dot --html in a real browser: headless Chromium opens the page at
# file://PAGE#step=K (its --dump-dom prints the document once the page's
# script has run), and what the page shows must be the run at step K: the
# marking in the table and the numbers beside the places equal the
# trace's snapshot at K (pn-run --snapshot), the transitions drawn fired
# and listed are those of the trace's step K, the slider is at K.  Also
# reached a step at a time (#step=K&from=J: forward and back, as the
# buttons go), so that changing only what differs leaves no stale node.
# Skipped (77) without Chromium; CI installs it (share/quickstart.sh).
. "${srcdir:-tests}/lib.sh"

browser=""
for b in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
    if command -v "$b" > /dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "SKIP: no Chromium to open the pages in (apt-get install chromium," \
         "or set CHROMIUM to a Chromium or Chrome)"
    exit 77
fi

# dom PAGE FRAGMENT: the page's document after its script ran, in $TMP/dom
dom() {
    timeout 300 "$browser" --headless --no-sandbox --disable-gpu \
        --no-first-run --user-data-dir="$TMP/profile" \
        --dump-dom "file://$1#$2" > "$TMP/dom" 2> "$TMP/browser.err"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q 'id="pnv-marking"' "$TMP/dom"; then
        bad "$browser did not show $1#$2 (exit $rc)"
        tail -5 "$TMP/browser.err" >&2
        return 1
    fi
}

# sorted LINE: "X step" and the rest of the line's words sorted
sorted() { echo "$1" | tr ' ' '\n' | sed '1,2d' | sort | tr '\n' ' '; }

# check TRACE K FRAGMENT: the page $TMP/page.html at FRAGMENT shows step K
check() {
    trace=$1 k=$2
    dom "$TMP/page.html" "$3" || return
    n=$(sed -n 's/^E [a-z]* //p' "$trace")
    has "$TMP/dom" "<span id=\"pnv-step\">step $k of $n</span>"
    has "$TMP/dom" '<p id="pnv-error" hidden="">'
    # the marking: the trace's snapshot at k (the places with tokens)
    want=$(sorted "$(grep "^M $k " "$trace")")
    [ -n "$want" ] || { bad "no snapshot at step $k"; return; }
    table=$(awk 'BEGIN {RS = "<div class=\"row"} /class="pid"/ {
        match($0, /class="pid">[^<]*/); id = substr($0, RSTART + 12, RLENGTH - 12)
        match($0, /class="tok">[^<]*/); v = substr($0, RSTART + 12, RLENGTH - 12)
        if (v != "0") print id "=" v}' "$TMP/dom" | sort | tr '\n' ' ')
    [ "$table" = "$want" ] && ok || bad "step $k ($3): the table shows '$table', the trace '$want'"
    places=$(grep -o 'class="pid"' "$TMP/dom" | wc -l)
    [ "$places" = "$(grep -o '<place ' "$TMP/net.pnml" | wc -l)" ] && ok || bad "$places rows in the table"
    # the same numbers beside the places in the net's picture
    # (a node's tooltip is a group "a_ID" inside the node's group "ID")
    drawn=$(awk 'BEGIN {RS = "<g id=\""}
        {id = substr($0, 1, index($0, "\"") - 1)
         if ($0 ~ /^[^>]*class="node/) node = id
         else if (id != "a_" node) node = ""
         if (node != "" && match($0, /<text class="tok"[^>]*>[^<]*/)) {
             t = substr($0, RSTART, RLENGTH); v = substr(t, index(t, ">") + 1)
             if (v != "") print node "=" v}}' "$TMP/dom" | sort | tr '\n' ' ')
    [ "$drawn" = "$want" ] && ok || bad "step $k ($3): the picture shows '$drawn', the trace '$want'"
    # the transitions fired in step k drawn fired, and listed
    want=$(sorted "$(grep "^S $k " "$trace")")
    hot=$(grep -o '<g id="[^"]*" class="node fired"' "$TMP/dom" |
          sed 's/<g id="\([^"]*\)".*/\1/' | sort | tr '\n' ' ')
    [ "$hot" = "$want" ] && ok || bad "step $k ($3): '$hot' drawn fired, the trace fired '$want'"
    listed=$(sed -n 's/.*<p id="pnv-fired">\([^<]*\)<.*/\1/p' "$TMP/dom" | tr ' ' '\n' | sort | tr '\n' ' ')
    if [ "$k" -gt 0 ]; then
        [ "$listed" = "$want" ] && ok || bad "step $k ($3): '$listed' listed, the trace fired '$want'"
    fi
}

# a small net: one warp; a GPU net: 8 warps (places with many tokens)
"$BIN/pn-gen-gpu" --warps 1 --arith 3 --shared 2 --global 2 -o "$TMP/net.pnml"
"$BIN/pn-run" --seed 2 --snapshot 5 --trace "$TMP/run.trace" "$TMP/net.pnml" > /dev/null
"$BIN/pn-dot" --html "$TMP/page.html" --trace "$TMP/run.trace" "$TMP/net.pnml" && ok || bad "no page"
last=$(sed -n 's/^M \([0-9]*\) .*/\1/p' "$TMP/run.trace" | tail -1)
check "$TMP/run.trace" 0 "step=0"
check "$TMP/run.trace" 10 "step=10"
check "$TMP/run.trace" "$last" "step=$last&from=3"
check "$TMP/run.trace" 5 "step=5&from=$last"

"$BIN/pn-gen-gpu" --warps 8 -o "$TMP/net.pnml"
"$BIN/pn-run" --seed 3 --snapshot 40 --trace "$TMP/run.trace" "$TMP/net.pnml" > /dev/null
"$BIN/pn-dot" --positions --html "$TMP/page.html" --trace "$TMP/run.trace" "$TMP/net.pnml" && ok || bad "no page"
check "$TMP/run.trace" 80 "step=80&from=41"
check "$TMP/run.trace" 120 "step=120"
finish
