# a byte that is invalid in the declared encoding: refused with our
# message (libxml2 printed its own lines to standard error and the net was
# accepted; found by the PNML fuzzer)
want_exit=1
want_msg="malformed XML: input conversion failed"
run() { "$BIN/pn-info" "$CASES/../fuzz/regressions/encoding-error-accepted.pnml"; }
check() {
    if grep -q "^encoding error\|I/O error" err; then
        echo "libxml2's own lines reached standard error:"; cat err; return 1
    fi
}
