#!/bin/sh
# pn-reach past the state explosion: answers printed as they come survive
# a kill, --time-limit and the contest's BK_TIME_CONFINEMENT stop cleanly,
# the state equation and the walks answer on a net far too large to
# search, and every answer is exact.
. "${srcdir:-tests}/lib.sh"

# 30 independent toggles (2^30 markings: no full search finishes, hence
# --no-stubborn below) beside a cycle a -> b -> a that holds no token: the
# state equation lets c grow (t1 and t2 fired as often), the net never
# does, so "EF c >= 1" is left to a search that cannot end; stubborn sets
# (at the end) see at once that no transition can ever raise c
N=30
mkdir -p "$TMP/big"
{
    echo '<pnml><net id="big" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">'
    i=0
    while [ $i -lt $N ]; do
        echo "<place id=\"x$i\"><initialMarking><text>1</text></initialMarking></place><place id=\"y$i\"/>"
        echo "<transition id=\"f$i\"/><transition id=\"u$i\"/>"
        echo "<arc id=\"a$i\" source=\"x$i\" target=\"f$i\"/><arc id=\"b$i\" source=\"f$i\" target=\"y$i\"/>"
        echo "<arc id=\"c$i\" source=\"y$i\" target=\"u$i\"/><arc id=\"d$i\" source=\"u$i\" target=\"x$i\"/>"
        i=$((i + 1))
    done
    echo '<place id="a"/><place id="b"/><place id="c"/><transition id="t1"/><transition id="t2"/>'
    echo '<arc id="e1" source="a" target="t1"/><arc id="e2" source="t1" target="b"/><arc id="e3" source="t1" target="c"/>'
    echo '<arc id="e4" source="b" target="t2"/><arc id="e5" source="t2" target="a"/>'
    echo '</page></net></pnml>'
} > "$TMP/big/model.pnml"
ge() { # ge PLACE... N: the sum of the places >= N
    n=$(eval echo "\${$#}")
    printf '<integer-le><integer-constant>%s</integer-constant><tokens-count>' "$n"
    while [ $# -gt 1 ]; do printf '<place>%s</place>' "$1"; shift; done
    printf '</tokens-count></integer-le>'
}
cat > "$TMP/big/ReachabilityCardinality.xml" <<XML
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>big-00</id><formula><exists-path><finally>$(ge c 1)</finally></exists-path></formula></property>
  <property><id>big-01</id><formula><exists-path><finally>$(ge x0 y0 2)</finally></exists-path></formula></property>
  <property><id>big-02</id><formula><exists-path><finally><conjunction>$(ge y0 1)$(ge y1 1)</conjunction></finally></exists-path></formula></property>
  <property><id>big-03</id><formula><all-paths><globally><negation>$(ge y7 y9 y11 3)</negation></globally></all-paths></formula></property>
</property-set>
XML
cat > "$TMP/big/UpperBounds.xml" <<XML
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>big-UB-00</id><formula><place-bound><place>x3</place><place>y3</place><place>y4</place></place-bound></formula></property>
  <property><id>big-UB-01</id><formula><place-bound><place>c</place></place-bound></formula></property>
</property-set>
XML

# killed mid-run (no time limit: it would search forever), what it printed
# first is there, flushed: the state equation's answer and the search's
"$BIN/pn-reach" --no-stubborn --mcc ReachabilityCardinality "$TMP/big" > "$TMP/killed" 2>&1 &
pid=$!
sleep 3
kill -KILL $pid 2>/dev/null && ok || bad "pn-reach ended by itself on 2^30 markings"
wait $pid 2>/dev/null
has "$TMP/killed" "FORMULA big-01 FALSE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING"
has "$TMP/killed" "FORMULA big-02 TRUE TECHNIQUES EXPLICIT"
has "$TMP/killed" "FORMULA big-03 FALSE TECHNIQUES EXPLICIT"
lacks "$TMP/killed" "big-00"

# a time limit: it stops by itself, CANNOT_COMPUTE for what is left only
# (without reductions, which decide big-00: below)
start=$(date +%s)
expect 4 "$BIN/pn-reach" --no-reduce --no-stubborn --time-limit 2 --mcc ReachabilityCardinality "$TMP/big"
end=$(date +%s)
[ $((end - start)) -le 6 ] && ok || bad "--time-limit 2 took $((end - start)) s"
has "$TMP/out" "FORMULA big-00 CANNOT_COMPUTE"
has "$TMP/out" "FORMULA big-01 FALSE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING"
has "$TMP/out" "FORMULA big-02 TRUE"
has "$TMP/out" "FORMULA big-03 FALSE"
[ "$(grep -c '^FORMULA' "$TMP/out")" -eq 4 ] && ok || bad "not one line a formula"
# the same from the contest's variable
BK_TIME_CONFINEMENT=2 expect 4 "$BIN/pn-reach" --no-reduce --no-stubborn --mcc ReachabilityCardinality "$TMP/big"
has "$TMP/out" "FORMULA big-00 CANNOT_COMPUTE"
has "$TMP/out" "FORMULA big-01 FALSE"

# bounds: the state equation's upper bound met by a walk (or the search)
# is exact; c's is not bounded by the equation, and never reached
expect 4 "$BIN/pn-reach" --no-reduce --no-stubborn --time-limit 2 --mcc UpperBounds "$TMP/big"
has "$TMP/out" "FORMULA big-UB-00 2 TECHNIQUES"
has "$TMP/out" "FORMULA big-UB-01 CANNOT_COMPUTE"

# structural reductions: for c, each toggle x -> y -> x becomes one
# transition that changes nothing and goes, t1 and t2 one transition
# that can never fire (a and b hold no token): c is never marked, which
# the state equation of the reduced net (no transition left that puts in
# c) says before its search
expect 0 "$BIN/pn-reach" --time-limit 2 --mcc ReachabilityCardinality "$TMP/big"
has "$TMP/out" "FORMULA big-00 FALSE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING STRUCTURAL_REDUCTION"
expect 0 "$BIN/pn-reach" --time-limit 2 --mcc UpperBounds "$TMP/big"
has "$TMP/out" "FORMULA big-UB-01 0 TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING STRUCTURAL_REDUCTION"
expect 0 "$BIN/pn-reach" --time-limit 2 --query 'EF c >= 1' --reduced "$TMP/red.pnml" "$TMP/big/model.pnml"
has "$TMP/err" "red.pnml: 1 of 63 places, 0 of 62 transitions for query q1"
has "$TMP/red.pnml" '<place id="c"'
lacks "$TMP/red.pnml" '<transition'
expect 2 "$BIN/pn-reach" --semantics maximal --reduced "$TMP/red.pnml" "$TMP/big/model.pnml"

# --query with a time limit: the answer lines as they come, then the
# report, the search marked stopped by the clock
expect 4 "$BIN/pn-reach" --no-reduce --no-stubborn --time-limit 1 --query 'EF c >= 1' --query 'EF x0 + y0 >= 2' "$TMP/big/model.pnml"
has "$TMP/out" "query q2:      EF x0 + y0 >= 2: FALSE"
has "$TMP/out" "query q1:      EF c >= 1: unknown (the search stopped first)"
has "$TMP/out" "search:      incomplete: the time limit was reached"
expect 4 "$BIN/pn-reach" --time-limit 1 --format json "$TMP/big/model.pnml"
has "$TMP/out" '"end": "time_limit"'
expect 2 "$BIN/pn-reach" --time-limit 0 "$TMP/big/model.pnml"
expect 2 "$BIN/pn-reach" --time-limit soon "$TMP/big/model.pnml"

# stubborn sets (the default; the reductions, which decide c first, left
# out): at the initial marking no transition can raise c, so the search
# fires nothing and ends, every answer exact
expect 0 "$BIN/pn-reach" --no-reduce --time-limit 20 --mcc ReachabilityCardinality "$TMP/big"
has "$TMP/out" "FORMULA big-00 FALSE TECHNIQUES EXPLICIT STUBBORN_SETS"
[ "$(grep -c '^FORMULA' "$TMP/out")" -eq 4 ] && ok || bad "not one line a formula"
expect 0 "$BIN/pn-reach" --no-reduce --time-limit 20 --mcc UpperBounds "$TMP/big"
has "$TMP/out" "FORMULA big-UB-01 0 TECHNIQUES EXPLICIT STUBBORN_SETS"
has "$TMP/out" "FORMULA big-UB-00 2 TECHNIQUES"
expect 0 "$BIN/pn-reach" --no-reduce --time-limit 20 --query 'EF c >= 1' "$TMP/big/model.pnml"
has "$TMP/out" "query q1:      EF c >= 1: FALSE"
has "$TMP/out" "reduced:     stubborn sets at 1 marking"
has "$TMP/out" "bounded:     unknown (a reduced graph)"

# LTL on the fly: a formula violated near the initial marking (x0 stays
# marked once it is: false when f0 fires) is answered
# without the 2^30 markings, with a lasso pn-dot replays; one that holds
# needs the whole product, and is left CANNOT_COMPUTE at the time limit
# (the formulas as given, without stubborn sets: simplified, or with
# them, it is answered, below)
cat > "$TMP/big/LTLCardinality.xml" <<XML
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>big-L-00</id><formula><all-paths><globally><disjunction><negation>$(ge x0 1)</negation><next>$(ge x0 1)</next></disjunction></globally></all-paths></formula></property>
  <property><id>big-L-01</id><formula><all-paths><finally><globally>$(ge x0 y0 1)</globally></finally></all-paths></formula></property>
</property-set>
XML
start=$(date +%s)
expect 4 "$BIN/pn-reach" --no-simplify --no-stubborn --time-limit 2 --mcc LTLCardinality --witness "$TMP/wl" "$TMP/big"
end=$(date +%s)
[ $((end - start)) -le 6 ] && ok || bad "LTL: --time-limit 2 took $((end - start)) s"
has "$TMP/out" "FORMULA big-L-00 FALSE TECHNIQUES EXPLICIT"
has "$TMP/out" "FORMULA big-L-01 CANNOT_COMPUTE"
# with stubborn sets (the other toggles, stuttering rings, left out)
expect 0 "$BIN/pn-reach" --no-simplify --time-limit 2 --mcc LTLCardinality "$TMP/big"
has "$TMP/out" "FORMULA big-L-01 TRUE TECHNIQUES EXPLICIT STUBBORN_SETS"
has "$TMP/wl/big-L-00.trace" "# loop: "
expect 0 "$BIN/pn-dot" --trace "$TMP/wl/big-L-00.trace" "$TMP/big/model.pnml" -o "$TMP/wl.svg"

# the GPU kernel of 4 warps (tens of millions of markings): a deadlock
# question stopped cleanly by the clock, or answered
"$BIN/pn-gen-gpu" --warps 4 --schedulers 2 --arith 3 --shared 1 --global 2 --l1 5 -o "$TMP/gpu.pnml" 2>/dev/null ||
    "$BIN/pn-gen-gpu" --warps 4 --schedulers 2 --arith 3 --shared 1 --global 2 --l1 5 > "$TMP/gpu.pnml"
mkdir -p "$TMP/gpu"
cp "$TMP/gpu.pnml" "$TMP/gpu/model.pnml"
"$BIN/pn-reach" --time-limit 3 --mcc ReachabilityDeadlock "$TMP/gpu" > "$TMP/out" 2>&1
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 4 ]; } && ok || bad "exit $rc on the GPU kernel"
grep -q '^FORMULA ReachabilityDeadlock TRUE\|^CANNOT_COMPUTE' "$TMP/out" && ok ||
    bad "GPU kernel: $(cat "$TMP/out")"
# query simplification: x0 + y0 == 1 in every solution of the state
# equation, so the atom of F G x0 + y0 >= 1 is true wherever it stands, and
# the formula with it, at once; the other is answered as before
expect 0 "$BIN/pn-reach" --time-limit 2 --mcc LTLCardinality "$TMP/big"
has "$TMP/out" "FORMULA big-L-01 TRUE TECHNIQUES STATE_EQUATION LINEAR_PROGRAMMING QUERY_REDUCTION"
has "$TMP/out" "FORMULA big-L-00 FALSE TECHNIQUES EXPLICIT"
finish
