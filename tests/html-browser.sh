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
        match($0, /class="pid"[^>]*>[^<]*/); id = substr($0, RSTART, RLENGTH)
        id = substr(id, index(id, ">") + 1)
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
    listed=$(sed -n 's/.*<p id="pnv-fired">\(.*\)<\/p>.*/\1/p' "$TMP/dom" |
             sed 's/<[^>]*>//g' | tr ' ' '\n' | sort | tr '\n' ' ')
    if [ "$k" -gt 0 ]; then
        [ "$listed" = "$want" ] && ok || bad "step $k ($3): '$listed' listed, the trace fired '$want'"
    fi
}

# look PAGE FRAGMENT IDS: the page opened at FRAGMENT in a 1280x800 window
# with two scripts of the test's own around the page's: the first records
# every text the timeline draws, the second measures what the page shows
# and writes one line per fault in <pre id="t-look"> (none: "ok"):
#  - the nodes IDS (the transitions the step fires) lie whole in the view
#    of the net;
#  - every text of the timeline lies whole in its canvas, and every row
#    name is drawn whole;
#  - no id in the "fired" list is broken across two lines, in any step.
look() {
    page=$1 frag=$2 ids=$3
    {
        sed -n '1,/^<body>$/p' "$page"
        cat <<'EOF'
<script>
window.tDrawn = [];
(function () {
  var fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (s, x) {
    var w = this.measureText(s).width, a = this.textAlign;
    var left = a === 'right' || a === 'end' ? x - w
             : a === 'center' ? x - w / 2 : x;
    tDrawn.push({ s: String(s), left: left, right: left + w,
                  width: this.canvas.width / (window.devicePixelRatio || 1) });
    return fill.apply(this, arguments);
  };
})();
</script>
EOF
        sed -n '/^<body>$/,/^<\/body>$/p' "$page" | sed '1d;$d'
        printf '<script>var tWant = "%s";</script>\n' "$ids"
        cat <<'EOF'
<pre id="t-look"></pre>
<script>
(function () {
  var faults = [];
  function px(v) { return Math.round(v); }
  /* the fired transitions in the view of the net */
  var net = document.getElementById('pnv-net'), r = net.getBoundingClientRect();
  var vl = r.left + net.clientLeft, vt = r.top + net.clientTop;
  var vr = Math.min(vl + net.clientWidth, window.innerWidth),
      vb = Math.min(vt + net.clientHeight, window.innerHeight);
  tWant.split(' ').filter(Boolean).forEach(function (id) {
    var g = document.getElementById(id);
    if (!g) { faults.push(id + ' is not drawn'); return; }
    var b = g.getBoundingClientRect();
    if (b.left < vl - 0.5 || b.right > vr + 0.5 || b.top < vt - 0.5 ||
        b.bottom > vb + 0.5)
      faults.push(id + ' out of view: at x ' + px(b.left) + '..' +
                  px(b.right) + ', y ' + px(b.top) + '..' + px(b.bottom) +
                  '; the view x ' + px(vl) + '..' + px(vr) + ', y ' +
                  px(vt) + '..' + px(vb));
  });
  /* the timeline's texts whole, every row name drawn */
  var meta = JSON.parse(document.getElementById('pnv-meta').textContent);
  var seen = new Set();
  tDrawn.forEach(function (d) {
    seen.add(d.s);
    if (d.left < -0.5 || d.right > d.width + 0.5)
      faults.push("timeline: '" + d.s + "' drawn at x " + px(d.left) + '..' +
                  px(d.right) + ' in a canvas ' + px(d.width) + ' wide');
  });
  if (meta.rows.length <= 64)
    meta.rows.forEach(function (name) {
      if (!seen.has(name)) faults.push("timeline: row '" + name + "' not drawn whole");
    });
  /* every step: no id of the fired list on two lines */
  var list = document.getElementById('pnv-fired'), broken = 0;
  document.getElementById('pnv-first').click();
  for (var s = 1; s <= meta.steps && broken < 3; s++) {
    document.getElementById('pnv-fwd').click();
    var walk = document.createTreeWalker(list, NodeFilter.SHOW_TEXT), node;
    while ((node = walk.nextNode())) {
      var re = /\S+/g, m;
      while ((m = re.exec(node.data))) {
        var range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        var tops = new Set();
        Array.prototype.forEach.call(range.getClientRects(), function (q) {
          tops.add(px(q.top));
        });
        if (tops.size > 1 && broken++ < 3)
          faults.push("step " + s + ": '" + m[0] + "' on " + tops.size +
                      ' lines of the fired list');
      }
    }
  }
  document.getElementById('t-look').textContent =
    faults.length ? faults.join('\n') : 'ok';
})();
</script>
</body>
</html>
EOF
    } > "$TMP/look.html"
    timeout 300 "$browser" --headless --no-sandbox --disable-gpu \
        --no-first-run --user-data-dir="$TMP/profile" --window-size=1280,800 \
        --dump-dom "file://$TMP/look.html#$frag" > "$TMP/dom" 2> "$TMP/browser.err"
    awk '/<pre id="t-look">/ {on = 1; sub(/.*<pre id="t-look">/, "")}
         on {e = sub(/<\/pre>.*/, ""); print; if (e) exit}' "$TMP/dom" > "$TMP/look"
    if [ "$(cat "$TMP/look")" = ok ]; then ok; else
        bad "$page#$frag does not show the run as a person reads it:"
        sed 's/^/  | /; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' "$TMP/look" | head -12 >&2
    fi
}

# fired TRACE K: the transitions the page at step K is about: those fired
# in step K, at step 0 those of the first step
fired() { sed -n "s/^S $(( $2 > 0 ? $2 : 1 )) //p" "$1"; }

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

# what a person sees first: the view of the net on the step's transitions
# (at step 0 those of step 1), the timeline's row names whole, the ids of
# the fired list whole; at the net's positions, in the default layout,
# opened with no step, and in a tall net at zoom "fit"
look "$TMP/page.html" "step=120" "$(fired "$TMP/run.trace" 120)"
"$BIN/pn-dot" --html "$TMP/page.html" --trace "$TMP/run.trace" "$TMP/net.pnml" && ok || bad "no page"
look "$TMP/page.html" "step=80" "$(fired "$TMP/run.trace" 80)"
look "$TMP/page.html" "" "$(fired "$TMP/run.trace" 0)"
"$BIN/pn-gen-gpu" --warps 1 --arith 3 --shared 2 --global 2 -o "$TMP/net.pnml"
"$BIN/pn-run" --seed 2 --trace "$TMP/run.trace" "$TMP/net.pnml" > /dev/null
"$BIN/pn-dot" --html "$TMP/page.html" --trace "$TMP/run.trace" "$TMP/net.pnml" && ok || bad "no page"
last=$(sed -n 's/^S \([0-9]*\) .*/\1/p' "$TMP/run.trace" | tail -1)
look "$TMP/page.html" "zoom=fit&step=$last" "$(fired "$TMP/run.trace" "$last")"
# long transition ids: a row of the timeline each
sed 's/w0_/streaming_multiprocessor_0_warp_0_/g' "$TMP/net.pnml" > "$TMP/long.pnml"
"$BIN/pn-run" --seed 2 --trace "$TMP/run.trace" "$TMP/long.pnml" > /dev/null
"$BIN/pn-dot" --html "$TMP/page.html" --trace "$TMP/run.trace" "$TMP/long.pnml" && ok || bad "no page"
look "$TMP/page.html" "step=30" "$(fired "$TMP/run.trace" 30)"
finish
