#!/bin/sh
# pn-reach's graph of markings: --graph (DOT that Graphviz draws, JSON,
# counts equal to the search's), its size guard, --all-dead against a
# brute-force search, and --coverability on the textbooks' unbounded nets
# (tests/data/coverability) with the omega places named.
. "${srcdir:-tests}/lib.sh"
DATA="$srcdir/data/coverability"
FIX="$srcdir/pnml"

# ---- a net given as lines "P place count" and "T name in:p:w... out:p:w"
# becomes PNML (pnml) and is searched breadth first by awk (brute) ----------
pnml() {
    awk 'BEGIN {print "<pnml><net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"}
        $1 == "P" {printf "<place id=\"%s\"><initialMarking><text>%s</text></initialMarking></place>\n", $2, $3}
        $1 == "T" {printf "<transition id=\"%s\"/>\n", $2
            for (i = 3; i <= NF; i++) { split($i, a, ":")
                src = a[1] == "in" ? a[2] : $2; dst = a[1] == "in" ? $2 : a[2]
                printf "<arc id=\"arc%d\" source=\"%s\" target=\"%s\"><inscription><text>%s</text></inscription></arc>\n", ++n, src, dst, a[3] } }
        END {print "</page></net></pnml>"}' "$1"
}
# brute NET: the number of reachable markings, then each dead marking as
# place=count for its non-zero places, sorted
brute() {
    awk 'BEGIN {np = 0; nt = 0}
        $1 == "P" {pl[np++] = $2; m0[np - 1] = $3; idx[$2] = np - 1}
        $1 == "T" {for (i = 3; i <= NF; i++) { split($i, a, ":")
                if (a[1] == "in") need[nt, idx[a[2]]] += a[3]
                d[nt, idx[a[2]]] += a[1] == "in" ? -a[3] : a[3] }
            nt++}
        END {
            s = ""; for (p = 0; p < np; p++) s = s (p ? "," : "") m0[p]
            q[0] = s; seen[s] = 1; n = 1
            for (h = 0; h < n; h++) {
                split(q[h], m, ","); dead = 1
                for (t = 0; t < nt; t++) {
                    en = 1; for (p = 0; p < np; p++) if (m[p + 1] < need[t, p]) en = 0
                    if (!en) continue
                    dead = 0; s = ""
                    for (p = 0; p < np; p++) s = s (p ? "," : "") m[p + 1] + d[t, p]
                    if (!(s in seen)) { seen[s] = 1; q[n++] = s }
                }
                if (dead) { s = ""
                    for (p = 0; p < np; p++) if (m[p + 1]) s = s (s == "" ? "" : ", ") pl[p] "=" m[p + 1]
                    print (s == "" ? "(empty)" : s) > "/dev/stderr" }
            }
            print n }' "$1"
}

expect 2 "$BIN/pn-reach" --graph "$TMP/g.svg" "$FIX/valid/sample/net.pnml"
has "$TMP/err" "must end in .dot, .gv"
expect 2 "$BIN/pn-reach" --graph-limit 0 "$FIX/valid/sample/net.pnml"
expect 2 "$BIN/pn-reach" --graph "$TMP/g.dot" --query deadlock "$FIX/valid/sample/net.pnml"
expect 2 "$BIN/pn-reach" --coverability --semantics maximal "$FIX/valid/sample/net.pnml"

