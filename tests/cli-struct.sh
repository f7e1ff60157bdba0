#!/bin/sh
# pn-struct: Murata's classes on hand-made nets (tests/struct: each file
# says what it is), the invariants as equations, what it says of
# liveness against pn-reach's answer, the limits, the options, and a net
# of 100,000 places handled within its limits.
. "${srcdir:-tests}/lib.sh"
S="$srcdir/struct"

# classes FILE WORDS: the classes line of pn-struct FILE is WORDS
classes() {
    expect 0 "$BIN/pn-struct" "$S/$1.pnml"
    line=$(grep '^classes:' "$TMP/out" | sed 's/^classes: *//')
    [ "$line" = "$2" ] && ok || bad "$1: classes '$line', wanted '$2'"
}
classes murata-sm "ordinary, pure, state machine, free-choice, extended free-choice, asymmetric choice"
classes murata-mg "ordinary, pure, marked graph, free-choice, extended free-choice, asymmetric choice"
classes murata-fc "ordinary, pure, free-choice, extended free-choice, asymmetric choice"
classes murata-efc "ordinary, pure, extended free-choice, asymmetric choice"
classes murata-ac "ordinary, pure, asymmetric choice"
classes not-ac "ordinary, pure"
classes weighted-loop "none of Murata's"
classes fc-deadlock "ordinary, pure, free-choice, extended free-choice, asymmetric choice"

# the invariants as equations over the initial marking
expect 0 "$BIN/pn-struct" "$S/murata-mg.pnml"
for eq in "p1 + p2 = 1" "p1 + p4 = 1" "p2 + p3 = 1" "p3 + p4 = 1" "  t1 + t2"; do
    has "$TMP/out" "$eq"
done
has "$TMP/out" "P-semiflows: 4 (conservative"
has "$TMP/out" "T-semiflows: 1 (consistent"
expect 0 "$BIN/pn-struct" "$S/weighted-loop.pnml"
has "$TMP/out" "p1 + p2 = 2"
expect 0 "$BIN/pn-struct" "$srcdir/pnml/valid/sample/net.pnml"
has "$TMP/out" "ready + 2 p2 = 3"
has "$TMP/out" "transitions in no T-semiflow (1): t1"

# liveness, where the structure decides it, is pn-reach's
for f in "$S"/*.pnml; do
    "$BIN/pn-struct" "$f" > "$TMP/s" 2>&1
    "$BIN/pn-reach" "$f" > "$TMP/r" 2>&1
    grep -q '^live:' "$TMP/r" || continue # unbounded: pn-reach stops
    case "$(grep '^liveness:' "$TMP/s")" in
    *"not live"*) grep -q '^live: *no' "$TMP/r" && ok || bad "$f: pn-struct says not live, pn-reach does not" ;;
    *": live "*) grep -q '^live: *yes' "$TMP/r" && ok || bad "$f: pn-struct says live, pn-reach does not" ;;
    esac
done
# bounds and structure by linear programming
expect 0 "$BIN/pn-struct" "$S/murata-sm.pnml"
has "$TMP/out" "structure:   structurally bounded, conservative, repetitive, consistent (LP)"
has "$TMP/out" "bounds:      bounded"
has "$TMP/out" "  at most 1: p1, p2, p3"
expect 0 "$BIN/pn-struct" "$S/producer.pnml"
has "$TMP/out" "structure:   not structurally bounded, not conservative, not repetitive, not consistent (LP)"
has "$TMP/out" "bounds:      some places have no bound"
has "$TMP/out" "  no bound: p2, p3"
has "$TMP/out" "  at most 3: p4"
has "$TMP/out" "  at most 1: p1"
has "$TMP/out" "liveness:    not live (not structurally repetitive (LP)"
expect 0 "$BIN/pn-struct" -f json "$S/producer.pnml"
has "$TMP/out" '"lp": {"end": "complete", "bounded": false, "structurally_bounded": false, "conservative": false, "repetitive": false, "consistent": false, "bounds": {"p1": 1, "p2": "unbounded", "p3": "unbounded", "p4": 3}}'
expect 0 "$BIN/pn-struct" "$S/weighted-loop.pnml"
has "$TMP/out" "  at most 2: p1, p2"
expect 2 "$BIN/pn-struct" --time-limit 0 "$S/producer.pnml"

expect 0 "$BIN/pn-struct" "$S/fc-deadlock.pnml"
has "$TMP/out" "Commoner's property (every siphon holds a marked trap): no"
has "$TMP/out" "liveness:    not live (extended free-choice"
has "$TMP/out" "{p1, p2}  holds no marked trap"

# workflow nets (one source place, one sink place): their soundness
# through the state space of the short-circuited net
wf() {
    expect 0 "$BIN/pn-struct" "$1"
    line=$(grep '^workflow:' "$TMP/out" | sed 's/^workflow: *//')
    [ "$line" = "$2" ] && ok || bad "$1: workflow '$line', wanted '$2'"
}
wf "$S/wf-sound.pnml" "source i, sink o: sound (from [i] the sink is always reached, cleanly, and every transition fires)"
wf "$S/wf-improper.pnml" "source i, sink o: not sound: a reachable marking marks o and holds other tokens (improper completion)"
wf "$S/wf-dead.pnml" "source i, sink o: not sound: transition join never fires"
wf "$S/murata-mg.pnml" ""
expect 0 "$BIN/pn-struct" -f json "$S/wf-dead.pnml"
has "$TMP/out" '"workflow": {"source": "i", "sink": "o", "sound": false, "reason": "dead transition"}'
# WoPeD's and pm4py's own workflow nets of the corpus, sound by design
if [ -n "${PN_CORPUS:-}" ] && [ -d "$PN_CORPUS/woped" ]; then
    for f in woped/LoanApplication woped/CapacityPlanning pm4py/running-example pm4py/roadtraffic; do
        [ -f "$PN_CORPUS/$f.pnml" ] || continue
        "$BIN/pn-struct" -q "$PN_CORPUS/$f.pnml" > "$TMP/out" 2>&1
        grep -q '^workflow: .*: sound' "$TMP/out" && ok || bad "$f: not found a sound workflow net"
    done
