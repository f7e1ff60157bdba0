#!/bin/sh
# TAPAAL's verifypn run as the contest's harness runs it, behind the same
# command line as pn-reach's: verifypn-mcc.sh --mcc EXAMINATION DIR, with
# DIR/model.pnml and DIR/EXAMINATION.xml, the budget in
# BK_TIME_CONFINEMENT (seconds), the program in VERIFYPN. Prints the
# FORMULA lines verifypn prints, nothing else; make bench-scale
# (bench/scale-vs.sh) compares them with the contest's answers through
# tests/scale.sh.
#
# The phases are those of TAPAAL's own contest script, on one CPU: the
# query simplification (state equation by linear programming) and the
# structural reductions for all formulas at once, which writes the
# simplified queries and the reduced net; then one search per formula
# left, in turn, each given the time left shared by the formulas left
# (UpperBounds: one search for all, as that script does), with the
# script's strategy for the examination.
set -u
[ "${1:-}" = --mcc ] && [ $# -eq 3 ] || {
    echo "usage: VERIFYPN=PATH $0 --mcc EXAMINATION DIR" >&2; exit 2; }
exam=$2 dir=$3
vpn="${VERIFYPN:?VERIFYPN: the verifypn program}"
budget="${BK_TIME_CONFINEMENT:-60}"
start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
share() { n=$(($1 / $2)); [ "$n" -ge 1 ] && echo "$n" || echo 1; }

queries="$dir/$exam.xml"
if [ "$exam" = ReachabilityDeadlock ]; then
    # the contest's deadlock examination has no property file: the
    # harness's own, one formula
    cat > "$queries" <<'XML'
<?xml version="1.0"?>
<property-set xmlns="http://mcc.lip6.fr/">
  <property><id>ReachabilityDeadlock</id>
    <formula><exists-path><finally><deadlock/></finally></exists-path></formula>
  </property>
</property-set>
XML
fi
[ -f "$queries" ] || { echo "$queries: no such file" >&2; exit 2; }
sed -n 's/.*<id>\([^<]*\)<\/id>.*/\1/p' "$queries" > "$dir/.ids"
n=$(wc -l < "$dir/.ids")
[ "$n" -gt 0 ] || { echo "$queries: no formula" >&2; exit 2; }

# the script's splits of its budget (TIMEOUT_TOTAL/5, /12, /30, /120),
# never under a second
simp=$(share "$budget" 5) red=$(share "$budget" 12) short=$(share "$budget" 30)
lp=$(share "$budget" 120)
case $exam in
    # (-ltl: the formulas are LTL; in the searches the algorithm named)
    LTL*) mode="-ltl" seq="-ltl tarjan -s BestFS --ltl-por automaton --ltl-heur aut" ;;
    CTL*) mode= seq="-s RDFS" ;;
    ReachabilityDeadlock) mode= seq="-s RDFS --siphon-trap $red" ;;
    UpperBounds) mode= seq="-s BFS" ;;
    *) mode= seq="-s RPFS" ;;
esac
# its FORMULA lines only; the rest (statistics, progress) to stderr
run() { # run SECONDS ARGS...: verifypn within SECONDS
    t=$1; shift
    [ "$t" -ge 1 ] || return 0
    timeout -s KILL "$t" "$vpn" "$@" > "$dir/.out" 2>> "$dir/.log"
    grep '^FORMULA' "$dir/.out" | tee -a "$dir/.answered"
}
: > "$dir/.answered"
all=$(seq -s, 1 "$n")

# 1. simplification and reductions for all formulas, the reduced net and
# queries written for the searches
run $((simp + red)) -n $mode -q "$simp" -l "$lp" -d "$red" -s OverApprox \
    --binary-query-io 2 --write-simplified "$dir/.qf" \
    --write-reduced "$dir/.mf" -x "$all" "$dir/model.pnml" "$queries"
todo() { # the indexes (from 1) of the formulas not answered yet
    i=0
    while read -r id; do
        i=$((i + 1))
        grep -q "^FORMULA $id " "$dir/.answered" || echo $i
    done < "$dir/.ids"
}
if [ -s "$dir/.qf" ] && [ -s "$dir/.mf" ]; then
    # the simplified file holds the formulas left, in their order, and
    # numbers them from 1 (as the script numbers them)
    net="$dir/.mf" qs="$dir/.qf" io="--binary-query-io 1" again="-q 0 -l 0 -d 0"
    m=$(todo | wc -l)
    set -- $(seq 1 "$m")
else
    net="$dir/model.pnml" qs="$queries" io= again="-q $simp -l $lp -d $short"
    set -- $(todo)
fi

# 2. the searches
if [ "$exam" = UpperBounds ]; then
    [ $# -gt 0 ] && run "$(left)" -n $seq $again $io \
        -x "$(echo "$@" | tr ' ' ,)" "$net" "$qs"
else
    while [ $# -gt 0 ]; do
        t=$(left)
        [ "$t" -ge 1 ] || break
        # whole seconds: the time left shared, a second at least
        [ $((t / $#)) -ge 1 ] && t=$((t / $#)) || t=1
        run "$t" -n $seq $again $io -x "$1" "$net" "$qs"
        shift
    done
fi
exit 0
