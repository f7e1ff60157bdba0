#!/bin/sh
# pn-dot on stochastic nets: each transition's timing beside it (PIPE's
# rates from the corpus, GreatSPN's servers, delays and priorities, a
# rate that is an expression of the marking), nets without timing drawn
# as before, --no-rates; the solution that pn-solve --format json wrote
# drawn with --solution, with pn-solve's own numbers; a net without a
# steady state said so; the solution of another net refused.
. "${srcdir:-tests}/lib.sh"
G="$srcdir/gspn"
CORPUS="${PN_CORPUS:-}"
LAMBDA=$(printf '\316\273')
PI=$(printf '\317\200')
INF=$(printf '\342\210\236')

# dot_labels DOT: "id<TAB>xlabel<TAB>tooltip" for each node of the DOT
# that pn-dot -f dot wrote (one attribute a line)
dot_labels() {
    awk '/^\t[pt][0-9]+\t\[/ { on = 1; id = x = tip = ""; sub(/^\t[^\t]*\t\[/, "") }
         on {
             line = $0; sub(/^[ \t]+/, "", line)
             last = line ~ /\];$/
             sub(/(,|\];)$/, "", line)
             k = line; sub(/=.*/, "", k)
             v = line; sub(/^[^=]*=/, "", v)
             if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
             if (k == "id") id = v
             else if (k == "xlabel") x = v
             else if (k == "tooltip") tip = v
             if (last) { print id "\t" x "\t" tip; on = 0 }
         }' "$1"
}

# label_of DOT ID: the xlabel of the node with that id
label_of() {
    dot_labels "$1" | awk -F '\t' -v id="$2" '$1 == id { print $2 }'
}
tooltip_of() {
    dot_labels "$1" | awk -F '\t' -v id="$2" '$1 == id { print $3 }'
}

# same WANT GOT WHAT
same() {
    if [ "$1" = "$2" ]; then ok; else bad "$3: '$2', wanted '$1'"; fi
}

# ---- the timing beside the transitions ------------------------------------
# M/M/1/K: the arrival T0 of rate 2, the service T1 of rate 3
expect 0 "$BIN/pn-dot" -f dot -o "$TMP/mm1k.dot" "$G/mm1k.xml"
same "$LAMBDA=2" "$(label_of "$TMP/mm1k.dot" T0)" "mm1k's T0"
same "$LAMBDA=3" "$(label_of "$TMP/mm1k.dot" T1)" "mm1k's T1"
same 'T0\nexponential, rate 2' "$(tooltip_of "$TMP/mm1k.dot" T0)" "T0's tooltip"
same "" "$(label_of "$TMP/mm1k.dot" P0)" "a place without a solution"
# the timing is used: no warning that it is not
lacks "$TMP/err" "not used here"
# --no-rates: none, and the warning as before
expect 0 "$BIN/pn-dot" --no-rates -f dot -o "$TMP/mm1k-none.dot" "$G/mm1k.xml"
same "" "$(label_of "$TMP/mm1k-none.dot" T0)" "T0 with --no-rates"
has "$TMP/err" "their timing is not used here"
# a net without timing: the same drawing with and without --no-rates
"$BIN/pn-gen-gpu" --warps 2 -o "$TMP/g.pnml"
for f in "$srcdir/pnml/valid/sample/net.pnml" "$TMP/g.pnml"; do
    for fmt in dot svg; do
        expect 0 "$BIN/pn-dot" -f $fmt -o "$TMP/a.$fmt" "$f"
        expect 0 "$BIN/pn-dot" --no-rates -f $fmt -o "$TMP/b.$fmt" "$f"
        cmp -s "$TMP/a.$fmt" "$TMP/b.$fmt" && ok || bad "$f: an untimed net drawn otherwise ($fmt)"
    done
done
lacks "$TMP/a.dot" "$LAMBDA="