fi

# other arcs: said, and everything of the net without them
expect 0 "$BIN/pn-struct" "$srcdir/pnml/valid/tapaal-inhibitor/net.pnml"
has "$TMP/out" "(of the net without its inhibitor, read and reset arcs"
# the siphons decide nothing there; the LP's "not live" holds (an
# inhibitor arc moves no token: the markings still follow C)
has "$TMP/out" "liveness:    not live (not structurally repetitive (LP)"

# JSON: the same, every set
expect 0 "$BIN/pn-struct" -f json "$S/murata-mg.pnml"
has "$TMP/out" '"classes": ["ordinary", "pure", "marked graph"'
has "$TMP/out" '{"weights": {"p1": 1, "p2": 1}, "constant": 1}'
has "$TMP/out" '"conservative": true'
has "$TMP/out" '"commoner": true'
has "$TMP/out" '"liveness": "live"'

# the limits: "more than N", exit 4, what was found still printed
expect 4 "$BIN/pn-struct" --max 1 "$S/murata-mg.pnml"
has "$TMP/out" "stopped: more than 1 rows of Farkas' algorithm at once (--max 1)"
has "$TMP/out" "P-semiflows: unknown"
expect 4 "$BIN/pn-struct" -f json --max 1 "$S/murata-mg.pnml"
has "$TMP/out" '"end": "max", "limit": 1'
expect 2 "$BIN/pn-struct" --max 0 "$S/murata-mg.pnml"
has "$TMP/err" "pn-struct: --max: '0' is not a whole number"
expect 2 "$BIN/pn-struct"
expect 1 "$BIN/pn-struct" "$TMP/none.pnml"

# --all lists more than 20
awk 'BEGIN { print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"><net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
    for (i = 0; i < 25; i++) printf "<place id=\"p%d\"/><transition id=\"t%d\"/><arc id=\"a%d\" source=\"p%d\" target=\"t%d\"/><arc id=\"b%d\" source=\"t%d\" target=\"p%d\"/>\n", i, i, i, i, i, i, i, i
    print "</page></net></pnml>" }' > "$TMP/loops.pnml"
expect 0 "$BIN/pn-struct" "$TMP/loops.pnml"
has "$TMP/out" "... and 5 more (--all lists them)"
expect 0 "$BIN/pn-struct" --all "$TMP/loops.pnml"
lacks "$TMP/out" "more (--all"
has "$TMP/out" "  p24 = 0"

# the options every program has, and the man page
expect 0 "$BIN/pn-struct" --help
has "$TMP/out" "Usage: pn-struct"
expect 0 "$BIN/pn-struct" --version
man_documents_options pn-struct

# hostile: 100,000 places in a ring: answered or stopped at a limit (the
# semiflows' matrix would not fit, the siphons' budget of work runs out,
# the linear programs' time)
# in seconds, never a hang (timeout's exit 124 would fail)
awk 'BEGIN { n = 100000
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\"><net id=\"big\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
    for (i = 0; i < n; i++) printf "<place id=\"p%d\"><initialMarking><text>1</text></initialMarking></place><transition id=\"t%d\"/><arc id=\"a%d\" source=\"p%d\" target=\"t%d\"/><arc id=\"b%d\" source=\"t%d\" target=\"p%d\"/>\n", i, i, i, i, i, i, i, (i + 1) % n
    print "</page></net></pnml>" }' > "$TMP/big.pnml"
start=$(date +%s)
timeout 120 "$BIN/pn-struct" -q --time-limit 2 "$TMP/big.pnml" > "$TMP/out" 2>"$TMP/err"
rc=$?
took=$(( $(date +%s) - start ))
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; } && ok || bad "100,000 places: exit $rc"
has "$TMP/out" "net:         big (100000 places, 100000 transitions)"
has "$TMP/out" "classes:     ordinary, pure, state machine, marked graph"
has "$TMP/out" "stopped: the budget of work ran out; the siphons are not all known"
# the linear programs within --time-limit: what they solved, the rest
# said unknown
grep -q '^structure:   .* (LP)$' "$TMP/out" && ok || bad "100,000 places: no structure line"
grep -q '^bounds:      bounded' "$TMP/out" ||
    has "$TMP/out" "  unknown (not solved in time): p0, p1"
echo "100,000 places: exit $rc in ${took}s"
finish
