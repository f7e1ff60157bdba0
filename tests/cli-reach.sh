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
expect 2 "$BIN/pn-reach" --token-bound 99999999999999999999 "$FIX/valid/sample/net.pnml"
has "$TMP/err" "'99999999999999999999' is not a whole number from 1 to 18446744073709551615"
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
# the semantics used, and with interleaving a pointer to pn-run's default
has "$TMP/out" "semantics:   interleaving (pn-run runs maximal steps by default: pn-reach --semantics maximal explores those)"
expect 0 "$BIN/pn-reach" --semantics maximal "$TMP/d.pnml"
grep -qx "semantics:   maximal steps" "$TMP/out" && ok || bad "maximal: not 'semantics:   maximal steps' alone"
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
# the two defaults differ on this kernel, as pn-reach(1) says: every
# maximal run ends (pn-run's), an interleaving need not (pn-reach's)
expect 0 "$BIN/pn-reach" "$TMP/g.pnml"
has "$TMP/out" "terminates:  no (some run never ends)"
expect 0 "$BIN/pn-reach" --help
has "$TMP/out" "pn-run's default; pn-reach(1)"
# CTL under maximal steps: every maximal-step run of the kernel ends,
# while some interleaving of the same net runs forever
expect 0 "$BIN/pn-reach" --semantics maximal --query 'AF deadlock' --query 'EG !deadlock' "$TMP/g.pnml"
has "$TMP/out" 'AF deadlock: TRUE'
has "$TMP/out" 'EG !deadlock: FALSE'
# --symmetry: 3 warps of one program, one marking per orbit; the same
# step counts, answers and traces that replay on the net
"$BIN/pn-gen-gpu" --warps 3 --schedulers 2 --arith 1 --shared 1 --global 1 --l1 2 --l2 1 --quiet -o "$TMP/g3.pnml"
expect 0 "$BIN/pn-reach" --semantics maximal "$TMP/g3.pnml"
has "$TMP/out" "states:      6776"
full=$(grep -E "^(dead|never fire|terminates|live):" "$TMP/out")
expect 0 "$BIN/pn-reach" --semantics maximal --symmetry --trace "$TMP/s.trace" --longest "$TMP/sw.trace" "$TMP/g3.pnml"
has "$TMP/out" "symmetry:    6 permutations of identical parts"
has "$TMP/out" "states:      1215"
[ "$(grep -E "^(dead|never fire|terminates|live):" "$TMP/out")" = "$full" ] && ok || bad "--symmetry: not the full search's figures"
hi=$(sed -n 's/.*max \([0-9]*\)$/\1/p' "$TMP/out")
has "$TMP/sw.trace" "E dead $hi"
expect 0 "$BIN/pn-dot" --trace "$TMP/s.trace" "$TMP/g3.pnml" -o "$TMP/s.svg"
expect 0 "$BIN/pn-dot" --trace "$TMP/sw.trace" "$TMP/g3.pnml" -o "$TMP/sw.svg"
expect 0 "$BIN/pn-reach" --semantics maximal --symmetry --query 'AF (w0_p1 + w1_p1 + w2_p1 == 0)' --query 'AG EF p0 >= 2' "$TMP/g3.pnml"
has "$TMP/out" "symmetry:    6 permutations"
has "$TMP/out" 'AF w0_p1 + w1_p1 + w2_p1 == 0: TRUE'
has "$TMP/out" 'AG EF p0 >= 2: TRUE'
expect 0 "$BIN/pn-reach" --semantics maximal --symmetry --query 'AG w1_p17 <= 1' "$TMP/g3.pnml"
has "$TMP/out" "symmetry:    none used"
has "$TMP/out" "states:      6776"
expect 2 "$BIN/pn-reach" --symmetry --graph "$TMP/g3.dot" "$TMP/g3.pnml"
expect 0 "$BIN/pn-reach" --query 'AF deadlock' "$TMP/g.pnml"
has "$TMP/out" 'AF deadlock: FALSE'
# LTL likewise; the interleaving that never ends is a lasso that replays
expect 0 "$BIN/pn-reach" --semantics maximal --query 'A F deadlock' "$TMP/g.pnml"
has "$TMP/out" 'LTL F deadlock: TRUE'
expect 0 "$BIN/pn-reach" --query 'LTL F deadlock' --witness "$TMP/wl" "$TMP/g.pnml"
has "$TMP/out" 'LTL F deadlock: FALSE'
has "$TMP/wl/q1.trace" '# loop: from the marking after step'
has "$TMP/wl/q1.trace" 'E limit'
expect 0 "$BIN/pn-dot" --trace "$TMP/wl/q1.trace" --timeline "$TMP/g.pnml" -o "$TMP/wl.svg"

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
# (t is always enabled: the state equation proves it before any search)
expect 0 "$BIN/pn-reach" --max-states 50 --mcc ReachabilityDeadlock "$TMP/mcc"
has "$TMP/out" "FORMULA ReachabilityDeadlock FALSE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING"
expect 4 "$BIN/pn-reach" --max-states 50 --mcc StateSpace "$TMP/mcc"
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
# CTL: every path ends at the dead marking (0, 0), through (1, 1) and
# (0, 2); a path that ends there is maximal (EG), AX looks one step ahead
cat > "$TMP/mcc/CTLCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>c-00</id><formula><all-paths><finally><integer-le>
    <tokens-count><place>p</place><place>q</place></tokens-count>
    <integer-constant>0</integer-constant></integer-le></finally></all-paths></formula></property>
  <property><id>c-01</id><formula><all-paths><globally><exists-path><until>
    <before><true/></before>
    <reach><deadlock/></reach></until></exists-path></globally></all-paths></formula></property>
  <property><id>c-02</id><formula><exists-path><globally><integer-le>
    <tokens-count><place>q</place></tokens-count>
    <integer-constant>1</integer-constant></integer-le></globally></exists-path></formula></property>
  <property><id>c-03</id><formula><all-paths><next><is-fireable>
    <transition>u</transition></is-fireable></next></all-paths></formula></property>
  <property><id>c-04</id><formula><negation><exists-path><finally><integer-le>
    <integer-constant>2</integer-constant>
    <tokens-count><place>q</place></tokens-count></integer-le></finally></exists-path></negation></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc CTLCardinality "$TMP/mcc"
