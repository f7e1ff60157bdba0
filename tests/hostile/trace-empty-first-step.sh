# a trace whose first step is empty ("S 1" and nothing fired): read and
# drawn (the reader added an offset to a trace with no fired array yet,
# undefined behaviour; found by the trace fuzzer)
want_exit=0
run() {
    "$BIN/pn-gen-gpu" --warps 1 --quiet -o g.pnml || return 99
    printf '# pn-run trace 2\n# net wpnm\n# seed 1\n# semantics maximal\nS 1\nE limit 1\n' > e.trace
    "$BIN/pn-dot" -f svg --trace e.trace -o e.svg g.pnml
}
check() { grep -q '<svg' e.svg || { echo "no picture"; return 1; }; }
