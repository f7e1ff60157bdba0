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
expect 0 "$BIN/pn-dot" --positions --dpi 48 "$TMP/g.pnml" -o "$TMP/g48.png"
w96=$(png_width "$TMP/g.png"); w48=$(png_width "$TMP/g48.png")
[ $((w96 / 2 - w48)) -ge -2 ] && [ $((w96 / 2 - w48)) -le 2 ] && ok || bad "width $w48 at 48 dpi, $w96 at 96"
expect 2 "$BIN/pn-dot" --dpi 0 "$TMP/g.pnml" -o "$TMP/g0.png"
has "$TMP/err" "--dpi: '0' is not a whole number from 1 to 10000"
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

# large nets: a clear message, not a silent hang
"$BIN/pn-gen-gpu" --warps 64 -o "$TMP/big.pnml"
expect 4 "$BIN/pn-dot" "$TMP/big.pnml" -o "$TMP/big.svg"
has "$TMP/err" "use --fold to draw the first group (warp) in full"
has "$TMP/err" "--positions"
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
# a long run over many warps: the timeline asks for a window
"$BIN/pn-gen-gpu" --warps 64 --arith 2000 --shared 0 --global 0 --quiet -o "$TMP/long.pnml"
"$BIN/pn-run" --trace "$TMP/long.trace" "$TMP/long.pnml" > /dev/null
expect 4 "$BIN/pn-dot" --trace "$TMP/long.trace" --timeline "$TMP/long.pnml" -o "$TMP/long.svg"
has "$TMP/err" "draw a window of at most"
finish
