#!/bin/sh
# pn-dot from the command line: formats, layouts, traces, timelines, bad
# input (missing file, a trace of another net, a step out of range), large
# nets, atomic output with a normal file mode.
. "${srcdir:-tests}/lib.sh"

expect 0 "$BIN/pn-dot" --help
has "$TMP/out" "Usage: pn-dot"
expect 0 "$BIN/pn-dot" --version
has "$TMP/out" "pn-dot (pn-toolkit)"
expect 2 "$BIN/pn-dot" --no-such-option
man_documents_options pn-dot

"$BIN/pn-gen-gpu" --warps 3 --arith 2 --shared 1 --global 1 -o "$TMP/g.pnml"
# formats from the extension, or -T
expect 0 "$BIN/pn-dot" "$TMP/g.pnml" -o "$TMP/g.svg"
has "$TMP/g.svg" "<svg"
has "$TMP/g.svg" 'id="w2_t16"'
has "$TMP/g.svg" 'id="p0"'
expect 0 "$BIN/pn-dot" --positions "$TMP/g.pnml" -o "$TMP/g.png"
head -c 8 "$TMP/g.png" | od -An -c | tr -d ' \n' | grep -q '211PNG' && ok || bad "not a PNG"
# --dpi: the PNG's pixels per inch (half the default: half the width)
png_width() { od -An -tu1 -j16 -N4 "$1" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}'; }
png_height() { od -An -tu1 -j20 -N4 "$1" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}'; }
expect 0 "$BIN/pn-dot" --positions --dpi 48 "$TMP/g.pnml" -o "$TMP/g48.png"
w96=$(png_width "$TMP/g.png"); w48=$(png_width "$TMP/g48.png")
[ $((w96 / 2 - w48)) -ge -2 ] && [ $((w96 / 2 - w48)) -le 2 ] && ok || bad "width $w48 at 48 dpi, $w96 at 96"
expect 2 "$BIN/pn-dot" --dpi 0 "$TMP/g.pnml" -o "$TMP/g0.png"
has "$TMP/err" "--dpi: '0' is not a whole number from 1 to 10000"
# a PNG within 16384 pixels a side, where common viewers open it: at 200
# dpi this one would be 17142 pixels wide, so it is drawn at the highest
# whole dpi at which it fits, and a note says which
expect 0 "$BIN/pn-dot" --positions --dpi 200 "$TMP/g.pnml" -o "$TMP/g200.png"
w=$(png_width "$TMP/g200.png"); h=$(png_height "$TMP/g200.png")
d=$(sed -n 's/^pn-dot: note: drawn at \([0-9]*\) dpi, not 200, .*/\1/p' "$TMP/err")
has "$TMP/err" "to keep the PNG within 16384 pixels a side ($w x $h); -f svg or -f pdf have no such limit"
# one dpi more would pass 16384: w / d * (d + 1)
[ -n "$d" ] && [ "$w" -le 16384 ] && [ $((w * (d + 1) / d)) -gt 16384 ] && ok ||
    bad "$w x $h pixels at '$d' dpi"
expect 0 "$BIN/pn-dot" -q --positions --dpi 200 "$TMP/g.pnml" -o "$TMP/g200.png"
[ -s "$TMP/err" ] && bad "a note with --quiet" || ok
expect 0 "$BIN/pn-dot" --positions --dpi 150 "$TMP/g.pnml" -o "$TMP/g150.png"
[ -s "$TMP/err" ] && bad "a note for a PNG within 16384 pixels a side" || ok
expect 0 "$BIN/pn-dot" -f pdf "$TMP/g.pnml" -o "$TMP/g.out"
head -c 4 "$TMP/g.out" | grep -q '%PDF' && ok || bad "not a PDF"
# -T, Graphviz's letter, is -f; a bad format is said as in every program
expect 0 "$BIN/pn-dot" -T dot "$TMP/g.pnml" -o "$TMP/g1.dot"
expect 0 "$BIN/pn-dot" -f dot "$TMP/g.pnml" -o "$TMP/g2.dot"
cmp -s "$TMP/g1.dot" "$TMP/g2.dot" && ok || bad "-T dot is not -f dot"
expect 2 "$BIN/pn-dot" -T jpg "$TMP/g.pnml"
has "$TMP/err" "pn-dot: --format: 'jpg' is not svg, png, pdf or dot"
expect 0 "$BIN/pn-dot" -f dot "$TMP/g.pnml"
has "$TMP/out" "cluster_w0"
has "$TMP/out" 'label="p1\n'
has "$TMP/out" "packmode=array_it"
expect 2 "$BIN/pn-dot" --labels long "$TMP/g.pnml"
has "$TMP/err" "--labels: 'long' is not short, name, id or none"
expect 2 "$BIN/pn-dot" --rankdir UP "$TMP/g.pnml"
has "$TMP/err" "--rankdir: 'UP' is not TB, LR, BT or RL"
expect 0 "$BIN/pn-dot" -f dot --labels name --rankdir LR "$TMP/g.pnml"
has "$TMP/out" "rankdir=LR"
has "$TMP/out" 'xlabel="w0 p1 active warp"'