for f in c-00 c-01 c-02 c-03; do
    has "$TMP/out" "FORMULA $f TRUE TECHNIQUES EXPLICIT"
done
has "$TMP/out" "FORMULA c-04 FALSE TECHNIQUES EXPLICIT"
# a limit leaves unanswered what the markings found do not decide (AF:
# the unexpanded ones may lead anywhere), and answers what they do: the
# initial marking's one successor enables u (AX); !EF q >= 2 is AG q < 2,
# a reachability query, which the third marking found, (0, 2), breaks
expect 4 "$BIN/pn-reach" --max-states 3 --mcc CTLCardinality "$TMP/mcc"
has "$TMP/out" "FORMULA c-00 CANNOT_COMPUTE"
has "$TMP/out" "FORMULA c-03 TRUE TECHNIQUES EXPLICIT"
has "$TMP/out" "FORMULA c-04 FALSE TECHNIQUES EXPLICIT QUERY_REDUCTION"
expect 4 "$BIN/pn-reach" --max-states 4 --mcc CTLCardinality "$TMP/mcc"
has "$TMP/out" "FORMULA c-04 FALSE TECHNIQUES EXPLICIT"
has "$TMP/out" "FORMULA c-01 CANNOT_COMPUTE"
cat > "$TMP/mcc/CTLFireability.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>f-00</id><formula><exists-path><until>
    <before><true/></before>
  </until></exists-path></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc CTLFireability "$TMP/mcc"
has "$TMP/err" "CTLFireability.xml:3: property 'f-00': <until> needs <before> and <reach>, and nothing else"
rm "$TMP/mcc/CTLCardinality.xml" "$TMP/mcc/CTLFireability.xml"
# LTL: every path takes 4 steps to (0, 0), which then repeats for ever (X
# at a dead marking sees it again; <all-paths> around one operator over
# state formulas, l-03, is CTL's and means the same)
cat > "$TMP/mcc/LTLCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>l-00</id><formula><all-paths><finally><globally><integer-le>
    <tokens-count><place>p</place><place>q</place></tokens-count>
    <integer-constant>0</integer-constant></integer-le></globally></finally></all-paths></formula></property>
  <property><id>l-01</id><formula><all-paths><next><next><next><next><next><next><deadlock/>
    </next></next></next></next></next></next></all-paths></formula></property>
  <property><id>l-02</id><formula><all-paths><next><next><next><deadlock/>
    </next></next></next></all-paths></formula></property>
  <property><id>l-03</id><formula><all-paths><until>
    <before><integer-le><integer-constant>1</integer-constant><tokens-count><place>p</place></tokens-count></integer-le></before>
    <reach><integer-le><integer-constant>2</integer-constant><tokens-count><place>q</place></tokens-count></integer-le></reach>
  </until></all-paths></formula></property>
  <property><id>l-04</id><formula><all-paths><negation><finally><globally><negation><deadlock/>
    </negation></globally></finally></negation></all-paths></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc LTLCardinality "$TMP/mcc"
for f in l-00 l-01 l-04; do
    has "$TMP/out" "FORMULA $f TRUE TECHNIQUES EXPLICIT"
done
for f in l-02 l-03; do
    has "$TMP/out" "FORMULA $f FALSE TECHNIQUES EXPLICIT"