# GreatSPN: k servers, infinite servers, deterministic delays, weights
# and priorities
P="$srcdir/pnpro/TestFiringTimes.PNPRO"
expect 0 "$BIN/pn-dot" -q --net 'GSPN 1' -f dot -o "$TMP/g1.dot" "$P"
same "$LAMBDA=1.5 $INF servers" "$(label_of "$TMP/g1.dot" T0)" "GSPN 1's T0"
same "$LAMBDA=1 2 servers" "$(label_of "$TMP/g1.dot" T1)" "GSPN 1's T1"
same 'T1\nexponential, rate 1, 2 servers' "$(tooltip_of "$TMP/g1.dot" T1)" "GSPN 1's T1's tooltip"
expect 0 "$BIN/pn-dot" -q --net 'GSPN 6' -f dot -o "$TMP/g6.dot" "$P"
same "d=4.5 $INF servers" "$(label_of "$TMP/g6.dot" D1)" "GSPN 6's D1"
same 'D1\ndeterministic, delay 4.5, infinite server' "$(tooltip_of "$TMP/g6.dot" D1)" "D1's tooltip"
expect 0 "$BIN/pn-dot" -q -f dot -o "$TMP/fms.dot" "$srcdir/pnpro/FlexibleManufacturingSystem.PNPRO"
same "w=1 $PI=3" "$(label_of "$TMP/fms.dot" repM3)" "the FMS's repM3"

# a rate of the marking, as PIPE wrote it
sed 's|<value>2.0</value></rate>|<value>#(Free)*0.4</value></rate>|' "$G/mm1k.xml" > "$TMP/expr.xml"
expect 0 "$BIN/pn-dot" -f dot -o "$TMP/expr.dot" "$TMP/expr.xml"
same "$LAMBDA=#(Free)*0.4" "$(label_of "$TMP/expr.dot" T0)" "a rate of the marking"

# PIPE's Courier protocol from the corpus: every transition as its file
# gives it (21 timed, 13 immediate)
if [ -n "$CORPUS" ] && [ -f "$CORPUS/pipe/Courier_Protocol.xml" ]; then
    cp "$CORPUS/pipe/Courier_Protocol.xml" "$TMP/courier.xml"
    awk -v L="$LAMBDA" -v P="$PI" -v I="$INF" '
        function done() {
            if (id == "") return
            if (timed) s = sprintf("%s=%g", L, rate) (inf ? " " I " servers" : "")
            else s = sprintf("w=%g %s=%d", rate, P, prio)
            print id "\t" s; id = ""
        }
        /<transition / { done(); id = $0; sub(/.*<transition id="/, "", id)
                         sub(/".*/, "", id); timed = 0; rate = 1; prio = 1
                         inf = 0; label = "" }
        /<\/transition>/ { done() }
        id != "" && match($0, /<(rate|timed|priority|infiniteServer)>/) {
            label = substr($0, RSTART + 1, RLENGTH - 2) }
        id != "" && label != "" && /<value>/ {
            v = $0; sub(/.*<value>/, "", v); sub(/<\/value>.*/, "", v)
            if (label == "rate") rate = v + 0
            else if (label == "priority") prio = v + 0
            else if (label == "timed") timed = tolower(v) == "true"
            else inf = tolower(v) == "true"
            label = "" }' "$TMP/courier.xml" | sort > "$TMP/want"
    expect 0 "$BIN/pn-dot" -q -f dot -o "$TMP/courier.dot" "$TMP/courier.xml"
    dot_labels "$TMP/courier.dot" | awk -F '\t' '$1 ~ /^T/ { print $1 "\t" $2 }' | sort > "$TMP/got"
    if cmp -s "$TMP/want" "$TMP/got"; then ok; else
        bad "Courier_Protocol's timing drawn otherwise"; diff "$TMP/want" "$TMP/got" | head >&2
    fi
    n=$(grep -c "	$LAMBDA=" "$TMP/got"); same 21 "$n" "Courier's timed transitions"
    n=$(grep -c "	w=" "$TMP/got"); same 13 "$n" "Courier's immediate transitions"
else
    echo "PN_CORPUS not set: the PIPE corpus net is skipped"
fi

# ---- a solution drawn ------------------------------------------------------
# pn-solve's numbers (ten digits) in the tooltips, four beside the nodes
expect 0 "$BIN/pn-solve" "$G/mm1k.xml"
mv "$TMP/out" "$TMP/mm1k.txt"
"$BIN/pn-solve" --format json "$G/mm1k.xml" > "$TMP/mm1k.json"
expect 0 "$BIN/pn-dot" --solution "$TMP/mm1k.json" -f dot -o "$TMP/sol.dot" "$G/mm1k.xml"
has "$TMP/sol.dot" "steady state: X throughput, N mean tokens"
awk '/^throughput:/ { s = "X"; next } /^mean tokens:/ { s = "N"; next }
     s != "" && /^  / { print s, $1, $2 }' "$TMP/mm1k.txt" > "$TMP/values"
[ "$(wc -l < "$TMP/values")" -eq 4 ] && ok || bad "pn-solve's values not found"
while read -r sym id v; do
    words=$([ "$sym" = X ] && echo throughput || echo "mean tokens")
    tip=$(tooltip_of "$TMP/sol.dot" "$id")
    case $tip in *"\\n$words $v") ok ;; *) bad "$id's tooltip '$tip' lacks $words $v" ;; esac
    short=$(awk -v v="$v" 'BEGIN { printf "%.4g", v }')
    x=$(label_of "$TMP/sol.dot" "$id")
    case $x in *"$sym=$short") ok ;; *) bad "$id: '$x', wanted $sym=$short" ;; esac