has "$TMP/out" "arrowhead=odot"
expect 0 "$BIN/pn-dot" "$TMP/g.pnml"
has "$TMP/out" "<svg"
expect 0 sh -c "'$BIN/pn-dot' -f dot - < '$TMP/g.pnml'"
has "$TMP/out" "digraph"
expect 2 "$BIN/pn-dot" "$TMP/g.pnml" -o "$TMP/g.bmp"
has "$TMP/err" "cannot tell the format"
expect 2 "$BIN/pn-dot" --layout spring "$TMP/g.pnml" -o "$TMP/x.svg"
has "$TMP/err" "unknown layout 'spring'"
for l in neato fdp sfdp; do
    expect 0 "$BIN/pn-dot" --layout $l "$TMP/g.pnml" -o "$TMP/l.svg"
done
# a normal file mode (not the temporary file's 0600)
umask 022
"$BIN/pn-dot" "$TMP/g.pnml" -o "$TMP/mode.svg"
[ "$(stat -c %a "$TMP/mode.svg")" = 644 ] && ok || bad "mode $(stat -c %a "$TMP/mode.svg")"
ls "$TMP" | grep -q '\.tmp' && bad "temporary file left" || ok

# bad input
expect 1 "$BIN/pn-dot" "$TMP/missing.pnml" -o "$TMP/m.svg"
has "$TMP/err" "missing.pnml: cannot read"
[ -e "$TMP/m.svg" ] && bad "output written for a missing net" || ok

# a real trace: a step and a timeline
"$BIN/pn-run" --seed 4 --trace "$TMP/run.trace" "$TMP/g.pnml" > /dev/null
steps=$(sed -n 's/^E dead //p' "$TMP/run.trace")
fired=$(sed -n 's/^S 3 //p' "$TMP/run.trace")
expect 0 "$BIN/pn-dot" -f dot --trace "$TMP/run.trace" --step 3 "$TMP/g.pnml"
for t in $fired; do
    # the node of each transition fired in step 3 is drawn red
    # one record per node statement: its attributes up to "];"
    awk -v RS='];' -v id="$t" '(index($0, "id=" id ",") || index($0, "id=\"" id "\"")) && /fillcolor="#e4572e"/ {print "hot"}' "$TMP/out" | grep -q hot && ok || bad "$t not highlighted"
done
[ "$(grep -c 'fillcolor="#e4572e"' "$TMP/out")" = "$(echo $fired | wc -w)" ] && ok || bad "highlight count"
expect 0 "$BIN/pn-dot" --trace "$TMP/run.trace" --step 0 "$TMP/g.pnml" -o "$TMP/s0.svg"
expect 2 "$BIN/pn-dot" --trace "$TMP/run.trace" --step $((steps + 1)) "$TMP/g.pnml" -o "$TMP/bad.svg"
has "$TMP/err" "the trace has steps 0-$steps"
[ -e "$TMP/bad.svg" ] && bad "output written for a bad step" || ok
expect 0 "$BIN/pn-dot" --trace "$TMP/run.trace" --timeline "$TMP/g.pnml" -o "$TMP/tl.svg"
has "$TMP/tl.svg" "<svg"
has "$TMP/tl.svg" "arithmetic"
has "$TMP/tl.svg" "#f28e2b"
# the axes' titles and the rows' shares
has "$TMP/tl.svg" ">warp<"
has "$TMP/tl.svg" ">step<"
has "$TMP/tl.svg" "> none <"
has "$TMP/tl.svg" "%<"
# the last row: the warps issued (t1 takes the scheduler p0) per step, their
# mean and the most in a step, as counted from the trace
want=$(awk '$1 == "S" { n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^w[0-9]+_t1$/) n++;
                        sum += n; if (n > most) most = n; steps++ }
            END { printf "mean %.1f, most %d", sum / steps, most }' "$TMP/run.trace")
has "$TMP/tl.svg" ">warps issued<"
has "$TMP/tl.svg" "$want<"
# each step's bar: its count as the cell's tooltip (steps with none: no bar)
awk '$1 == "S" { n = 0; for (i = 3; i <= NF; i++) if ($i ~ /^w[0-9]+_t1$/) n++;
                 if (n) print n }' "$TMP/run.trace" > "$TMP/issued.want"
