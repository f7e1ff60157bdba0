#!/bin/sh
# pn-solve on the Kanban GSPN (tests/gspn/kanban.xml with N kanban cards
# a cell): tangible states, Gauss-Seidel sweeps, the relative residual and
# the CPU time (user + system, one thread), N = 3, 4, 5 by default.  The
# throughput and each cell's tokens (N - pkan_i) are compared with those
# of REFERENCE (bench/kanban-reference.c: the chain built apart, from
# PRISM's module text), and at N = 4 with the values PRISM computed for
# prism-examples/kanban/kanban.sm with t = 4, as ePMC's tests
# (iscas-tis/ePMC) record them to 2e-7.
# Usage: solve.sh PN-SOLVE KANBAN.XML REFERENCE [N...]
solve=$1 net=$2 ref=$3
shift 3
[ $# -gt 0 ] || set -- 3 4 5
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for n in "$@"; do
    sed "s|<initialMarking><value>1</value>|<initialMarking><value>$n</value>|" \
        "$net" > "$tmp/k.xml"
    # the children's CPU time: the second line of the subshell's `times`
    cpu=$( ( "$solve" -q --direct-max 1 "$tmp/k.xml" > "$tmp/out" 2> "$tmp/err"
             echo "rc=$?" > "$tmp/rc"; times ) | awk 'NR == 2 {
        split($1, u, /[ms]/); split($2, s, /[ms]/)
        printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
    if ! grep -q "rc=0" "$tmp/rc"; then
        echo "  N = $n: pn-solve failed: $(cat "$tmp/err")"
        continue
    fi
    "$ref" $n > "$tmp/ref" || continue
    awk -v n=$n -v cpu=$cpu -v reffile="$tmp/ref" '
        BEGIN { while ((getline line < reffile) > 0) {
            split(line, f, " "); ref[f[1]] = f[2] } }
        /^states:/ { st = $2 }
        /^solver:/ { sw = $3; sub(/,/, "", $5); rel = $8; sub(/\)/, "", rel) }
        $1 == "tin1" && NF == 2 { thr = $2 }
        $1 ~ /^pkan[1-4]$/ && NF == 2 { kan[substr($1, 5)] = $2 }
        END {
            printf "  N = %d: %d tangible states, %s sweeps, relative residual %s, %s s CPU; throughput %.10g\n", n, st, sw, rel, cpu, thr
            printf "    kanban-reference: %d states, throughput %.15g (%.2g apart)", ref["states"], ref["throughput"], thr - ref["throughput"]
            for (c = 1; c <= 4; c++)
                printf "%s cell %d %.2g", c == 1 ? "; tokens apart:" : ",", c, 4 - kan[c] - ref["cell" c] + (n - 4)
            printf "\n"
            if (n == 4) {
                split("3.6464073760255790 2.5129835893535350 2.5129835893535350 1.5032531696976295", pub, " ")
                printf "    PRISM (ePMC tests, to 2e-7): throughput 0.2758897217959078 (%.2g apart)", thr - 0.2758897217959078
                for (c = 1; c <= 4; c++)
                    printf "%s cell %d %.2g", c == 1 ? "; tokens apart:" : ",", c, 4 - kan[c] - pub[c]
                printf "\n"
            }
        }' "$tmp/out"
done