done < "$TMP/values"
same "$LAMBDA=2\\nX=1.904" "$(label_of "$TMP/sol.dot" T0)" "T0 solved"
same "N=1.423" "$(label_of "$TMP/sol.dot" P0)" "P0 solved"
# from standard input, the same drawing
"$BIN/pn-solve" --format json "$G/mm1k.xml" |
    "$BIN/pn-dot" --solution - -f dot -o "$TMP/sol-stdin.dot" "$G/mm1k.xml" &&
    cmp -s "$TMP/sol.dot" "$TMP/sol-stdin.dot" && ok || bad "--solution - differs"
# a Gauss-Seidel that did not converge: said in the title
expect 4 "$BIN/pn-solve" --format json --direct-max 1 --max-iter 1 "$G/mm1k.xml"
mv "$TMP/out" "$TMP/nc.json"
expect 0 "$BIN/pn-dot" --solution "$TMP/nc.json" -f dot -o "$TMP/nc.dot" "$G/mm1k.xml"
has "$TMP/nc.dot" "steady state NOT converged (relative residual"

# no steady state: what pn-solve found instead, and no measure drawn
expect 0 "$BIN/pn-solve" "$G/absorbing.xml"
mtta=$(sed -n 's/^mean time to absorption: //p' "$TMP/out")
mtta=$(awk -v v="$mtta" 'BEGIN { printf "%.4g", v }')
"$BIN/pn-solve" --format json "$G/absorbing.xml" > "$TMP/abs.json"
expect 0 "$BIN/pn-dot" --solution "$TMP/abs.json" -f dot -o "$TMP/abs.dot" "$G/absorbing.xml"
has "$TMP/abs.dot" "no steady state: 3 dead markings reachable, mean time to absorption $mtta"
lacks "$TMP/abs.dot" "X="
lacks "$TMP/abs.dot" "N="
"$BIN/pn-solve" --format json "$G/two-bottoms.xml" > "$TMP/two.json"
expect 0 "$BIN/pn-dot" --solution "$TMP/two.json" -f dot -o "$TMP/two.dot" "$G/two-bottoms.xml"
has "$TMP/two.dot" "no steady state: 2 bottom components (not solved)"

# --time: the transient measures at that time, pn-solve's to ten digits,
# whatever the chain
expect 0 "$BIN/pn-solve" --time 0.5,1 "$G/absorbing.xml"
awk '/^at time 0.5:/ { on = 1; next } /^at time/ { on = 0 }
     on && /^  dead:/ { print "D", "dead", $2 }
     on && /^  throughput:/ { s = "X"; next } on && /^  mean tokens:/ { s = "N"; next }
     on && s != "" && /^    / { print s, $1, $2 }' "$TMP/out" > "$TMP/values"
[ "$(wc -l < "$TMP/values")" -eq 10 ] && ok || bad "pn-solve's values at time 0.5 not found"
"$BIN/pn-solve" --format json --time 0.5,1 "$G/absorbing.xml" > "$TMP/abst.json"
expect 0 "$BIN/pn-dot" --solution "$TMP/abst.json" --time .50 -f dot -o "$TMP/abst.dot" "$G/absorbing.xml"
dead=$(awk '$1 == "D" { printf "%.4g", $3 }' "$TMP/values")
has "$TMP/abst.dot" "at time 0.5: X throughput, N mean tokens; in a dead marking with probability $dead"
grep -v '^D' "$TMP/values" | while read -r sym id v; do
    words=$([ "$sym" = X ] && echo throughput || echo "mean tokens")
    tip=$(tooltip_of "$TMP/abst.dot" "$id")
    case $tip in *"\n$words $v") echo ok ;; *) echo "bad $id's tooltip '$tip' lacks $words $v" ;; esac