expect 0 "$BIN/pn-dot" -f dot --trace "$TMP/run.trace" --timeline "$TMP/g.pnml"
grep -o 'TOOLTIP="[0-9]*"' "$TMP/out" | tr -dc '0-9\n' > "$TMP/issued.got"
cmp -s "$TMP/issued.want" "$TMP/issued.got" && ok || bad "warps issued per step differ from the trace's t1 firings"
expect 0 "$BIN/pn-dot" --trace "$TMP/run.trace" --timeline --steps 2-9 "$TMP/g.pnml" -o "$TMP/tl.png"
expect 2 "$BIN/pn-dot" --trace "$TMP/run.trace" --timeline --steps 5-$((steps + 3)) "$TMP/g.pnml"
expect 2 "$BIN/pn-dot" --trace "$TMP/run.trace" --timeline --steps 9-2 "$TMP/g.pnml"
expect 2 "$BIN/pn-dot" --timeline "$TMP/g.pnml"
has "$TMP/err" "need --trace"
# a trace of another net
"$BIN/pn-gen-gpu" --warps 2 --arith 2 --shared 1 --global 1 -o "$TMP/other.pnml"
expect 1 "$BIN/pn-dot" --trace "$TMP/run.trace" --step 1 "$TMP/other.pnml" -o "$TMP/o.svg"
has "$TMP/err" "belongs to another net"
has "$TMP/err" "run.trace:"
expect 1 "$BIN/pn-dot" --trace "$TMP/g.pnml" --step 1 "$TMP/g.pnml"
has "$TMP/err" "is this a pn-run trace?"
expect 1 "$BIN/pn-dot" --trace "$TMP/none.trace" --step 1 "$TMP/g.pnml"

