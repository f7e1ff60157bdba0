# words after the end record are refused, not ignored (found by the trace
# fuzzer: "E dead 169 more words" read as a whole trace)
want_exit=1
want_msg="'more' after the end record (E END STEPS) [PN_ETRACE]"
run() {
    "$BIN/pn-gen-gpu" --warps 1 --quiet -o g.pnml || return 99
    "$BIN/pn-run" --seed 1 --trace t.trace g.pnml > /dev/null || return 99
    sed '$s/$/ more words/' t.trace > bad.trace
    "$BIN/pn-dot" -f svg --trace bad.trace -o out.svg g.pnml
}
