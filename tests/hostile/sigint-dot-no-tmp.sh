# SIGINT while pn-dot -o lays out a net (the output is opened first): the
# temporary file is removed, status 130
want_exit=0
run() {
    "$BIN/pn-gen-gpu" -q --warps 16 -o gpu.pnml || return 99
    signal_when INT tmp_exists "$BIN/pn-dot" -o out.svg gpu.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 130 ] || { echo "status $(cat status), wanted 130"; return 1; }
    [ ! -e out.svg ] || { echo "a partial picture was left"; return 1; }
}
