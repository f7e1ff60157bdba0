# pn-run --snapshot 0: a number, but not one allowed; said so (with the
# range), exit 2
want_exit=2
want_msg="--snapshot: '0' is not a whole number from 1 to"
run() {
    "$BIN/pn-gen-gpu" --warps 1 -o g.pnml || return 99
    "$BIN/pn-run" --trace t.trace --snapshot 0 g.pnml
}
check() { [ ! -e t.trace ] || { echo "a trace was written"; return 1; }; }