done
# the counterexample ends at the dead marking, which repeats
expect 0 "$BIN/pn-reach" --mcc LTLCardinality --witness "$TMP/wm" "$TMP/mcc"
has "$TMP/wm/l-02.trace" '# loop: the dead marking after step 4 repeats for ever'
has "$TMP/wm/l-02.trace" 'E dead 4'
expect 0 "$BIN/pn-dot" --trace "$TMP/wm/l-02.trace" "$TMP/mcc/model.pnml" -o "$TMP/wm.svg"
# decided over the whole graph: a limit leaves them unanswered
expect 4 "$BIN/pn-reach" --max-states 3 --mcc LTLCardinality "$TMP/mcc"
has "$TMP/out" "FORMULA l-00 CANNOT_COMPUTE"
# a path quantifier inside an LTL formula, a bare operator in CTL
cat > "$TMP/mcc/LTLFireability.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>m-00</id><formula><all-paths><globally><finally>
    <exists-path><next><true/></next></exists-path>
  </finally></globally></all-paths></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc LTLFireability "$TMP/mcc"
has "$TMP/err" "LTLFireability.xml:4: property 'm-00': <exists-path> inside an LTL formula"
cat > "$TMP/mcc/LTLFireability.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>m-01</id><formula><exists-path><finally>
    <globally><true/></globally>
  </finally></exists-path></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc LTLFireability "$TMP/mcc"
has "$TMP/err" "LTLFireability.xml:4: property 'm-01': <globally> outside <all-paths> or <exists-path> in a CTL formula"
rm "$TMP/mcc/LTLCardinality.xml" "$TMP/mcc/LTLFireability.xml"
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

# queries: inline, decided on the way, with witnesses that pn-dot replays
expect 0 "$BIN/pn-reach" --query 'EF (p == 0 && q >= 1)' --query 'AG p + q <= 2' \
    --query deadlock --query 'bound(q)' --query 'AG q < 2' --witness "$TMP/w" "$TMP/d.pnml"
has "$TMP/out" "query q1:      EF (p == 0 && q >= 1): TRUE (witness in 2 steps)"
has "$TMP/out" "query q2:      AG p + q <= 2: TRUE"
has "$TMP/out" "query q3:      EF deadlock: TRUE (witness in 4 steps)"
has "$TMP/out" "query q4:      bound(q): 2 (reached in 2 steps)"
has "$TMP/out" "query q5:      AG q < 2: FALSE (counterexample in 2 steps)"
[ ! -e "$TMP/w/q2.trace" ] && ok || bad "a witness for a true AG"
for q in q1 q3 q4 q5; do
    has "$TMP/w/$q.trace" "M "
    steps=$(sed -n 's/^E [a-z]* //p' "$TMP/w/$q.trace")
    expect 0 "$BIN/pn-dot" --trace "$TMP/w/$q.trace" --step "$steps" "$TMP/d.pnml" -o "$TMP/w.svg"
done
has "$TMP/w/q1.trace" "M 2 q=2"
has "$TMP/w/q3.trace" "E dead 4"
# a witness whose claimed marking is not where the replay ends is refused
sed 's/^M 2 q=2/M 2 q=1/' "$TMP/w/q1.trace" > "$TMP/w/lie.trace"
expect 1 "$BIN/pn-dot" --trace "$TMP/w/lie.trace" "$TMP/d.pnml" -o "$TMP/w.svg"
has "$TMP/err" "lie.trace:"
# a query that can be decided early stops the search
expect 0 "$BIN/pn-reach" --query 'EF q >= 1' "$TMP/d.pnml"
has "$TMP/out" "search:      stopped: every query was decided"
expect 0 "$BIN/pn-reach" --format json --query 'AG q < 2' "$TMP/d.pnml"
has "$TMP/out" '"queries": [{"id": "q1", "query": "AG q < 2", "answer": false, "witness_steps": 2}]'
# ... and what it says it saw does not contradict the answers: the dead
# witness is a dead marking found (and the trace to it is written), a
# transition fireable at the witness is not "not fired"
expect 0 "$BIN/pn-reach" --query deadlock -t "$TMP/early.trace" "$TMP/d.pnml"
has "$TMP/out" "query q1:      EF deadlock: TRUE (witness in 4 steps)"
has "$TMP/out" "dead:        1 dead marking (in the markings found)"
has "$TMP/out" "bounded:     unknown (the search stopped when every query was decided)"
has "$TMP/early.trace" "E dead 4"
expect 0 "$BIN/pn-reach" --query 'EF fireable(u)' "$TMP/d.pnml"
has "$TMP/out" "query q1:      EF fireable(u): TRUE (witness in 1 step)"
has "$TMP/out" "not fired:   1 transition (enabled in no marking found: the search stopped when every query was decided): v"
lacks "$TMP/out" "(yet: the search did not finish)"
expect 0 "$BIN/pn-reach" --format json --query deadlock --query 'AG !fireable(u)' "$TMP/d.pnml"
has "$TMP/out" '"complete": false, "end": "decided"'
has "$TMP/out" '"dead_found": 1, "never_fired_so_far": ["v"]'
lacks "$TMP/out" '"never_fire"'
# a complete search and one a limit stopped say why in "end" too
expect 0 "$BIN/pn-reach" --format json "$TMP/d.pnml"
has "$TMP/out" '"complete": true, "end": "complete"'
# bad queries: the column, exit 2
expect 2 "$BIN/pn-reach" --query 'EF p >=' "$TMP/d.pnml"
has "$TMP/err" "pn-reach: --query 'EF p >=': column 8: expected a place or a number, found the end"
expect 2 "$BIN/pn-reach" --query 'EF nosuch > 1' "$TMP/d.pnml"
has "$TMP/err" "column 4: 'nosuch' is not a place of the net"
expect 2 "$BIN/pn-reach" --query 'EF fireable(p)' "$TMP/d.pnml"
has "$TMP/err" "'p' is not a transition of the net"
expect 2 "$BIN/pn-reach" --query deadlock --mcc ReachabilityDeadlock "$TMP/mcc"

