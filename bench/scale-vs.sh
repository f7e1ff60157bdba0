#!/bin/sh
# pn-reach beside TAPAAL's verifypn on ../shared/mcc-scale (make
# bench-scale VERIFYPN=PATH): each examination run by tests/scale.sh,
# first for pn-reach, then for verifypn (bench/verifypn-mcc.sh, run as
# TAPAAL's contest script runs it), never both at once, with the same
# budget an examination (SCALE_TIME, default 10 s) on the same machine.
# Prints right / answered / total for each tool side by side, the
# answers that disagree with the contest's, and the wall time.
#   VERIFYPN=PATH       the verifypn program (required)
#   SCALE_EXAMS="RD UB" only these (default: RD RC RF UB CTLC CTLF LTLC
#                       LTLF); SCALE_TIME and SCALE_ONLY as in scale.sh
# Fails when pn-reach gives a wrong answer or crashes; verifypn's wrong
# answers are counted, not failed on.
set -u
: "${srcdir:=tests}" "${top_builddir:=.}"
[ -n "${VERIFYPN:-}" ] || {
    echo "bench-scale: VERIFYPN=PATH names TAPAAL's verifypn" >&2; exit 2; }
case $VERIFYPN in /*) ;; *) VERIFYPN="$(pwd)/$VERIFYPN" ;; esac
[ -x "$VERIFYPN" ] || { echo "bench-scale: $VERIFYPN: not a program" >&2; exit 2; }
export VERIFYPN srcdir top_builddir
wrapper="$(cd "$(dirname "$0")" && pwd)/verifypn-mcc.sh"
out=$(mktemp -d "${TMPDIR:-/tmp}/pn-bench-scale.XXXXXX")
trap 'rm -rf "$out"' EXIT
exams="${SCALE_EXAMS:-RD RC RF UB CTLC CTLF LTLC LTLF}"

# one tool on one examination: its scale.sh output in $out/TOOL-CODE,
# its wall time in seconds in $out/TOOL-CODE.time
one() { # one TOOL CODE
    s=$(date +%s)
    if [ "$1" = pn-reach ]; then
        SCALE_EXAMS=$2 sh "$srcdir/scale.sh" > "$out/$1-$2" 2>&1
    else
        SCALE_TOOL="$wrapper" SCALE_EXAMS=$2 sh "$srcdir/scale.sh" > "$out/$1-$2" 2>&1
    fi
    echo $(($(date +%s) - s)) > "$out/$1-$2.time"
}
# "R / A / T" from "scale EXAM: R right / A answered / T total"
figures() {
    sed -n 's|^scale [A-Za-z]*: \([0-9]*\) right / \([0-9]*\) answered / \([0-9]*\) total$|\1 / \2 / \3|p' "$1"
}
sum() { # sum TOOL FIELD(1 right, 2 answered, 3 total)
    for c in $exams; do figures "$out/$1-$c"; done |
        awk -v f="$2" '{ split($0, v, " / "); n += v[f] } END { print n + 0 }'
}
outputs() { for c in $exams; do cat "$out/$1-$c"; done; }
count() { # count TOOL PATTERN: lines of its outputs that start so
    outputs "$1" | grep -c "^\($2\)" || true
}

start=$(date +%s)
for code in $exams; do
    one pn-reach "$code"
    one verifypn "$code"
done
if ! grep -q '^scale ' "$out/pn-reach-$(echo $exams | cut -d' ' -f1)"; then
    cat "$out/pn-reach-$(echo $exams | cut -d' ' -f1)"; exit 77
fi

printf '%-26s %-20s %-20s\n' "${SCALE_TIME:-10} s an examination" \
    pn-reach verifypn
printf '%-26s %-20s %-20s\n' "" "right/answered/total" "right/answered/total"
for code in $exams; do
    name=$(sed -n 's/^scale \([A-Za-z]*\): .*/\1/p' "$out/pn-reach-$code")
    printf '%-26s %-20s %-20s %s\n' "${name:-$code}" \
        "$(figures "$out/pn-reach-$code")" "$(figures "$out/verifypn-$code")" \
        "($(cat "$out/pn-reach-$code.time") s, $(cat "$out/verifypn-$code.time") s)"
done
printf '%-26s %-20s %-20s\n' all \
    "$(sum pn-reach 1) / $(sum pn-reach 2) / $(sum pn-reach 3)" \
    "$(sum verifypn 1) / $(sum verifypn 2) / $(sum verifypn 3)"
pw=$(count pn-reach WRONG) vw=$(count verifypn WRONG)
printf '%-26s %-20s %-20s\n' "wrong answers" "$pw" "$vw"
printf '%-26s %-20s %-20s\n' "failed runs" \
    "$(count pn-reach 'ERROR\|REFUSED')" "$(count verifypn 'ERROR\|REFUSED')"
pt=0 vt=0
for code in $exams; do
    pt=$((pt + $(cat "$out/pn-reach-$code.time")))
    vt=$((vt + $(cat "$out/verifypn-$code.time")))
done
printf '%-26s %-20s %-20s\n' "wall time" "$pt s" "$vt s"
echo "bench-scale: $(($(date +%s) - start)) s in all"
# the disagreements, each tool's, named
for t in pn-reach verifypn; do
    outputs $t | grep '^WRONG\|^ERROR\|^REFUSED' | sed "s/^/$t: /"
done
[ "$pw" -eq 0 ] && [ "$(count pn-reach ERROR)" -eq 0 ]