# ---- --all-dead: two processes taking two resources in opposite orders
# (a deadlock) beside two free choices: four dead markings, and others ----
cat > "$TMP/dl.net" <<'NET'
P r1 1
P r2 1
P a0 1
P a1 0
P a2 0
P b0 1
P b1 0
P b2 0
P c0 1
P c1 0
P c2 0
P d0 2
P d1 0
P d2 0
T a_take1 in:a0:1 in:r1:1 out:a1:1
T a_take2 in:a1:1 in:r2:1 out:a2:1
T a_free in:a2:1 out:a0:1 out:r1:1 out:r2:1
T b_take2 in:b0:1 in:r2:1 out:b1:1
T b_take1 in:b1:1 in:r1:1 out:b2:1
T b_free in:b2:1 out:b0:1 out:r1:1 out:r2:1
T c_left in:c0:1 out:c1:1
T c_right in:c0:1 out:c2:1
T d_left in:d0:1 out:d1:1
T d_right in:d0:1 out:d2:1
NET
pnml "$TMP/dl.net" > "$TMP/dl.pnml"
states=$(brute "$TMP/dl.net" 2> "$TMP/brute-dead")
sort "$TMP/brute-dead" > "$TMP/want-dead"
ndead=$(wc -l < "$TMP/want-dead")
[ "$ndead" -ge 6 ] && ok || bad "the brute force found $ndead dead markings"
expect 0 "$BIN/pn-reach" --all-dead "$TMP/dl.pnml"
has "$TMP/out" "states:      $states"
has "$TMP/out" "dead:        $ndead dead markings"
sed -n 's/^dead marking [0-9]*: //p' "$TMP/out" | sort > "$TMP/got-dead"
if cmp -s "$TMP/got-dead" "$TMP/want-dead"; then ok; else
    bad "--all-dead differs from the brute force: $(diff "$TMP/want-dead" "$TMP/got-dead" | tr '\n' ' ')"; fi
expect 0 "$BIN/pn-reach" --all-dead --format json "$TMP/dl.pnml"
n=$(grep -o '"dead_markings": \[.*\]' "$TMP/out" | grep -o '{[^}]*}' | wc -l)
[ "$n" -eq "$ndead" ] && ok || bad "json: $n dead markings, wanted $ndead"
has "$TMP/out" '{"a1": 1, "b1": 1, "c1": 1, "d1": 2}'

# ---- --graph: the counts are the search's; Graphviz draws the DOT ---------
# nodes NET.dot, edges NET.dot
nodes() { grep -c '^  s[0-9]* \[label=' "$1"; }
edges() { grep -c '^  s[0-9]* -> s[0-9]* ' "$1"; }
for sem in interleaving maximal; do
    expect 0 "$BIN/pn-reach" --semantics $sem --all-dead --graph "$TMP/dl.dot" "$TMP/dl.pnml"
    st=$(sed -n 's/^states: *//p' "$TMP/out")
    ed=$(sed -n 's/^edges: *//p' "$TMP/out")
    dd=$(sed -n 's/^dead: *\([0-9]*\) .*/\1/p' "$TMP/out")
    [ "$(nodes "$TMP/dl.dot")" = "$st" ] && ok || bad "$sem: $(nodes "$TMP/dl.dot") nodes drawn, $st states"
    [ "$(edges "$TMP/dl.dot")" = "$ed" ] && ok || bad "$sem: $(edges "$TMP/dl.dot") edges drawn, $ed edges"
    red=$(grep -c 'fillcolor="#f4a6a6"' "$TMP/dl.dot")
    [ "$red" = "$dd" ] && ok || bad "$sem: $red dead markings drawn, $dd dead"
    has "$TMP/dl.dot" 'peripheries=2'
    if [ $sem = interleaving ]; then
        grep -q 'fillcolor="#f4ecb0"' "$TMP/dl.dot" && ok || bad "dl.dot: no cycle drawn yellow"
    fi
    if command -v dot >/dev/null 2>&1; then
        if dot -Tsvg "$TMP/dl.dot" -o "$TMP/dl.svg" 2> "$TMP/dot-err" && [ ! -s "$TMP/dot-err" ]; then ok; else
            bad "$sem: dot does not take the graph: $(head -3 "$TMP/dot-err")"; fi
        has "$TMP/dl.svg" "<svg"
    fi
