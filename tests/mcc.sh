#!/bin/sh
# pn-reach against the Model Checking Contest's own answers
# (../shared/mcc-oracle): each instance's model and the examination's
# property file are copied alone into a scratch folder, as the contest's
# harness gives them (so that the tool cannot read the oracle files),
# pn-reach answers each examination, and each of its answer lines is
# compared with the contest's (by formula id; StateSpace by its four
# values).
#   MCC_MAX_STATES=N  only the instances with at most N states (INDEX.tsv)
#   MCC_EXAMS="UB RC" only these examinations (the oracle files' codes)
# Prints "answers right / answered / total" for each examination and in
# all, and the time of each instance.
. "${srcdir:-tests}/lib.sh"
ORACLE="${MCC_ORACLE:-}"
[ -n "$ORACLE" ] || ORACLE="${PN_CORPUS:+$PN_CORPUS/../mcc-oracle}"
if [ -z "$ORACLE" ] || [ ! -f "$ORACLE/INDEX.tsv" ]; then
    echo "no MCC oracle (../shared/mcc-oracle): skipped"; exit 77
fi
max="${MCC_MAX_STATES:-0}"
# the program itself rather than libtool's wrapper script, which costs more
# than most of these searches
REACH="$BIN/pn-reach"
if [ -x "$BIN/.libs/pn-reach" ] && [ -d "$top_builddir/.libs" ]; then
    LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
    REACH="$BIN/.libs/pn-reach"
fi
only="${MCC_EXAMS:-}"
# examination and the code of its oracle file
for_exams() {
    for pair in StateSpace:SS ReachabilityDeadlock:RD OneSafe:OS \
                QuasiLiveness:QL StableMarking:SM Liveness:L UpperBounds:UB \
                ReachabilityCardinality:RC ReachabilityFireability:RF \
                CTLCardinality:CTLC CTLFireability:CTLF \
                LTLCardinality:LTLC LTLFireability:LTLF; do
        code=${pair#*:}
        case " ${only:-$code} " in *" $code "*) echo "${pair%:*} $code" ;; esac
    done
}
# the answer lines of FILE as "KEY VALUE" (KEY: the formula id, or
# STATE_SPACE_<what>)
answers() {
    sed -n -e 's/^STATE_SPACE \([A-Z_]*\) \([0-9]*\).*/STATE_SPACE_\1 \2/p' \
           -e 's/^FORMULA \([^ ]*\) \([^ ]*\).*/\1 \2/p' "$1"
}
tail -n +2 "$ORACLE/INDEX.tsv" | while IFS='	' read -r model p t a states rest; do
    [ "$max" -gt 0 ] && [ "$states" -gt "$max" ] && continue
    start=$(date +%s.%N)
    for_exams | while read -r exam code; do
        dir="$TMP/$model-$code"
        mkdir -p "$dir"
        cp "$ORACLE/$model/model.pnml" "$dir/"
        [ -f "$ORACLE/$model/$exam.xml" ] && cp "$ORACLE/$model/$exam.xml" "$dir/"
        "$REACH" --mcc "$exam" "$dir" > "$TMP/out" 2> "$TMP/err"
        rc=$?
        [ $rc -le 0 ] || [ $rc -eq 4 ] || echo "ERROR $model $exam: exit $rc: $(head -c 300 "$TMP/err")"
        answers "$ORACLE/$model/oracle-$code.out" > "$TMP/want"
        answers "$TMP/out" > "$TMP/got"
        # the tool's answer for each of the contest's keys (a CANNOT_COMPUTE
        # line gives none)
        awk -v code="$code" -v model="$model" '
            FILENAME == ARGV[1] { got[$1] = $2; next }
            !($1 in got) || got[$1] == "CANNOT_COMPUTE" {
                print "unanswered", code, model, $1; next }
            got[$1] == $2 { print "right", code, model, $1; next }
            { print "WRONG", code, model, $1 ": got " got[$1] ", the contest " $2 }
        ' "$TMP/got" "$TMP/want"
        rm -rf "$dir"
    done
    end=$(date +%s.%N)
    echo "time $model $(awk "BEGIN {printf \"%.2f\", $end - $start}") s ($states states)"
done > "$TMP/report"
grep -v '^right' "$TMP/report" | grep -v '^time' | grep -v '^unanswered' >&2 || true
grep '^time' "$TMP/report"
count() { grep -c "^$1 ${2:-}" "$TMP/report" || true; }
for_exams | while read -r exam code; do
    r=$(count right "$code ") w=$(count WRONG "$code ") u=$(count unanswered "$code ")
    [ $((r + w + u)) -gt 0 ] &&
        echo "mcc $exam: $r right / $((r + w)) answered / $((r + w + u)) total"
done
right=$(count right) wrong=$(count WRONG) unanswered=$(count unanswered)
errors=$(count ERROR)
answered=$((right + wrong)); total=$((answered + unanswered))
echo "mcc: $right right / $answered answered / $total total"
[ "$right" -gt 0 ] && ok
[ "$wrong" -eq 0 ] && ok || bad "$wrong wrong answers"
[ "$errors" -eq 0 ] && ok || bad "$errors runs failed"
[ "$total" -gt 0 ] && ok || bad "no instance checked"
finish
