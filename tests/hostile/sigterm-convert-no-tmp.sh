# SIGTERM while pn-convert -o writes a large net: the temporary file is
# removed, the old output stays as it was, status 143
want_exit=0
run() {
    "$BIN/pn-gen-gpu" -q --warps 1000 -o big.pnml || return 99
    echo old >out.pnml
    signal_when TERM tmp_exists "$BIN/pn-convert" -o out.pnml big.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 143 ] || { echo "status $(cat status), wanted 143"; return 1; }
    [ "$(cat out.pnml)" = old ] || { echo "the old output was changed"; return 1; }
}