# the contest's reachability files, and bad ones refused with file:line
cat > "$TMP/mcc/ReachabilityCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-RC-00</id><formula><exists-path><finally>
    <integer-le><integer-constant>2</integer-constant><tokens-count><place>q</place></tokens-count></integer-le>
  </finally></exists-path></formula></property>
  <property><id>d-RC-01</id><formula><all-paths><globally>
    <integer-le><tokens-count><place>p</place><place>q</place></tokens-count><integer-constant>1</integer-constant></integer-le>
  </globally></all-paths></formula></property>
</property-set>
XML
cat > "$TMP/mcc/ReachabilityFireability.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-RF-00</id><formula><all-paths><globally>
    <negation><is-fireable><transition>v</transition></is-fireable></negation>
  </globally></all-paths></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc ReachabilityCardinality --witness "$TMP/mw" "$TMP/mcc"
has "$TMP/out" "FORMULA d-RC-00 TRUE TECHNIQUES EXPLICIT"
has "$TMP/out" "FORMULA d-RC-01 FALSE TECHNIQUES EXPLICIT"
expect 0 "$BIN/pn-dot" --trace "$TMP/mw/d-RC-00.trace" "$TMP/mcc/model.pnml" -o "$TMP/w.svg"
expect 0 "$BIN/pn-dot" --trace "$TMP/mw/d-RC-01.trace" "$TMP/mcc/model.pnml" -o "$TMP/w.svg"
expect 0 "$BIN/pn-reach" --mcc ReachabilityFireability "$TMP/mcc"
has "$TMP/out" "FORMULA d-RF-00 TRUE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING"
expect 0 "$BIN/pn-reach" --mcc ReachabilityDeadlock --witness "$TMP/mw" "$TMP/mcc"
has "$TMP/mw/ReachabilityDeadlock.trace" "E dead 4"
cat > "$TMP/mcc/ReachabilityCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-RC-00</id><formula><exists-path><finally>
    <integer-le>
      <integer-constant>2</integer-constant>
      <tokens-count><place>nosuch</place></tokens-count>
    </integer-le>
  </finally></exists-path></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc ReachabilityCardinality "$TMP/mcc"
has "$TMP/err" "ReachabilityCardinality.xml:6: property 'd-RC-00': 'nosuch' is not a place of the net"
cat > "$TMP/mcc/ReachabilityFireability.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>d-RF-00</id><formula><exists-path><nextt>
    <is-fireable><transition>t</transition></is-fireable>
  </nextt></exists-path></formula></property>
</property-set>
XML
expect 1 "$BIN/pn-reach" --mcc ReachabilityFireability "$TMP/mcc"
has "$TMP/err" "ReachabilityFireability.xml:3: property 'd-RF-00': <exists-path> needs one of <next>, <finally>, <globally>, <until> inside"
printf '<property-set>\n<property>\n' > "$TMP/mcc/ReachabilityFireability.xml"
expect 1 "$BIN/pn-reach" --mcc ReachabilityFireability "$TMP/mcc"
has "$TMP/err" "ReachabilityFireability.xml:"
has "$TMP/err" "malformed XML"
grep -q "line [0-9]* \[PN_EXML\]$" "$TMP/err" && ok || bad "the message and its code on one line: $(cat "$TMP/err")"
rm "$TMP/mcc/ReachabilityFireability.xml"
expect 1 "$BIN/pn-reach" --mcc ReachabilityFireability "$TMP/mcc"
has "$TMP/err" "ReachabilityFireability.xml: cannot read"

