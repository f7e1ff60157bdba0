#!/bin/sh
# The pictures of GPU nets, measured by tests/svg-overlaps: in the dot
# layout the arcs of 24 and 32 warps wiggle no more than those of 16 (a
# few curve points an arc, none looping through its warp); at the file's
# positions (--positions) the shared nodes have a copy in each warp, as in
# the dot layout, and under 2% of the labels are crossed by an arc.
. "${srcdir:-tests}/lib.sh"
CHECK="$top_builddir/tests/svg-overlaps"
# every warp drawn (not folded into boxes)
UNFOLDED=--no-fold

# the measure fails a picture whose arcs loop
cat > "$TMP/loop.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg"><g class="graph">
<g class="edge"><path d="M0,0C10,10 20,20 30,30 40,40 50,50 60,60 70,70 80,80 90,90"/></g>
<g class="edge"><path d="M0,0C10,10 20,20 30,30"/></g>
</g></svg>
EOF
expect 0 "$CHECK" --wiggle 7,10 "$TMP/loop.svg"
has "$TMP/out" "2 arcs, 7.0 curve points an arc, at most 10"
expect 1 "$CHECK" --wiggle 6,10 "$TMP/loop.svg"
has "$TMP/err" "the arcs wiggle: 7.0 curve points an arc (at most 6)"
expect 1 "$CHECK" --wiggle 7,9 "$TMP/loop.svg"
expect 2 "$CHECK" --wiggle 7 "$TMP/loop.svg"

# 16 warps, and the sizes above 1,500 nodes and arcs
for w in 16 24 32; do
    "$BIN/pn-gen-gpu" --warps $w --quiet -o "$TMP/g$w.pnml"
    expect 0 "$BIN/pn-dot" $UNFOLDED "$TMP/g$w.pnml" -o "$TMP/d$w.svg"
    expect 0 "$CHECK" --wiggle 10,40 "$TMP/d$w.svg"
    sed 's/^/  /' "$TMP/out"
    has "$TMP/out" "0 text/text, 0 text/node, 0 text/arc"
done

# at the positions: p0, active and t0 drawn again, dashed, in each warp,
# where that warp's arcs end: the original keeps only its arcs with t0
# (the arcs at a node: those whose title names it, perhaps with a port)
arcs_at() {
    name=$(grep -A1 "<g id=\"$2\" class=\"node\">" "$1" |
           sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p')
    grep -cE "<title>$name(:[a-z]+)?&#45;&gt;|&#45;&gt;$name(:[a-z]+)?</title>" "$1"
}
for w in 1 4; do
    "$BIN/pn-gen-gpu" --warps $w --quiet -o "$TMP/g$w.pnml"
    expect 0 "$BIN/pn-dot" --positions "$TMP/g$w.pnml" -o "$TMP/p$w.svg"
    expect 0 "$CHECK" --crossed 2 "$TMP/p$w.svg"
    sed 's/^/  /' "$TMP/out"
    has "$TMP/out" "0 text/text, 0 text/node"
done
for n in p0 active t0; do
    for k in 0 1 2 3; do has "$TMP/p4.svg" "id=\"$n@w$k\""; done
done
[ "$(arcs_at "$TMP/p4.svg" p0)" -le 2 ] && ok ||
    bad "p4.svg: $(arcs_at "$TMP/p4.svg" p0) arcs at p0, not 2"
# a 1-warp net has nothing shared: no copies
lacks "$TMP/p1.svg" 'id="p0@w0"'
finish
