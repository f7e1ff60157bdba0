#!/bin/sh
# Lassos end to end: pn-reach --witness writes the path of a CTL answer
# (a lasso with its "# loop:" comment, a path to a dead marking, a path
# with the snapshot of the marking that decides), and pn-dot --trace marks
# the loop: in the title of a step, in a row of the timeline (DOT and
# SVG), in the page of --html (its data and, with Chromium, the step
# shown); a loop comment the replay does not bear out is refused.
. "${srcdir:-tests}/lib.sh"
top="$srcdir/.."
net="$top/tests/struct/murata-sm.pnml"

# a cycle p1 -> p2 -> p1 (t1, t3) and p1 -> p3 -> p1 (t2, t4)
expect 0 "$BIN/pn-reach" --query 'EG p1 + p2 >= 1' \
    --query 'A [ p1 + p2 >= 1 U p3 > 0 ]' --query 'AF p3 > 0' \
    --query 'E [ p3 == 0 U p3 > 0 ]' --query 'AX p2 > 0' \
    --query 'AG p1 + p2 + p3 == 1' --witness "$TMP/w" "$net"
has "$TMP/out" "query q1:      EG p1 + p2 >= 1: TRUE"
for q in q1 q2 q3; do
    has "$TMP/w/$q.trace" "# loop: from the marking after step 0 round to it again, for ever"
    has "$TMP/w/$q.trace" "E limit 2"
done
has "$TMP/w/q1.trace" "# witness: query q1 is true: the formula under EG holds all along, for ever"
has "$TMP/w/q2.trace" "# witness: query q2 is false (a counterexample): the right of U fails all along, for ever"
has "$TMP/w/q4.trace" "M 1 p3=1"
lacks "$TMP/w/q4.trace" "# loop:"
has "$TMP/w/q5.trace" "S 1 t2"
# AG true: a tree of paths shows it, not one
[ -e "$TMP/w/q6.trace" ] && bad "a path for AG true" || ok

# on the fly (a time limit): the path the local algorithm decided on
expect 0 "$BIN/pn-reach" --time-limit 20 --query 'EG p1 + p2 >= 1' \
    --query 'A [ p1 + p2 >= 1 U p3 > 0 ]' --witness "$TMP/f" "$net"
for q in q1 q2; do
    has "$TMP/f/$q.trace" "# loop: from the marking after step 0 round to it again, for ever"
done

# a dead end: the sample net stops after t1
expect 0 "$BIN/pn-reach" --query 'EG p1 >= 0' --witness "$TMP/d" \
    "$top/tests/pnml/valid/sample/net.pnml"
has "$TMP/d/q1.trace" "# loop: the dead marking after step 1 repeats for ever"
has "$TMP/d/q1.trace" "E dead 1"

# LTL on the fly past a state of the automaton that accepts every word:
# the search goes on to a cycle for the lasso (the net's p1 -> p2 -> p1)
expect 0 "$BIN/pn-reach" --time-limit 20 --query 'LTL X X p3 > 0' \
    --witness "$TMP/u" "$net"
has "$TMP/out" "query q1:      LTL X X p3 > 0: FALSE"
has "$TMP/u/q1.trace" "# loop: from the marking after step"
# two counters that grow for ever: no cycle closes before the limit, the
# answer stands and no lasso is written, said
cat > "$TMP/counters.pnml" <<'EOF'
<?xml version="1.0"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="counters" type="http://www.pnml.org/version-2009/grammar/ptnet">
<page id="pg"><place id="d"/><place id="g"/>
<transition id="t_decoy"/><transition id="t_goal"/>
<arc id="a1" source="t_decoy" target="d"/><arc id="a2" source="t_goal" target="g"/>
</page></net></pnml>
EOF
expect 0 "$BIN/pn-reach" --time-limit 5 --max-states 300 \
    --query 'LTL G (g < 3 || X d > 5)' --witness "$TMP/c" "$TMP/counters.pnml"
has "$TMP/out" "query q1:      LTL G g < 3 || (X d > 5): FALSE"
has "$TMP/err" "q1: no lasso written: the answer came without one"
[ -e "$TMP/c/q1.trace" ] && bad "a lasso that does not close" || ok

# pn-dot: the step's title, the timeline's loop row, the page's data
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q1.trace" --step 2 -f dot "$net"
has "$TMP/out" 'label="murata-sm: step 2 (in the loop from step 0, for ever)"'
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q4.trace" --step 1 -f dot "$net"
lacks "$TMP/out" "loop"
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q1.trace" --timeline -f dot "$net"
has "$TMP/out" "steps 1-2, loop from step 0 for ever"
has "$TMP/out" "<B>loop from step 0</B>"
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q1.trace" --timeline -o "$TMP/t.svg" "$net"
has "$TMP/t.svg" "loop from step 0"
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q4.trace" --timeline -f dot "$net"
lacks "$TMP/out" "loop"
expect 0 "$BIN/pn-dot" --trace "$TMP/d/q1.trace" --timeline -f dot \
    "$top/tests/pnml/valid/sample/net.pnml"
has "$TMP/out" "the dead marking after step 1 for ever"
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q1.trace" --html "$TMP/p.html" "$net"
has "$TMP/p.html" '"loop":0'
expect 0 "$BIN/pn-dot" --trace "$TMP/w/q4.trace" --html "$TMP/q.html" "$net"
lacks "$TMP/q.html" '"loop":'

# a loop comment the replay does not bear out
sed 's/after step 0 round/after step 1 round/' "$TMP/w/q1.trace" > "$TMP/bad.trace"
expect 1 "$BIN/pn-dot" --trace "$TMP/bad.trace" "$net"
has "$TMP/err" "bad.trace:6: the loop comment says the run comes back to the marking after step 1, the replay ends elsewhere"
sed 's/after step 0 round/after step 2 round/' "$TMP/w/q1.trace" > "$TMP/bad.trace"
expect 1 "$BIN/pn-dot" --trace "$TMP/bad.trace" "$net"
has "$TMP/err" "no step to go round"
sed 's/E limit 2/E dead 2/; s/^# loop: .*/# loop: the dead marking after step 1 repeats for ever/' \
    "$TMP/w/q1.trace" > "$TMP/bad.trace"
expect 1 "$BIN/pn-dot" --trace "$TMP/bad.trace" "$net"
has "$TMP/err" "the loop comment says the dead marking after step 1 repeats"
# other words after "# loop:" are a comment like any other
sed 's/# loop: from/# loop: (not read) from/' "$TMP/w/q1.trace" > "$TMP/other.trace"
expect 0 "$BIN/pn-dot" --trace "$TMP/other.trace" --timeline -f dot "$net"
lacks "$TMP/out" "loop"

# the page in a browser, when there is one: the step in the loop said
for b in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
    command -v "$b" > /dev/null 2>&1 || continue
    timeout 300 "$b" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$TMP/profile" --dump-dom "file://$TMP/p.html#step=2" \
        > "$TMP/dom" 2> /dev/null
    has "$TMP/dom" '<span id="pnv-step">step 2 of 2 (the loop from step 0, for ever)</span>'
    break
done
finish