# unboundedness: p -t-> 2p is found not bounded after one step, with the
# path as a witness
expect 4 "$BIN/pn-reach" --witness "$TMP/uw" "$TMP/u.pnml"
has "$TMP/out" "search:      incomplete: the net is not bounded"
has "$TMP/out" "unbounded:   the marking after step 1 covers the one after step 0 with more in p (2 > 1): steps 1..1 repeat forever"
has "$TMP/uw/unbounded.trace" "M 1 p=2"
expect 0 "$BIN/pn-dot" --trace "$TMP/uw/unbounded.trace" "$TMP/u.pnml" -o "$TMP/w.svg"
expect 4 "$BIN/pn-reach" --format json "$TMP/u.pnml"
has "$TMP/out" '"bounded": false'
expect 0 "$BIN/pn-reach" --format json "$TMP/d.pnml"
has "$TMP/out" '"bounded": true'
# the text says it too: yes, no, or unknown when a limit stopped first
expect 4 "$BIN/pn-reach" "$TMP/u.pnml"
has "$TMP/out" "bounded:     no"
expect 0 "$BIN/pn-reach" "$TMP/d.pnml"
has "$TMP/out" "bounded:     yes"
expect 4 "$BIN/pn-reach" --max-states 2 "$TMP/d.pnml"
has "$TMP/out" "bounded:     unknown (the search did not finish)"
# the memory limit, and its units
expect 4 "$BIN/pn-reach" --no-unbounded --max-memory 64K "$TMP/u.pnml"
has "$TMP/out" "incomplete: the memory limit was reached"
expect 2 "$BIN/pn-reach" --max-memory 12Q "$TMP/u.pnml"
expect 2 "$BIN/pn-reach" --max-memory 0 "$TMP/u.pnml"
# the progress line, on demand
expect 0 "$BIN/pn-reach" --progress "$TMP/d.pnml"
# what a search that did not finish cannot claim: no "never fire", no
# final bounds, and no "no dead marking" in the trace's message
expect 4 "$BIN/pn-reach" --max-states 2 --bounds -t "$TMP/none.trace" "$TMP/d.pnml"
has "$TMP/out" "not fired:   "
has "$TMP/out" "(yet: the search did not finish)"
has "$TMP/out" "dead:        0 dead markings (in the markings expanded: those found last were not looked at)"
has "$TMP/out" "bound:       q >= "
lacks "$TMP/out" "never fire:"
has "$TMP/err" "none.trace: no dead marking found (the search did not finish): no trace written"
# json says the same: what was seen, under its own keys
expect 4 "$BIN/pn-reach" --max-states 2 --format json "$TMP/d.pnml"
has "$TMP/out" '"complete": false, "end": "max_states"'
has "$TMP/out" '"dead_found": 0'
has "$TMP/out" '"never_fired_so_far": ['
lacks "$TMP/out" '"dead":'
lacks "$TMP/out" '"never_fire":'
expect 0 "$BIN/pn-reach" --query 'p == 1' -t "$TMP/none.trace" "$TMP/d.pnml"
has "$TMP/err" "none.trace: no dead marking found (the search stopped when every query was decided): no trace written"
[ ! -e "$TMP/none.trace" ] && ok || bad "a trace written for an unfinished search"
# no path is an answer, not a failed output: no file, a note, and the
# answer's own exit status (0 complete, 4 not bounded)
cat > "$TMP/cyc.pnml" <<'PNML'
<pnml><net id="c" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><place id="q"/>
<transition id="t"/><transition id="u"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="q"/>
<arc id="a3" source="q" target="u"/><arc id="a4" source="u" target="p"/>
</page></net></pnml>
PNML
expect 0 "$BIN/pn-reach" -t "$TMP/none.trace" --longest "$TMP/none2.trace" "$TMP/cyc.pnml"
has "$TMP/err" "none.trace: no dead marking: no trace written"
has "$TMP/err" "none2.trace: no dead marking: no longest trace written"
[ ! -e "$TMP/none.trace" ] && [ ! -e "$TMP/none2.trace" ] && ok || bad "a trace written with no dead marking"
expect 0 "$BIN/pn-reach" -q -t "$TMP/none.trace" "$TMP/cyc.pnml"
[ ! -s "$TMP/err" ] && ok || bad "--quiet still notes the missing trace"
expect 4 "$BIN/pn-reach" -t "$TMP/none.trace" "$TMP/u.pnml"
has "$TMP/err" "none.trace: no dead marking found (the search did not finish): no trace written"
[ ! -e "$TMP/none.trace" ] && ok || bad "a trace written for a net not bounded"
# a dead marking but a run that never ends: no longest path
cat > "$TMP/loop.pnml" <<'PNML'
<pnml><net id="l" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><place id="q"/>
<transition id="t"/><transition id="u"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="q"/>
<arc id="a3" source="p" target="u"/><arc id="a4" source="u" target="p"/>
</page></net></pnml>
PNML
expect 0 "$BIN/pn-reach" -t "$TMP/dead.trace" --longest "$TMP/none.trace" "$TMP/loop.pnml"
has "$TMP/err" "none.trace: some run never ends: no longest trace written"
has "$TMP/dead.trace" "E dead 1"
[ ! -e "$TMP/none.trace" ] && ok || bad "a longest trace written for a net that may not end"
# with queries the graph is kept for --longest
expect 0 "$BIN/pn-reach" --query 'bound(p)' --longest "$TMP/none.trace" "$TMP/d.pnml"
has "$TMP/none.trace" "E dead 4"
# json: live, and bounded false when a count would pass 2^63-1
expect 0 "$BIN/pn-reach" --format json "$TMP/d.pnml"
has "$TMP/out" '"live": false'
cat > "$TMP/big.pnml" <<'PNML'
<pnml><net id="b" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>9223372036854775807</text></initialMarking></place>
<transition id="t"/><arc id="a1" source="t" target="p"/>
</page></net></pnml>
PNML
expect 4 "$BIN/pn-reach" --no-unbounded --format json "$TMP/big.pnml"
has "$TMP/out" '"bounded": false'
# sums past 2^64 - 1: compared exactly, a bound or a total said to be
# that or more (the contest's lines leave it unanswered)
cat > "$TMP/huge.pnml" <<'PNML'
<pnml><net id="h" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="a"><initialMarking><text>9223372036854775807</text></initialMarking></place>
<place id="b"><initialMarking><text>9223372036854775807</text></initialMarking></place>
<place id="c"><initialMarking><text>9223372036854775807</text></initialMarking></place>
</page></net></pnml>
PNML
expect 0 "$BIN/pn-reach" --query 'EF a + b + c + 1 == a + b + c' \
    --query 'AG a + b + c > a + b + 9223372036854775806' --query 'bound(a, b, c)' "$TMP/huge.pnml"
