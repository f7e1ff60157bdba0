# a trace cut off in the middle of a line (a copy that stopped, a full
# disk): reported as truncated, not as a trace of another net; exit 1
want_exit=1
want_msg="truncated"
run() {
    "$BIN/pn-gen-gpu" --warps 2 -o g.pnml &&
    "$BIN/pn-run" --trace full.trace g.pnml > /dev/null || return 99
    # cut inside the last id of step 5
    awk '/^S 5 /{printf "%s", substr($0, 1, length($0) - 1); exit} {print}' \
        full.trace > cut.trace
    "$BIN/pn-dot" --trace cut.trace --timeline g.pnml -o t.svg
}
check() { ! grep -q 'another net' err || { echo "says another net"; return 1; }; }