done > "$TMP/checked"
if grep -q '^bad' "$TMP/checked"; then bad "$(grep '^bad' "$TMP/checked" | head -1)"; else ok; fi
[ "$(grep -c '^ok' "$TMP/checked")" -eq 9 ] && ok || bad "not every node checked at time 0.5"
expect 2 "$BIN/pn-dot" --solution "$TMP/abst.json" --time 0.7 -o "$TMP/x.svg" "$G/absorbing.xml"
has "$TMP/err" "pn-dot: --time 0.7: $TMP/abst.json has no measures at that time"
expect 2 "$BIN/pn-dot" --solution "$TMP/abs.json" --time 0.5 -o "$TMP/x.svg" "$G/absorbing.xml"
expect 2 "$BIN/pn-dot" --time 0.5 -o "$TMP/x.svg" "$G/absorbing.xml"
has "$TMP/err" "--time goes with --solution"

# ---- a solution that is not the net's: refused (exit 1) --------------------
expect 1 "$BIN/pn-dot" --solution "$TMP/mm1k.json" -o "$TMP/x.svg" "$G/repairman.xml"
has "$TMP/err" "pn-dot: $TMP/mm1k.json: the solution of a net of 2 places and 2 transitions, not of $G/repairman.xml (4 places, 3 transitions)"
sed 's/"Free"/"Q9"/' "$TMP/mm1k.json" > "$TMP/q9.json"
expect 1 "$BIN/pn-dot" --solution "$TMP/q9.json" -o "$TMP/x.svg" "$G/mm1k.xml"
has "$TMP/err" "pn-dot: $TMP/q9.json: mean_tokens: 'Q9' is not a place of $G/mm1k.xml: the solution of another net"
sed 's/"T1": [0-9.e-]*}/"P0": 1}/' "$TMP/mm1k.json" > "$TMP/t1.json"
expect 1 "$BIN/pn-dot" --solution "$TMP/t1.json" -o "$TMP/x.svg" "$G/mm1k.xml"
has "$TMP/err" "throughput: 'P0' is not a transition of $G/mm1k.xml"
sed 's/"P1": 1/"Z": 1/' "$TMP/abs.json" > "$TMP/absz.json"
expect 1 "$BIN/pn-dot" --solution "$TMP/absz.json" -o "$TMP/x.svg" "$G/absorbing.xml"
has "$TMP/err" "dead_markings: 'Z' is not a place of $G/absorbing.xml"
printf '{"kind": "ergodic",\n "places": 2 "transitions": 2}\n' > "$TMP/broken.json"
expect 1 "$BIN/pn-dot" --solution "$TMP/broken.json" -o "$TMP/x.svg" "$G/mm1k.xml"
has "$TMP/err" "pn-dot: $TMP/broken.json:2:"
"$BIN/pn-info" --format json "$G/mm1k.xml" > "$TMP/info.json" 2>/dev/null
expect 1 "$BIN/pn-dot" --solution "$TMP/info.json" -o "$TMP/x.svg" "$G/mm1k.xml"
has "$TMP/err" "not a solution that pn-solve --format json wrote"
expect 1 "$BIN/pn-dot" --solution "$TMP/none.json" -o "$TMP/x.svg" "$G/mm1k.xml"
has "$TMP/err" "pn-dot: $TMP/none.json:"
[ -e "$TMP/x.svg" ] && bad "a refused solution left a picture" || ok
# the command line
expect 2 "$BIN/pn-dot" --solution - - < "$G/mm1k.xml"
has "$TMP/err" "cannot both be standard input"
"$BIN/pn-run" --trace "$TMP/r.trace" --max-steps 5 "$G/mm1k.xml" > /dev/null 2>&1
expect 2 "$BIN/pn-dot" --solution "$TMP/mm1k.json" --trace "$TMP/r.trace" --timeline "$G/mm1k.xml"
has "$TMP/err" "--solution draws the net: not with --timeline or --html"
finish