has "$TMP/out" '9223372036854775807 in a place, 18446744073709551615 or more in a marking'
has "$TMP/out" '== a + b + c: FALSE'
has "$TMP/out" '9223372036854775806: TRUE'
has "$TMP/out" 'bound(a, b, c): 18446744073709551615 or more'
expect 0 "$BIN/pn-reach" --format json --query 'bound(a, b, c)' "$TMP/huge.pnml"
has "$TMP/out" '"max_tokens_per_marking_or_more": true'
has "$TMP/out" '"answer": 18446744073709551615, "or_more": true'
mkdir -p "$TMP/hmcc"
cp "$TMP/huge.pnml" "$TMP/hmcc/model.pnml"
expect 0 "$BIN/pn-reach" --mcc StateSpace "$TMP/hmcc"
has "$TMP/out" 'STATE_SPACE MAX_TOKEN_IN_PLACE 9223372036854775807'
lacks "$TMP/out" 'MAX_TOKEN_PER_MARKING'
# a name that two places share is refused; an id of digits needs no
# quotes in a list
cat > "$TMP/names.pnml" <<'PNML'
<pnml><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="y"><name><text>dup</text></name></place>
<place id="z"><name><text>dup</text></name><initialMarking><text>5</text></initialMarking></place>
<place id="1"><initialMarking><text>2</text></initialMarking></place>
<transition id="t"/><arc id="a1" source="1" target="t"/>
</page></net></pnml>
PNML
expect 2 "$BIN/pn-reach" --query 'dup >= 5' "$TMP/names.pnml"
has "$TMP/err" "column 1: 'dup' is the name of several places: name it by its id"
expect 0 "$BIN/pn-reach" --query 'z >= 5' --query 'bound(1)' "$TMP/names.pnml"
has "$TMP/out" ': TRUE'
has "$TMP/out" 'bound("1"): 2'
# CTL: nested temporal operators, answered at the initial marking (the
# net: z keeps its 5 tokens, t fires twice and the net is dead)
expect 0 "$BIN/pn-reach" --query 'AF z >= 1' --query 'AG EF z >= 1' \
    --query 'z >= 1 && !(AF z >= 2)' --query 'E [ z >= 1 U deadlock ]' \
    --query 'A [ true U deadlock ]' --query 'EG !deadlock' \
    --query 'EX EX EX true' --query 'AX AX AX false' --query 'CTL z >= 5' \
    "$TMP/names.pnml"
has "$TMP/out" 'query q1:      AF z >= 1: TRUE'
has "$TMP/out" 'query q2:      AG EF z >= 1: TRUE'
has "$TMP/out" 'query q3:      z >= 1 && !(AF z >= 2): FALSE'
has "$TMP/out" 'query q4:      E [ z >= 1 U deadlock ]: TRUE'
has "$TMP/out" 'query q5:      A [ true U deadlock ]: TRUE'
has "$TMP/out" 'query q6:      EG !deadlock: FALSE'
# at the dead marking EX is false and AX true (maximal paths)
has "$TMP/out" 'query q7:      EX EX EX true: FALSE'
has "$TMP/out" 'query q8:      AX AX AX false: TRUE'
has "$TMP/out" 'query q9:      CTL z >= 5: TRUE'
# EF g true and AG g false: the nearest marking where g holds (fails),
# as a trace pn-dot draws
expect 0 "$BIN/pn-reach" --query 'AG EX true' --query 'EF AG "1" == 0' \
    --witness "$TMP/wc" "$TMP/names.pnml"
