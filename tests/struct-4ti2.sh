#!/bin/sh
# pn-struct's minimal P- and T-semiflows against 4ti2's (Debian's 4ti2:
# 4ti2-rays gives the extreme rays of {x >= 0 : A x = 0}, which are the
# minimal-support semiflows, each primitive): the incidence matrix is
# built from the net's canonical dump (pn-info --dump), and both sets,
# written as sorted "id=coefficient" lines, must be equal.  Skipped (77)
# without 4ti2.
#   STRUCT_ALL=1   every net of the MCC oracle folder and of the corpus
#                  (PN_CORPUS) that pn-info reads, of 2,000 nodes at most
#                  (make check-mcc); otherwise the small nets of
#                  tests/struct and tests/pnml and a few small MCC models
#   STRUCT_TIMEOUT=S  seconds 4ti2 gets per net (default 20): a net it
#                  does not finish in is left out
# Only each instance's model.pnml is copied, into a scratch folder: the
# oracle's answer files are never read.
. "${srcdir:-tests}/lib.sh"
RAYS=$(command -v 4ti2-rays || command -v rays || true)
if [ -z "$RAYS" ]; then echo "no 4ti2 (4ti2-rays): skipped"; exit 77; fi
ORACLE="${MCC_ORACLE:-}"
[ -n "$ORACLE" ] || ORACLE="${PN_CORPUS:+$PN_CORPUS/../mcc-oracle}"
limit="${STRUCT_TIMEOUT:-20}"

# matrix KIND DUMP OUT: the 4ti2 matrix of the net (P: the transposed
# incidence matrix, one row a transition; T: the incidence matrix), and
# OUT.ids the ids of its columns
matrix() {
    awk -v kind="$1" -v ids="$3.ids" '
        # the id, between the quotes of id="..." (it may hold blanks)
        function id() { match($0, /id="[^"]*"/); return substr($0, RSTART + 4, RLENGTH - 5) }
        $1 == "place" { np++; pid[substr($2, 2)] = id() }
        $1 == "transition" { nt++; tid[substr($2, 2)] = id() }
        $1 == "arc" {
            for (k = 1; k <= NF && $k != "->"; k++) ;
            if ($(k + 2) != "normal") next
            w = substr($(k + 3), 8); from = $(k - 1); to = $(k + 1)
            if (from ~ /^p/) { p = substr(from, 2); t = substr(to, 2); c[p, t] -= w }
            else { t = substr(from, 2); p = substr(to, 2); c[p, t] += w } }
        END {
            if (kind == "P") {
                print nt, np
                for (t = 0; t < nt; t++) { s = ""
                    for (p = 0; p < np; p++) s = s " " (c[p, t] + 0)
                    print s }
                for (p = 0; p < np; p++) print pid[p] > ids
            } else {
                print np, nt
                for (p = 0; p < np; p++) { s = ""
                    for (t = 0; t < nt; t++) s = s " " (c[p, t] + 0)
                    print s }
                for (t = 0; t < nt; t++) print tid[t] > ids
            } }' "$2" > "$3.mat"
}

# canon: "id=coef;id=coef" lines (each sorted), sorted
canon() { while read -r line; do echo "$line" | tr ';' '\n' | grep . | sort | tr '\n' ';'; echo; done | sort; }

# rays4ti2 KIND DUMP: 4ti2's minimal semiflows as canonical lines, into
# $TMP/want; fails when 4ti2 does not finish
rays4ti2() {
    matrix "$1" "$2" "$TMP/m"
    rm -f "$TMP/m.ray"
    timeout "$limit" "$RAYS" -q "$TMP/m" > /dev/null 2>&1 || return 1
    [ -f "$TMP/m.ray" ] || return 1
    awk 'NR == FNR { id[FNR] = $0; next }
         FNR > 1 { s = ""; for (k = 1; k <= NF; k++) if ($k != 0) s = s ";" id[k] "=" $k
                   print s }' "$TMP/m.ids" "$TMP/m.ray" | canon > "$TMP/want"
}

# ours KIND JSON: pn-struct's, from its JSON, into $TMP/got
ours() {
    if [ "$1" = P ]; then sel='s/.*"p_semiflows": //; s/"t_semiflows".*//'
    else sel='s/.*"t_semiflows": //; s/"siphons".*//'; fi
    sed "$sel" "$2" | grep -o '"weights": {[^}]*}' |
        sed 's/"weights": {//; s/}//; s/"//g; s/: /=/g; s/, /;/g' | canon > "$TMP/got"
}

checked=0
# compare NAME FILE
compare() {
    "$BIN/pn-info" --dump "$2" > "$TMP/dump" 2>/dev/null || { bad "$1: pn-info --dump failed"; return; }
    start=$(date +%s.%N)
    "$BIN/pn-struct" -q --all -f json "$2" > "$TMP/json" 2>"$TMP/err"
    rc=$?
    secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
    for kind in P T; do
        if ! rays4ti2 "$kind" "$TMP/dump"; then
            echo "$1 $kind: no answer from 4ti2 in ${limit}s: left out"
            continue
        fi
        sel=p_semiflows; [ "$kind" = T ] && sel=t_semiflows
        # "more than N" is right when 4ti2 has more than N: then again with
        # a --max above 4ti2's count, to compare the sets
        json="$TMP/json"
        want=$(wc -l < "$TMP/want")
        lim=$(sed -n "s/.*\"$sel\": {\"end\": \"max\", \"limit\": \([0-9]*\).*/\1/p" "$TMP/json")
        if [ -n "$lim" ] && [ "$want" -gt "$lim" ]; then
            echo "$1 $kind: more than $lim, 4ti2 has $want: again with --max $((want + 1))"
            "$BIN/pn-struct" -q --all --max $((want + 1)) -f json "$2" > "$TMP/json2" 2>/dev/null
            json="$TMP/json2"
        fi
        if ! grep -q "\"$sel\": {\"end\": \"complete\"" "$json"; then
            bad "$1 $kind: 4ti2 finished, pn-struct stopped (exit $rc, $(sed "s/.*\"$sel\": {\"end\": \"\([a-z]*\)\".*/\1/" "$json"))"
            continue
        fi
        ours "$kind" "$json"
        if cmp -s "$TMP/want" "$TMP/got"; then ok; checked=$((checked + 1)); else
            bad "$1 $kind: pn-struct's minimal semiflows differ from 4ti2's ($(wc -l < "$TMP/got") against $(wc -l < "$TMP/want"))"
            diff "$TMP/want" "$TMP/got" | head -6 | sed 's/^/  | /' >&2
        fi
    done
    echo "$1: P and T semiflows $(grep -o '"count": [0-9]*' "$TMP/json" | head -2 | tr -dc '0-9\n' | tr '\n' ' ')in ${secs}s"
}