done
# maximal steps: an edge is labelled with a step
has "$TMP/dl.dot" 'label="a_take1+b_take2+c_left+d_left+d_right"'
expect 0 "$BIN/pn-reach" --graph "$TMP/dl.json" "$TMP/dl.pnml"
st=$(sed -n 's/^states: *//p' "$TMP/out")
n=$(grep -c '^  {"id": ' "$TMP/dl.json")
[ "$n" = "$st" ] && ok || bad "json: $n nodes, $st states"
has "$TMP/dl.json" '"edges": ['
has "$TMP/dl.json" '{"id": 0, "marking": {"r1": 1, "r2": 1, "a0": 1, "b0": 1, "c0": 1, "d0": 2}, "initial": true, "dead": false'
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; g = json.load(open(sys.argv[1])); assert len(g["edges"]) == int(sys.argv[2])' \
        "$TMP/dl.json" "$(sed -n 's/^edges: *//p' "$TMP/out")" && ok || bad "json: not JSON, or the edge count differs"
fi
# a ring's one cycle is terminal: blue
cat > "$TMP/ring3.net" <<'NET'
P q0 1
P q1 0
P q2 0
T u0 in:q0:1 out:q1:1
T u1 in:q1:1 out:q2:1
T u2 in:q2:1 out:q0:1
NET
pnml "$TMP/ring3.net" > "$TMP/ring3.pnml"
expect 0 "$BIN/pn-reach" --graph "$TMP/ring3.dot" "$TMP/ring3.pnml"
[ "$(grep -c 'fillcolor="#a6d0f4"' "$TMP/ring3.dot")" = 3 ] && ok || bad "ring3.dot: the terminal cycle is not blue"
grep -q 's2 -> s0 \[label="u2"\]' "$TMP/ring3.dot" && ok || bad "ring3.dot lacks s2 -> s0"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$TMP/ring3.dot" > /dev/null 2>&1 && ok || bad "dot does not take the ring's graph"
fi
# an unbounded net has no reachability graph: the coverability one
expect 4 "$BIN/pn-reach" --graph "$TMP/u.dot" "$DATA/producer-consumer.pnml"
has "$TMP/err" "not bounded (pn-reach --coverability writes its coverability graph)"
[ ! -e "$TMP/u.dot" ] && ok || bad "a graph written for an unbounded net"

# ---- the size guard: refused before anything is written, within limits --
expect 5 "$BIN/pn-reach" --graph-limit 50 --graph "$TMP/big.dot" "$TMP/dl.pnml"
has "$TMP/err" "the reachability graph has more than 50 markings: too large to write or draw; not written (--graph-limit N raises the limit)"
[ ! -e "$TMP/big.dot" ] && ok || bad "a graph over the limit was written"
[ ! -s "$TMP/out" ] && ok || bad "a report printed for a refused graph"
# a token walking round a ring of N places: N markings
ring() {
    awk -v n="$1" 'BEGIN {
    print "<pnml><net id=\"ring\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
    for (i = 0; i < n; i++) printf "<place id=\"p%d\"%s\n", i, i ? "/>" : "><initialMarking><text>1</text></initialMarking></place>"
    for (i = 0; i < n; i++) printf "<transition id=\"t%d\"/><arc id=\"a%d\" source=\"p%d\" target=\"t%d\"/><arc id=\"b%d\" source=\"t%d\" target=\"p%d\"/>\n", i, i, i, i, i, i, (i + 1) % n
    print "</page></net></pnml>"}'
}
ring 12000 > "$TMP/ring.pnml"
expect 5 "$BIN/pn-reach" --graph "$TMP/ring.dot" "$TMP/ring.pnml"
has "$TMP/err" "more than 10000 markings"
# hostile: 100000 places
ring 100000 > "$TMP/ring.pnml"
t0=$(date +%s)
expect 5 "$BIN/pn-reach" --graph-limit 1000 --graph "$TMP/ring.dot" "$TMP/ring.pnml"
has "$TMP/err" "the reachability graph has more than 1000 markings"
expect 5 "$BIN/pn-reach" --coverability --graph-limit 1000 --graph "$TMP/ring.dot" "$TMP/ring.pnml"
has "$TMP/err" "the coverability graph has more than"
t1=$(date +%s)
[ $((t1 - t0)) -lt 120 ] && ok || bad "the refusals took $((t1 - t0)) s"
[ ! -e "$TMP/ring.dot" ] && ok || bad "the ring's graph was written"