# large nets: folded by default, with a note; every warp drawn (--no-fold)
# is too many for the layout: a clear message, not a silent hang
"$BIN/pn-gen-gpu" --warps 64 -o "$TMP/big.pnml"
expect 0 "$BIN/pn-dot" "$TMP/big.pnml" -o "$TMP/big.svg"
has "$TMP/err" "pn-dot: note: 64 warps: w0 drawn in full, the other 63 folded into boxes to keep the picture readable; --no-fold draws every warp"
has "$TMP/big.svg" 'id="fold&#45;w63"'
expect 0 "$BIN/pn-dot" -q "$TMP/big.pnml" -o "$TMP/big.svg"
[ -s "$TMP/err" ] && bad "a note with --quiet" || ok
expect 4 "$BIN/pn-dot" --no-fold "$TMP/big.pnml" -o "$TMP/big.svg"
has "$TMP/err" "use --fold to draw the first group (warp) in full"
has "$TMP/err" "--positions"
expect 2 "$BIN/pn-dot" --fold --no-fold "$TMP/g.pnml"
has "$TMP/err" "--fold and --no-fold: choose one"
# the size from which nets are folded: 16 warps (1447 nodes and arcs) draw
# unfolded with no text covered; 17 (1537) are folded, the groups of
# --cluster-by too; not at the positions, nor a timeline
"$BIN/pn-gen-gpu" --warps 16 -o "$TMP/g16.pnml"
"$BIN/pn-gen-gpu" --warps 17 -o "$TMP/g17.pnml"
expect 0 "$BIN/pn-dot" -f dot "$TMP/g16.pnml"
has "$TMP/out" 'id=w15_p1'
[ -s "$TMP/err" ] && bad "a note for 16 warps" || ok
expect 0 "$BIN/pn-dot" -f dot "$TMP/g17.pnml"
has "$TMP/out" 'id="fold-w16"'
lacks "$TMP/out" 'id=w16_p1'
has "$TMP/err" "note: 17 warps: w0 drawn in full, the other 16 folded"
expect 0 "$BIN/pn-dot" -f dot --no-fold "$TMP/g17.pnml"
has "$TMP/out" 'id=w16_p1'
[ -s "$TMP/err" ] && bad "a note with --no-fold" || ok
expect 0 "$BIN/pn-dot" -f dot --cluster-by _ "$TMP/g17.pnml"
has "$TMP/out" 'id="fold-w16"'
has "$TMP/err" "note: 17 groups: w0 drawn in full, the other 16 folded into boxes to keep the picture readable; --no-fold draws every group"
expect 0 "$BIN/pn-dot" -f dot --no-clusters "$TMP/g17.pnml"
has "$TMP/out" 'id=w16_p1'
expect 0 "$BIN/pn-dot" --positions "$TMP/g17.pnml" -o "$TMP/g17.svg"
has "$TMP/g17.svg" 'id="w16_p1"'
[ -s "$TMP/err" ] && bad "a note with --positions" || ok
"$BIN/pn-run" --max-steps 20 --trace "$TMP/g17.trace" "$TMP/g17.pnml" > /dev/null
expect 0 "$BIN/pn-dot" --trace "$TMP/g17.trace" --timeline "$TMP/g17.pnml" -o "$TMP/tl17.svg"
has "$TMP/tl17.svg" '>w16<'
[ -s "$TMP/err" ] && bad "a note with --timeline" || ok
# a step of a large net: folded too, the boxes with the marking
expect 0 "$BIN/pn-dot" -f dot --trace "$TMP/g17.trace" --step 20 "$TMP/g17.pnml"
has "$TMP/out" 'id="fold-w16"'
has "$TMP/err" "note: 17 warps"
# a net without groups: sfdp without labels (the fewest texts covered)
expect 4 "$BIN/pn-dot" --cluster-by XYZ "$TMP/big.pnml" -o "$TMP/big.svg"
has "$TMP/err" "--layout sfdp --labels none"
expect 0 "$BIN/pn-dot" --positions "$TMP/big.pnml" -o "$TMP/big.svg"
has "$TMP/big.svg" 'id="w63_t17"'
# --fold: the first warp in full, the others as boxes: a 64-warp net drawn
# with the dot layout; at a step the boxes show the marking
expect 0 "$BIN/pn-dot" --fold "$TMP/big.pnml" -o "$TMP/fold.svg"
has "$TMP/fold.svg" 'id="w0_t16"'
has "$TMP/fold.svg" 'id="fold&#45;w63"'
lacks "$TMP/fold.svg" 'id="w1_p1"'
has "$TMP/fold.svg" '189 arcs'
expect 0 "$BIN/pn-dot" --fold --trace "$TMP/run.trace" --step 3 -f dot "$TMP/g.pnml"
has "$TMP/out" 'id="fold-w2"'
has "$TMP/out" 'fired'
sed 's/"p0"/"q0"/g' "$TMP/g.pnml" > "$TMP/n.pnml"  # not the generator's ids
expect 2 "$BIN/pn-dot" --fold "$TMP/n.pnml"
has "$TMP/err" "--fold: $TMP/n.pnml is not a GPU warp net; give its groups with --cluster-by SEP"
expect 0 "$BIN/pn-dot" --fold --cluster-by _ -f dot "$TMP/n.pnml"
has "$TMP/out" 'id="fold-w1"'
has "$TMP/out" 'id=w0_p1'
lacks "$TMP/out" 'id=w1_p1'
expect 2 "$BIN/pn-dot" --fold --positions "$TMP/big.pnml"
has "$TMP/err" "--fold draws a net laid out by Graphviz"
expect 2 "$BIN/pn-dot" --fold --trace "$TMP/run.trace" --timeline "$TMP/g.pnml"
# every warp of a 32-warp net, as a PNG at the default 96 dpi: 23815
# pixels wide, past what ImageMagick and common viewers open; drawn at the
# dpi at which it is 16384 wide or less
"$BIN/pn-gen-gpu" --warps 32 -o "$TMP/g32.pnml"
expect 0 "$BIN/pn-dot" --no-fold "$TMP/g32.pnml" -o "$TMP/g32.png"
w=$(png_width "$TMP/g32.png"); h=$(png_height "$TMP/g32.png")
[ "$w" -le 16384 ] && [ "$h" -le 16384 ] && [ "$w" -gt 16000 ] && ok || bad "$w x $h pixels"
has "$TMP/err" "pn-dot: note: drawn at "
has "$TMP/err" " dpi, not 96, to keep the PNG within 16384 pixels a side ($w x $h)"

