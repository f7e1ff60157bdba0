#!/bin/sh
# pn-reach against the Model Checking Contest's own answers
# (../shared/mcc-oracle): each instance's model is copied alone into a
# scratch folder, as the contest's harness gives it (so that the tool
# cannot read the oracle files), pn-reach answers each examination, and
# its answer lines are compared with the contest's.
#   MCC_MAX_STATES=N  only the instances with at most N states (INDEX.tsv)
# Prints "answers right / answered / total" and the time of each instance.
. "${srcdir:-tests}/lib.sh"
ORACLE="${MCC_ORACLE:-}"
[ -n "$ORACLE" ] || ORACLE="${PN_CORPUS:+$PN_CORPUS/../mcc-oracle}"
if [ -z "$ORACLE" ] || [ ! -f "$ORACLE/INDEX.tsv" ]; then
    echo "no MCC oracle (../shared/mcc-oracle): skipped"; exit 77
fi
max="${MCC_MAX_STATES:-0}"
right=0 answered=0 total=0
# examination and the oracle file of its answer
for_exams() {
    echo "StateSpace SS"; echo "ReachabilityDeadlock RD"; echo "OneSafe OS"
    echo "QuasiLiveness QL"; echo "StableMarking SM"; echo "Liveness L"
    echo "UpperBounds UB"
}
tail -n +2 "$ORACLE/INDEX.tsv" | while IFS='	' read -r model p t a states rest; do
    [ "$max" -gt 0 ] && [ "$states" -gt "$max" ] && continue
    mkdir -p "$TMP/$model"
    cp "$ORACLE/$model/model.pnml" "$ORACLE/$model/UpperBounds.xml" "$TMP/$model/"
    start=$(date +%s.%N)
    for_exams | while read -r exam code; do
        want="$TMP/want" got="$TMP/got"
        grep -v "^$model " "$ORACLE/$model/oracle-$code.out" |
            sed 's/ TECHNIQUES.*//' > "$want"
        "$BIN/pn-reach" --mcc "$exam" "$TMP/$model" > "$TMP/out" 2> "$TMP/err"
        sed 's/ TECHNIQUES.*//' "$TMP/out" > "$got"
        if grep -q CANNOT_COMPUTE "$got"; then
            echo "unanswered $model $exam"
        elif cmp -s "$want" "$got"; then
            echo "right $model $exam"
        else
            echo "WRONG $model $exam: got $(tr '\n' ' ' < "$got"), the contest: $(tr '\n' ' ' < "$want")"
        fi
    done
    end=$(date +%s.%N)
    echo "time $model $(awk "BEGIN {printf \"%.2f\", $end - $start}") s ($states states)"
done > "$TMP/report"
grep -v '^right' "$TMP/report" | grep -v '^time' >&2 || true
grep '^time' "$TMP/report"
right=$(grep -c '^right' "$TMP/report" || true)
wrong=$(grep -c '^WRONG' "$TMP/report" || true)
unanswered=$(grep -c '^unanswered' "$TMP/report" || true)
answered=$((right + wrong)); total=$((answered + unanswered))
echo "mcc: $right right / $answered answered / $total total"
i=0; while [ $i -lt "$right" ]; do ok; i=$((i + 1)); done
[ "$wrong" -eq 0 ] && ok || bad "$wrong wrong answers"
[ "$total" -gt 0 ] && ok || bad "no instance checked"
finish