# ---- --coverability: the textbooks' unbounded nets ------------------------
expect 0 "$BIN/pn-reach" --coverability --graph "$TMP/pc.dot" "$DATA/producer-consumer.pnml"
has "$TMP/out" "bounded:     no; unbounded (ω): buffer"
has "$TMP/out" "bound:       ready_to_produce 1"
has "$TMP/out" "bound:       buffer ω (unbounded)"
has "$TMP/pc.dot" "buffer=ω"
expect 0 "$BIN/pn-reach" --coverability --all-dead --graph "$TMP/ct.dot" "$DATA/coverability-tree.pnml"
has "$TMP/out" "nodes:       4"
has "$TMP/out" "edges:       5"
has "$TMP/out" "bounded:     no; unbounded (ω): p2"
has "$TMP/out" "bound:       p3 1"
has "$TMP/out" "dead marking 1: p3=1"
for node in 's0 \[label="p1=1", peripheries=2\]' 's1 \[label="p1=1, p2=ω"' \
            's2 \[label="p3=1", fillcolor="#f4a6a6"\]' 's3 \[label="p2=ω, p3=1"'; do
    grep -q "$node" "$TMP/ct.dot" && ok || bad "coverability-tree.dot lacks $node"
done
for edge in 's0 -> s1 \[label="t1"\]' 's0 -> s2 \[label="t2"\]' 's1 -> s1 \[label="t1"\]' \
            's1 -> s3 \[label="t2"\]' 's3 -> s3 \[label="t3"\]'; do
    grep -q "$edge" "$TMP/ct.dot" && ok || bad "coverability-tree.dot lacks $edge"
done
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$TMP/ct.dot" > /dev/null 2>&1 && ok || bad "dot does not take the coverability graph"
fi
expect 0 "$BIN/pn-reach" --coverability --format json --graph "$TMP/rg.json" "$DATA/read-generator.pnml"
has "$TMP/out" '"bounded": false, "unbounded": ["queue"], "bounds": {"switch": 1, "queue": "ω", "stopped": 1}'
has "$TMP/rg.json" '"marking": {"switch": 1, "queue": "ω"}'
# a bounded net: its coverability graph is its reachability graph
expect 0 "$BIN/pn-reach" --graph "$TMP/r.dot" "$TMP/dl.pnml"
expect 0 "$BIN/pn-reach" --coverability --graph "$TMP/c.dot" "$TMP/dl.pnml"
has "$TMP/out" "bounded:     yes (the graph is the reachability graph)"
has "$TMP/out" "nodes:       $states"
sed 's/the coverability graph/the reachability graph/' "$TMP/c.dot" > "$TMP/c2.dot"
cmp -s "$TMP/r.dot" "$TMP/c2.dot" && ok || bad "a bounded net's coverability graph differs from its reachability graph"
# Karp and Miller's construction is not sound with inhibitor or reset arcs
expect 2 "$BIN/pn-reach" --coverability "$FIX/valid/greatspn-inhibitor/net.pnml"
has "$TMP/err" "inhibitor or reset arc or a capacity: Karp and Miller's construction is not sound there"
# the node limit: incomplete, exit status 4, no graph
expect 4 "$BIN/pn-reach" --coverability --max-states 3 --graph "$TMP/l.dot" "$TMP/dl.pnml"
has "$TMP/out" "search:      incomplete: the node limit was reached"
[ ! -e "$TMP/l.dot" ] && ok || bad "an incomplete coverability graph was written"

finish