# the figures of pn-dot(1) are what the program says: the resolution at
# which a PNG of a 32- and of a 64-warp net at their positions is drawn,
# and the one at which a 2-warp net asked at 600 dpi fits 100 megapixels
man=$(sed 's/\\f[BIRP]//g; s/\\-/-/g' "$srcdir/../share/man/pn-dot.1" | tr '\n' ' ' | tr -s ' ')
figures() { printf '%s\n' "$man" | sed -n "s/.*$1.*/\\1 \\2 \\3/p"; }
at_positions() {  # WARPS NET DPI WIDTH HEIGHT: the man page's figures
    expect 0 "$BIN/pn-dot" --positions "$2" -o "$TMP/pos.png"
    has "$TMP/err" "drawn at $3 dpi, not 96, to keep the PNG within 16384 pixels a side ($4 x $5)"
    [ "$(png_width "$TMP/pos.png") $(png_height "$TMP/pos.png")" = "$4 $5" ] && ok ||
        bad "$1 warps at their positions: the PNG is not $4 x $5 pixels as pn-dot(1) says"
}
set -- $(figures 'a 32-warp GPU net at its positions is drawn at \([0-9]*\) dpi (\([0-9]*\) x \([0-9]*\) pixels)')
[ $# -eq 3 ] && at_positions 32 "$TMP/g32.pnml" "$@" || bad "pn-dot(1): no figures of a 32-warp net at its positions"
set -- $(figures 'a 64-warp one at \([0-9]*\) dpi (\([0-9]*\) x \([0-9]*\) pixels)')
[ $# -eq 3 ] && at_positions 64 "$TMP/big.pnml" "$@" || bad "pn-dot(1): no figures of a 64-warp net at its positions"
set -- $(figures 'a 2-warp GPU net at --dpi 600 would be \([0-9]*\) x \([0-9]*\) pixels, and fits at \([0-9]*\) dpi or less')
if [ $# -eq 3 ]; then
    "$BIN/pn-gen-gpu" --warps 2 -o "$TMP/g2.pnml"
    expect 4 "$BIN/pn-dot" --dpi 600 "$TMP/g2.pnml" -o "$TMP/g2.png"
    has "$TMP/err" "would be $1 x $2 pixels"
    has "$TMP/err" "or at $3 dpi or less (not 600)"
else bad "pn-dot(1): no figures of a 2-warp net at 600 dpi"; fi

# the quick start's pictures, by its own commands: the net on one page
# with no text covered, and as PNGs within the limits of common viewers.
# One page: an A0 sheet at the drawing's own size (2384 x 3370 pt, either
# way up), which holds one warp in full (a 1-warp net: 899 x 2106 pt);
# the 32-warp net folded is 1312 x 2394 pt, every warp 17861 x 1967.
bin=$(cd "$BIN" && pwd)
mkdir -p "$TMP/qs/out"
sed -n "s|^ *\./bin/|$bin/|p" "$srcdir/../share/quickstart.sh" > "$TMP/qs.cmds"
grep -q 'pn-dot .*-o out/gpu32.svg$' "$TMP/qs.cmds" && ok || bad "the quick start draws no out/gpu32.svg"
while IFS= read -r cmd <&3; do
    expect 0 sh -c "cd '$TMP/qs' && $cmd"
    case $cmd in
    *pn-dot*.svg)
        png=${cmd%.svg}.png
        expect 0 sh -c "cd '$TMP/qs' && $png"
        f="$TMP/qs/${png##* }"
        w=$(png_width "$f"); h=$(png_height "$f")
        [ "$w" -le 16384 ] && [ "$h" -le 16384 ] && [ $((w * h)) -le 100000000 ] && ok ||
            bad "the quick start's ${png##* } is $w x $h pixels" ;;
    esac
done 3< "$TMP/qs.cmds"
size=$(sed -n 's/^<svg width="\([0-9.]*\)pt" height="\([0-9.]*\)pt".*/\1 \2/p' "$TMP/qs/out/gpu32.svg")
echo "$size" | awk '{ s = $1 < $2 ? $1 : $2; l = $1 < $2 ? $2 : $1
                      exit !(s > 0 && s <= 2384 && l <= 3370) }' && ok ||
    bad "the quick start's out/gpu32.svg is '$size' pt: more than an A0 page (2384 x 3370 pt)"
"$top_builddir/tests/svg-overlaps" "$TMP/qs/out/gpu32.svg" > "$TMP/ov"
has "$TMP/ov" ": 0 text/text, 0 text/node, 0 text/arc"

# a long run over many warps: the timeline asks for a window
"$BIN/pn-gen-gpu" --warps 64 --arith 2000 --shared 0 --global 0 --quiet -o "$TMP/long.pnml"
"$BIN/pn-run" --trace "$TMP/long.trace" "$TMP/long.pnml" > /dev/null
expect 4 "$BIN/pn-dot" --trace "$TMP/long.trace" --timeline "$TMP/long.pnml" -o "$TMP/long.svg"
has "$TMP/err" "draw a window of at most"
# --invariant K: the K-th minimal P-semiflow (tK: T-semiflow) as pn-struct
# numbers them, its support's nodes filled (and none else), each with its
# weight; a K past the last, or not a number, is a usage error
cat > "$TMP/inv.pnml" <<'EOF'
<?xml version="1.0"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
  <net id="inv" type="http://www.pnml.org/version-2009/grammar/ptnet">
    <page id="g">
      <place id="a"><initialMarking><text>2</text></initialMarking></place>
      <place id="b"/>
      <place id="c"><initialMarking><text>1</text></initialMarking></place>
      <place id="d"/>
      <transition id="t1"/>
      <transition id="t2"/>
      <transition id="t3"/>
      <transition id="t4"/>
      <arc id="a1" source="a" target="t1"><inscription><text>2</text></inscription></arc>
      <arc id="a2" source="t1" target="b"/>
      <arc id="a3" source="b" target="t2"/>
      <arc id="a4" source="t2" target="a"><inscription><text>2</text></inscription></arc>
      <arc id="a5" source="c" target="t3"/>
      <arc id="a6" source="t3" target="d"/>
      <arc id="a7" source="d" target="t4"/>
      <arc id="a8" source="t4" target="c"/>
    </page>
  </net>
</pnml>
EOF
"$BIN/pn-struct" -f json "$TMP/inv.pnml" > "$TMP/inv.json"
# flow KIND K: the K-th flow's "id=weight" lines, sorted, from pn-struct
flow() {
    if [ "$1" = p ]; then sel='s/.*"p_semiflows": //; s/"t_semiflows".*//'
    else sel='s/.*"t_semiflows": //; s/"siphons".*//'; fi
    sed "$sel" "$TMP/inv.json" | grep -o '"weights": {[^}]*}' | sed -n "$2p" |
        sed 's/"weights": {//; s/}//; s/"//g; s/: /=/g' | tr ',' '\n' | tr -d ' ' | sort
}
# lit SVG: the "id=weight" lines of the nodes filled as an invariant's
lit() {
    awk '/<g id="[^"]*" class="node">/ { match($0, /id="[^"]*"/); id = substr($0, RSTART + 4, RLENGTH - 5) }
         /\(weight [0-9]+\)/ { match($0, /\(weight [0-9]+\)/); w = substr($0, RSTART + 8, RLENGTH - 9) }
         /fill="#ffd166"/ { print id "=" w }' "$1" | sort
}
for k in p1 p2 t1 t2 1; do
    kind=$(echo "$k" | tr -d '0-9'); kind=${kind:-p}; n=$(echo "$k" | tr -dc '0-9')
    expect 0 "$BIN/pn-dot" --invariant "$k" "$TMP/inv.pnml" -o "$TMP/inv.svg"
    flow "$kind" "$n" > "$TMP/inv.want"
    lit "$TMP/inv.svg" > "$TMP/inv.got"
    [ -s "$TMP/inv.want" ] && cmp -s "$TMP/inv.want" "$TMP/inv.got" && ok ||
        bad "--invariant $k lights $(tr '\n' ' ' < "$TMP/inv.got")where pn-struct says $(tr '\n' ' ' < "$TMP/inv.want")"
done
has "$TMP/inv.svg" "P&#45;semiflow 1 of 2"
# the weight 2 of b in a + 2 b = 2 is shown beside it
expect 0 "$BIN/pn-dot" --invariant 1 -f dot "$TMP/inv.pnml"
grep -q 'xlabel="2x"' "$TMP/out" && ok || bad "--invariant 1: no weight 2x beside b"
expect 2 "$BIN/pn-dot" --invariant 3 "$TMP/inv.pnml"
has "$TMP/err" "has 2 minimal P-semiflows, not 3"
expect 2 "$BIN/pn-dot" --invariant t0 "$TMP/inv.pnml"
expect 2 "$BIN/pn-dot" --invariant 1x "$TMP/inv.pnml"

finish
