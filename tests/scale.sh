#!/bin/sh
# pn-reach on instances too large to search (../shared/mcc-scale), run as
# the contest's harness runs a tool: each instance's model and the
# examination's property file copied alone into a scratch folder (the
# tool never reads an oracle file), BK_TIME_CONFINEMENT set to the budget
# and the run killed a few seconds past it; every answer line printed
# before then counts, and is compared with the contest's (formulas the
# contest left unknown, '?', are not counted).
#   SCALE_TIME=S        seconds an examination (default 10)
#   SCALE_EXAMS="RD UB" only these examinations (default: RD RC RF UB
#                       CTLC CTLF LTLC LTLF)
#   SCALE_ONLY=MODEL    only this instance
#   SCALE_TOOL=PROGRAM  run PROGRAM --mcc EXAM DIR instead of pn-reach
#                       (bench/verifypn-mcc.sh: TAPAAL's verifypn)
#   SCALE_REPORT=FILE   also keep the report, a line a formula (right,
#                       unanswered or WRONG, examination, instance,
#                       formula) and a line an examination's time, in FILE
# Prints "right / answered / total" for each examination and in all;
# fails on a wrong answer or a crash.
. "${srcdir:-tests}/lib.sh"
SCALE="${MCC_SCALE:-}"
[ -n "$SCALE" ] || SCALE="${PN_CORPUS:+$PN_CORPUS/../mcc-scale}"
if [ -z "$SCALE" ] || [ ! -f "$SCALE/INDEX.tsv" ]; then
    echo "no ../shared/mcc-scale: skipped"; exit 77
fi
budget="${SCALE_TIME:-10}"
only="${SCALE_EXAMS:-RD RC RF UB CTLC CTLF LTLC LTLF}"
REACH="$BIN/pn-reach"
if [ -x "$BIN/.libs/pn-reach" ] && [ -d "$top_builddir/.libs" ]; then
    LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
    REACH="$BIN/.libs/pn-reach"
fi
# another tool run the same way (make bench-scale: bench/scale-vs.sh)
REACH="${SCALE_TOOL:-$REACH}"
for_exams() {
    for pair in ReachabilityDeadlock:RD ReachabilityCardinality:RC \
                ReachabilityFireability:RF UpperBounds:UB \
                CTLCardinality:CTLC CTLFireability:CTLF \
                LTLCardinality:LTLC LTLFireability:LTLF; do
        code=${pair#*:}
        case " $only " in *" $code "*) echo "${pair%:*} $code" ;; esac
    done
}
answers() {
    sed -n 's/^FORMULA \([^ ]*\) \([^ ]*\).*/\1 \2/p' "$1"
}
tail -n +2 "$SCALE/INDEX.tsv" | while IFS='	' read -r model rest; do
    [ -n "${SCALE_ONLY:-}" ] && [ "$model" != "$SCALE_ONLY" ] && continue
    for_exams | while read -r exam code; do
        [ -f "$SCALE/$model/oracle-$code.out" ] || continue
        dir="$TMP/$model"
        mkdir -p "$dir"
        cp "$SCALE/$model/model.pnml" "$dir/"
        [ -f "$SCALE/$model/$exam.xml" ] && cp "$SCALE/$model/$exam.xml" "$dir/"
        start=$(date +%s.%N)
        BK_TIME_CONFINEMENT=$budget timeout -s KILL $((budget + 5)) \
            "$REACH" --mcc "$exam" "$dir" > "$TMP/out" 2> "$TMP/err"
        rc=$?
        end=$(date +%s.%N)
        # a file the reader refuses is said (its formulas count as
        # unanswered); anything else but an answer or the kill fails
        case $rc in
            0|4|137) ;;
            1|2) echo "REFUSED $model $exam: exit $rc: $(head -c 300 "$TMP/err")" ;;
            *) echo "ERROR $model $exam: exit $rc: $(head -c 300 "$TMP/err")" ;;
        esac
        # ReachabilityDeadlock's line names the examination; the oracle's
        # the instance
        answers "$SCALE/$model/oracle-$code.out" |
            sed "s/^$model-ReachabilityDeadlock /ReachabilityDeadlock /" > "$TMP/want"
        answers "$TMP/out" > "$TMP/got"
        awk -v code="$code" -v model="$model" '
            FILENAME == ARGV[1] { got[$1] = $2; next }
            $2 == "?" { next }
            !($1 in got) || got[$1] == "CANNOT_COMPUTE" {
                print "unanswered", code, model, $1; next }
            got[$1] == $2 { print "right", code, model, $1; next }
            { print "WRONG", code, model, $1 ": got " got[$1] ", the contest " $2 }
        ' "$TMP/got" "$TMP/want"
        echo "time $model $code $(awk "BEGIN {printf \"%.1f\", $end - $start}") s"
        rm -rf "$dir"
    done
done > "$TMP/report"
[ -n "${SCALE_REPORT:-}" ] && cp "$TMP/report" "$SCALE_REPORT"
grep -v '^right' "$TMP/report" | grep -v '^time' | grep -v '^unanswered' >&2 || true
count() { grep -c "^$1 ${2:-}" "$TMP/report" || true; }
for_exams | while read -r exam code; do
    r=$(count right "$code ") w=$(count WRONG "$code ") u=$(count unanswered "$code ")
    echo "scale $exam: $r right / $((r + w)) answered / $((r + w + u)) total"
done
right=$(count right) wrong=$(count WRONG) unanswered=$(count unanswered)
errors=$(count ERROR)
answered=$((right + wrong)); total=$((answered + unanswered))
echo "scale: $right right / $answered answered / $total total ($budget s an examination)"
[ "$wrong" -eq 0 ] && ok || bad "$wrong wrong answers"
[ "$errors" -eq 0 ] && ok || bad "$errors runs failed"
[ "$total" -gt 0 ] && ok || bad "no instance checked"
finish
