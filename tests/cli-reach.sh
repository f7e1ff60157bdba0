#!/bin/sh
# pn-reach from the command line: options, exit codes, the answers on small
# nets, traces that pn-dot replays, limits, the MCC answer lines.
. "${srcdir:-tests}/lib.sh"
FIX="$srcdir/pnml"

expect 0 "$BIN/pn-reach" --help
has "$TMP/out" "Usage: pn-reach"
has "$TMP/out" "Exit status"
expect 0 "$BIN/pn-reach" --version
has "$TMP/out" "pn-reach (pn-toolkit)"
expect 2 "$BIN/pn-reach" --no-such-option
expect 2 "$BIN/pn-reach"
expect 2 "$BIN/pn-reach" --semantics sometimes "$FIX/valid/sample/net.pnml"
expect 2 "$BIN/pn-reach" --max-states 0 "$FIX/valid/sample/net.pnml"
expect 2 "$BIN/pn-reach" --mcc UpperBoundz "$TMP"
man_documents_options pn-reach
expect 1 "$BIN/pn-reach" "$FIX/invalid/malformed/net.pnml"
has "$TMP/err" "net.pnml:"

# a net that deadlocks: p(2) -t-> q -u-> ; v never fires
cat > "$TMP/d.pnml" <<'PNML'
<pnml><net id="d" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>2</text></initialMarking></place><place id="q"/>
<transition id="t"/><transition id="u"/><transition id="v"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="q"/>
<arc id="a3" source="q" target="u"/>
<arc id="a4" source="p" target="v"><inscription><text>3</text></inscription></arc>
</page></net></pnml>
PNML
expect 0 "$BIN/pn-reach" --bounds -t "$TMP/dead.trace" "$TMP/d.pnml"
has "$TMP/out" "states:      6"
has "$TMP/out" "edges:       6"
has "$TMP/out" "dead:        1 dead marking"
has "$TMP/out" "never fire:  1 transition: v"
has "$TMP/out" "terminates:  yes; steps to a dead marking: min 4, max 4"
has "$TMP/out" "bound:       q 2"
has "$TMP/dead.trace" "E dead 4"
# the trace replays: pn-dot draws its last step
expect 0 "$BIN/pn-dot" --trace "$TMP/dead.trace" --step 4 "$TMP/d.pnml" -o "$TMP/d.svg"
expect 0 "$BIN/pn-reach" --format json "$TMP/d.pnml"
has "$TMP/out" '"states": 6'
has "$TMP/out" '"never_fire": ["v"]'
has "$TMP/out" '"min_steps": 4'

# maximal steps on a GPU net: the best and worst schedules bracket pn-run
"$BIN/pn-gen-gpu" --warps 2 --schedulers 1 --arith 3 --shared 1 --global 2 --l1 5 --quiet -o "$TMP/g.pnml"
expect 0 "$BIN/pn-reach" --semantics maximal --trace "$TMP/best.trace" --longest "$TMP/worst.trace" "$TMP/g.pnml"
lo=$(sed -n 's/.*min \([0-9]*\), max.*/\1/p' "$TMP/out")
hi=$(sed -n 's/.*max \([0-9]*\)$/\1/p' "$TMP/out")
[ -n "$lo" ] && [ -n "$hi" ] && [ "$lo" -lt "$hi" ] && ok || bad "no min < max: $lo $hi"
has "$TMP/best.trace" "E dead $lo"
has "$TMP/worst.trace" "E dead $hi"
for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
    steps=$("$BIN/pn-run" --seed $seed "$TMP/g.pnml" | sed -n 's/^steps: //p')
    [ "$steps" -ge "$lo" ] && [ "$steps" -le "$hi" ] && ok || bad "seed $seed: $steps steps outside [$lo, $hi]"
done
expect 0 "$BIN/pn-dot" --trace "$TMP/worst.trace" --timeline "$TMP/g.pnml" -o "$TMP/worst.svg"

# limits: incomplete, exit 4, never a false "no deadlock"
cat > "$TMP/u.pnml" <<'PNML'
<pnml><net id="u" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><transition id="t"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="p"><inscription><text>2</text></inscription></arc>
</page></net></pnml>
PNML
expect 4 "$BIN/pn-reach" --no-unbounded --max-states 50 "$TMP/u.pnml"
has "$TMP/out" "incomplete: the state limit was reached"
lacks "$TMP/out" "terminates"
expect 4 "$BIN/pn-reach" --no-unbounded --token-bound 10 "$TMP/u.pnml"
has "$TMP/out" "incomplete: a place passed the token bound"
mkdir -p "$TMP/mcc"
cp "$TMP/u.pnml" "$TMP/mcc/model.pnml"
expect 4 "$BIN/pn-reach" --max-states 50 --mcc ReachabilityDeadlock "$TMP/mcc"
has "$TMP/out" "CANNOT_COMPUTE"
expect 4 "$BIN/pn-reach" --max-states 50 --mcc OneSafe "$TMP/mcc"
has "$TMP/out" "FORMULA OneSafe FALSE TECHNIQUES EXPLICIT"
cp "$TMP/d.pnml" "$TMP/mcc/model.pnml"
expect 0 "$BIN/pn-reach" --mcc StateSpace "$TMP/mcc"
has "$TMP/out" "STATE_SPACE STATES 6 TECHNIQUES EXPLICIT"
has "$TMP/out" "STATE_SPACE MAX_TOKEN_PER_MARKING 2 TECHNIQUES EXPLICIT"
expect 0 "$BIN/pn-reach" --mcc ReachabilityDeadlock "$TMP/mcc"
has "$TMP/out" "FORMULA ReachabilityDeadlock TRUE TECHNIQUES EXPLICIT"
expect 0 "$BIN/pn-reach" --mcc QuasiLiveness "$TMP/mcc"
has "$TMP/out" "FORMULA QuasiLiveness FALSE TECHNIQUES EXPLICIT"
# UpperBounds: the places' largest total; a bad property file is refused
# with its file and line
cat > "$TMP/mcc/UpperBounds.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-UB-00</id><formula><place-bound><place>q</place></place-bound></formula></property>
  <property><id>d-UB-01</id><formula><place-bound><place>p</place><place>q</place></place-bound></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc UpperBounds "$TMP/mcc"
has "$TMP/out" "FORMULA d-UB-00 2 TECHNIQUES EXPLICIT"
has "$TMP/out" "FORMULA d-UB-01 2 TECHNIQUES EXPLICIT"
cat > "$TMP/mcc/UpperBounds.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-UB-00</id><formula><place-bound>
    <place>nosuch</place></place-bound></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc UpperBounds "$TMP/mcc"
has "$TMP/err" "UpperBounds.xml:4: property 'd-UB-00': 'nosuch' is not a place of the net"
finish