has "$TMP/out" 'query q1:      AG EX true: FALSE (counterexample in 2 steps)'
has "$TMP/out" 'query q2:      EF AG "1" == 0: TRUE (witness in 2 steps)'
has "$TMP/wc/q1.trace" 'query q1 is false (a counterexample): the formula under AG fails here'
has "$TMP/wc/q2.trace" 'query q2 is true: the formula under EF holds here'
expect 0 "$BIN/pn-dot" --trace "$TMP/wc/q1.trace" "$TMP/names.pnml" -o "$TMP/wc.svg"
# f -> g is !f || g
expect 0 "$BIN/pn-reach" --query 'AG ("1" > 0 -> EF deadlock)' --query 'AG (z == 5 -> AX z == 4)' "$TMP/names.pnml"
has "$TMP/out" 'query q1:      AG !("1" > 0) || (EF deadlock): TRUE'
has "$TMP/out" 'query q2:      AG !(z == 5) || (AX z == 4): FALSE'
# malformed CTL: the column
expect 2 "$BIN/pn-reach" --query 'E [ z > 0 ]' "$TMP/names.pnml"
has "$TMP/err" "--query 'E [ z > 0 ]': column 11: expected 'U', found ]"
expect 2 "$BIN/pn-reach" --query 'A [ z > 0 U true' "$TMP/names.pnml"
has "$TMP/err" "column 17: expected ']', found the end"
# LTL: the inline form, its canonical text, malformed ones by column
expect 0 "$BIN/pn-reach" --query 'A G (z >= 1 -> F deadlock)' --query 'LTL X X X deadlock' "$TMP/names.pnml"
has "$TMP/out" 'query q1:      LTL G !(z >= 1) || (F deadlock): TRUE'
has "$TMP/out" 'query q2:      LTL X X X deadlock: TRUE'
expect 2 "$BIN/pn-reach" --query 'LTL G AF z > 0' "$TMP/names.pnml"
has "$TMP/err" "column 7: expected X, F, G, '[' or a state formula (an LTL formula has no path quantifier)"
expect 2 "$BIN/pn-reach" --query 'LTL [ z > 0 U true' "$TMP/names.pnml"
has "$TMP/err" "column 19: expected ']', found the end"
# --mcc: its lines only, one DIR
expect 2 "$BIN/pn-reach" --mcc StateSpace
has "$TMP/err" "--mcc StateSpace: expected one DIR"
for o in "-t $TMP/x.trace" "--longest $TMP/x.trace" "--format json" "--bounds"; do
    expect 2 "$BIN/pn-reach" $o --mcc ReachabilityDeadlock "$TMP/mcc"
    has "$TMP/err" "does not apply"
