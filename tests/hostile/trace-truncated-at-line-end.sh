# a trace cut off at a line end, before its end record: reported as
# truncated, with the last step read; exit 1
want_exit=1
want_msg="truncated"
run() {
    "$BIN/pn-gen-gpu" --warps 2 -o g.pnml &&
    "$BIN/pn-run" --trace full.trace g.pnml > /dev/null || return 99
    sed '/^S 6 /,$d' full.trace > cut.trace
    "$BIN/pn-dot" --trace cut.trace --timeline g.pnml -o t.svg
}
check() { grep -q 'step 5' err || { echo "the last step is not named"; return 1; }; }
