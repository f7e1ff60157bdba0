#!/bin/sh
# make bench-scale's figures (bench/scale-vs.sh through tests/scale.sh and
# bench/verifypn-mcc.sh) on a one-instance set of the contest's layout,
# with a stand-in for verifypn that answers one formula right, one wrong
# and one not at all: each tool's right / answered / total, the wrong
# answers counted, and a failure when pn-reach disagrees with the oracle.
. "${srcdir:-tests}/lib.sh"
S="$TMP/scale"
mkdir -p "$S/tiny"
printf 'model\tplaces\ttransitions\tarcs\tstates\texaminations\tunknown_answers\ntiny\t2\t1\t2\t2\t2\t0\n' > "$S/INDEX.tsv"
cat > "$S/tiny/model.pnml" <<'XML'
<pnml><net id="tiny" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><place id="q"/>
<transition id="t"/>
<arc id="a" source="p" target="t"/><arc id="b" source="t" target="q"/>
</page></net></pnml>
XML
le() { # le N PLACE...: N <= the sum of the places
    n=$1; shift
    printf '<integer-le><integer-constant>%s</integer-constant><tokens-count>' "$n"
    for p in "$@"; do printf '<place>%s</place>' "$p"; done
    printf '</tokens-count></integer-le>'
}
cat > "$S/tiny/ReachabilityCardinality.xml" <<XML
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>tiny-RC-00</id><formula><exists-path><finally>$(le 1 q)</finally></exists-path></formula></property>
  <property><id>tiny-RC-01</id><formula><all-paths><globally><negation>$(le 2 p q)</negation></globally></all-paths></formula></property>
  <property><id>tiny-RC-02</id><formula><exists-path><finally>$(le 2 q)</finally></exists-path></formula></property>
</property-set>
XML
{ echo "tiny ReachabilityCardinality"
  echo "FORMULA tiny-RC-00 TRUE TECHNIQUES ORACLE2021"
  echo "FORMULA tiny-RC-01 TRUE TECHNIQUES ORACLE2021"
  echo "FORMULA tiny-RC-02 FALSE TECHNIQUES ORACLE2021"; } > "$S/tiny/oracle-RC.out"
{ echo "tiny ReachabilityDeadlock"
  echo "FORMULA ReachabilityDeadlock TRUE TECHNIQUES ORACLE2021"; } > "$S/tiny/oracle-RD.out"

# the stand-in: verifypn's command line (-x the formulas' indexes, the
# net, the property file last), its answers from a table; its first pass
# (--write-simplified) answers the first formula and writes the others'
# names in order, which the searches then number from 1
cat > "$TMP/verifypn" <<'SH'
#!/bin/sh
echo "$*" >> "${0%/*}/calls"
x= qf= mf= last=
while [ $# -gt 0 ]; do
    case $1 in
        -x) x=$2; shift ;;
        --write-simplified) qf=$2; shift ;;
        --write-reduced) mf=$2; shift ;;
    esac
    last=$1; shift
done
case $last in
    *.xml) sed -n 's/.*<id>\([^<]*\)<\/id>.*/\1/p' "$last" ;;
    *) cat "$last" ;;
esac > "${0%/*}/ids"
answer() {
    case $1 in
        ReachabilityDeadlock) echo "FORMULA $1 TRUE TECHNIQUES EXPLICIT" ;;
        tiny-RC-00) echo "FORMULA $1 TRUE TECHNIQUES QUERY_REDUCTION" ;;
        tiny-RC-01) echo "FORMULA $1 FALSE TECHNIQUES EXPLICIT" ;;
    esac
}
if [ -n "$qf" ]; then
    answer "$(sed -n 1p "${0%/*}/ids")"
    sed 1d "${0%/*}/ids" > "$qf"
    cp "$last" "$mf"
    exit 0
fi
for i in $(echo "$x" | tr , ' '); do
    answer "$(sed -n "${i}p" "${0%/*}/ids")"
done
SH
chmod +x "$TMP/verifypn"

run() {
    MCC_SCALE="$S" SCALE_TIME=2 SCALE_EXAMS="RD RC" VERIFYPN="$TMP/verifypn" \
        sh "$srcdir/../bench/scale-vs.sh" > "$TMP/out" 2> "$TMP/err"
}
run && ok || bad "scale-vs.sh failed: $(cat "$TMP/out" "$TMP/err")"
grep -q '^ReachabilityDeadlock  *1 / 1 / 1  *1 / 1 / 1 ' "$TMP/out" && ok ||
    bad "RD: $(cat "$TMP/out")"
grep -q '^ReachabilityCardinality  *3 / 3 / 3  *1 / 2 / 3 ' "$TMP/out" && ok ||
    bad "RC: $(cat "$TMP/out")"
grep -q '^all  *4 / 4 / 4  *2 / 3 / 4 *$' "$TMP/out" && ok || bad "all: $(cat "$TMP/out")"
grep -q '^wrong answers  *0  *1 *$' "$TMP/out" && ok || bad "wrong: $(cat "$TMP/out")"
has "$TMP/out" "verifypn: WRONG RC tiny tiny-RC-01: got FALSE, the contest TRUE"
# run as its contest script runs it: simplification and reductions for
# all formulas first, then one search per formula left
has "$TMP/calls" "-s OverApprox --binary-query-io 2"
grep -q -- '-x 1,2,3 .*/model.pnml .*/ReachabilityCardinality.xml$' "$TMP/calls" && ok ||
    bad "no first pass on all formulas: $(cat "$TMP/calls")"
grep -q -- '-s RPFS .*--binary-query-io 1 -x 2 .*/\.mf .*/\.qf$' "$TMP/calls" && ok ||
    bad "no search for the last formula left: $(cat "$TMP/calls")"
# pn-reach against an oracle it disagrees with: a failure, said
sed -i 's/tiny-RC-02 FALSE/tiny-RC-02 TRUE/' "$S/tiny/oracle-RC.out"
run && bad "a wrong pn-reach answer passed" || ok
has "$TMP/out" "pn-reach: WRONG RC tiny tiny-RC-02"
# no verifypn named: refused
VERIFYPN= sh "$srcdir/../bench/scale-vs.sh" > "$TMP/out" 2> "$TMP/err"
[ $? -eq 2 ] && ok || bad "no VERIFYPN accepted"
finish