done
# a limit under the first table: nothing was seen, nothing is claimed
expect 4 "$BIN/pn-reach" --max-memory 1 --mcc StableMarking "$TMP/mcc"
has "$TMP/out" "CANNOT_COMPUTE"
lacks "$TMP/out" "FORMULA"
# witness files: one per id ('/' written %2F); an id used twice is refused
cp "$TMP/d.pnml" "$TMP/mcc/model.pnml"
cat > "$TMP/mcc/ReachabilityCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
<property><id>X/1</id><formula><exists-path><finally><integer-le><integer-constant>1</integer-constant><tokens-count><place>q</place></tokens-count></integer-le></finally></exists-path></formula></property>
<property><id>X_1</id><formula><exists-path><finally><integer-le><integer-constant>2</integer-constant><tokens-count><place>q</place></tokens-count></integer-le></finally></exists-path></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc ReachabilityCardinality --witness "$TMP/ids" "$TMP/mcc"
[ -f "$TMP/ids/X%2F1.trace" ] && [ -f "$TMP/ids/X_1.trace" ] && ok || bad "witness files: $(ls "$TMP/ids")"
has "$TMP/ids/X%2F1.trace" "M 1 "
has "$TMP/ids/X_1.trace" "M 2 "
sed -i 's#<id>X_1</id>#<id>X/1</id>#' "$TMP/mcc/ReachabilityCardinality.xml"
expect 1 "$BIN/pn-reach" --mcc ReachabilityCardinality "$TMP/mcc"
has "$TMP/err" "ReachabilityCardinality.xml:4: property 'X/1': the id of the property of line 3 too [PN_EQUERY]"
# maximal steps with a reset arc: t2 takes from p2, which t1 empties, so
# t2 fires in a step with t1 only when it comes first in the walk; every
# order is a step pn-run can take (t2 fires, up to 5 steps)
cat > "$TMP/rs.pnml" <<'PNML'
<pnml><net id="rs" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p0"/>
<place id="p1"><initialMarking><text>1</text></initialMarking></place>
<place id="p2"><initialMarking><text>3</text></initialMarking></place>
<place id="p3"><initialMarking><text>1</text></initialMarking></place>
<place id="p4"><initialMarking><text>3</text></initialMarking></place>
<place id="p5"/>
<transition id="t0"/><transition id="t1"/><transition id="t2"/>
<arc id="a0" source="p1" target="t0"/><arc id="a1" source="p4" target="t0"/>
<arc id="a2" source="t0" target="p3"><inscription><text>2</text></inscription></arc>
<arc id="a3" source="t0" target="p4"/>
<arc id="a4" source="p2" target="t0" type="read"/>
<arc id="a5" source="p4" target="t1"/>
<arc id="a6" source="p2" target="t1" type="reset"/>
<arc id="a7" source="p2" target="t2"/>
<arc id="a8" source="t2" target="p4"><inscription><text>2</text></inscription></arc>
</page></net></pnml>
PNML
expect 0 "$BIN/pn-reach" --semantics maximal --longest "$TMP/rs.trace" "$TMP/rs.pnml"
has "$TMP/out" "states:      6"
has "$TMP/out" "never fire:  0 transitions"
has "$TMP/out" "terminates:  yes; steps to a dead marking: min 3, max 5"
expect 0 "$BIN/pn-dot" --trace "$TMP/rs.trace" "$TMP/rs.pnml" -o "$TMP/rs.svg"
# --max-states stores at most N markings (d.pnml has 6)
expect 4 "$BIN/pn-reach" --max-states 3 "$TMP/d.pnml"
has "$TMP/out" "states:      3"
# the edges to the markings stored, those of the marking whose successors
# met the limit included (1 from the first, 1 from the second)
has "$TMP/out" "edges:       2"
has "$TMP/out" "incomplete: the state limit was reached"
expect 0 "$BIN/pn-reach" --max-states 6 "$TMP/d.pnml"
has "$TMP/out" "search:      complete"
# LTL without next on the fly: stubborn sets name themselves among the
# techniques (two rings a token goes round, independent of p -> q; once
# q is marked it stays marked), and
# --no-stubborn turns them off
mkdir -p "$TMP/por"
cat > "$TMP/por/model.pnml" <<'PNML'
<?xml version="1.0"?>
<pnml xmlns="http://www.pnml.org/version/2009/grammar/pnml">
<net id="por" type="http://www.pnml.org/version/2009/grammar/ptnet"><page id="pg">
<place id="a0"><initialMarking><text>1</text></initialMarking></place>
<place id="a1"/><place id="a2"/>
<place id="b0"><initialMarking><text>1</text></initialMarking></place>
<place id="b1"/><place id="b2"/>
<place id="p"><initialMarking><text>1</text></initialMarking></place>
<place id="q"/>
<transition id="ta0"/><transition id="ta1"/><transition id="ta2"/>
<transition id="tb0"/><transition id="tb1"/><transition id="tb2"/>
<transition id="go"/>
<arc id="e1" source="a0" target="ta0"/><arc id="e2" source="ta0" target="a1"/>
<arc id="e3" source="a1" target="ta1"/><arc id="e4" source="ta1" target="a2"/>
<arc id="e5" source="a2" target="ta2"/><arc id="e6" source="ta2" target="a0"/>
<arc id="e7" source="b0" target="tb0"/><arc id="e8" source="tb0" target="b1"/>
<arc id="e9" source="b1" target="tb1"/><arc id="e10" source="tb1" target="b2"/>
<arc id="e11" source="b2" target="tb2"/><arc id="e12" source="tb2" target="b0"/>
<arc id="e13" source="p" target="go"/><arc id="e14" source="go" target="q"/>
</page></net></pnml>
PNML
cat > "$TMP/por/LTLCardinality.xml" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>s-00</id><formula><all-paths><globally><disjunction>
    <negation><integer-le><integer-constant>1</integer-constant><tokens-count><place>q</place></tokens-count></integer-le></negation>
    <globally><integer-le><integer-constant>1</integer-constant><tokens-count><place>q</place></tokens-count></integer-le></globally>
  </disjunction></globally></all-paths></formula></property>
  <property><id>s-01</id><formula><all-paths><globally>
    <integer-le><integer-constant>1</integer-constant><tokens-count><place>p</place></tokens-count></integer-le>
  </globally></all-paths></formula></property>
</property-set>
XML
expect 0 "$BIN/pn-reach" --mcc LTLCardinality "$TMP/por"
has "$TMP/out" "FORMULA s-00 TRUE TECHNIQUES EXPLICIT STUBBORN_SETS"
has "$TMP/out" "FORMULA s-01 FALSE TECHNIQUES"
expect 0 "$BIN/pn-reach" --no-stubborn --mcc LTLCardinality "$TMP/por"
has "$TMP/out" "FORMULA s-00 TRUE TECHNIQUES EXPLICIT"
lacks "$TMP/out" "STUBBORN_SETS"
has "$TMP/out" "FORMULA s-01 FALSE TECHNIQUES"
finish