for f in "$srcdir"/struct/*.pnml "$srcdir"/pnml/valid/*/net.pnml; do
    [ -f "$f" ] || continue
    name=${f#$srcdir/}
    compare "$name" "$f"
done
if [ -n "$ORACLE" ] && [ -d "$ORACLE" ]; then
    if [ "${STRUCT_ALL:-0}" = 1 ]; then models=$(ls "$ORACLE")
    else models="ResAllocation-PT-R003C002 Philosophers-PT-000005 Kanban-PT-00005 Dekker-PT-010 DNAwalker-PT-01track12Block1"; fi
    for m in $models; do
        [ -f "$ORACLE/$m/model.pnml" ] || continue
        mkdir -p "$TMP/mcc/$m"
        cp "$ORACLE/$m/model.pnml" "$TMP/mcc/$m/model.pnml"
        compare "$m" "$TMP/mcc/$m/model.pnml"
    done
fi
# the corpus's nets (make check-mcc): those pn-info reads, of 2,000 nodes
# at most (4ti2's matrix is dense)
if [ "${STRUCT_ALL:-0}" = 1 ] && [ -n "${PN_CORPUS:-}" ] && [ -d "$PN_CORPUS" ]; then
    for f in $(find "$PN_CORPUS" -name '*.pnml' | sort); do
        name=corpus/${f#$PN_CORPUS/}
        if ! "$BIN/pn-info" -q "$f" > "$TMP/info" 2>/dev/null; then
            echo "$name: not read by pn-info: left out"; continue
        fi
        nodes=$(awk '$1 == "places:" || $1 == "transitions:" { n += $2 } END { print n + 0 }' "$TMP/info")
        if [ "$nodes" -gt 2000 ]; then
            echo "$name: $nodes nodes: left out"; continue
        fi
        compare "$name" "$f"
    done
fi
echo "$checked sets of minimal semiflows equal to 4ti2's"
finish
