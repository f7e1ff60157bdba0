# -o onto a device (a private copy of /dev/null) writes the device: it is
# not replaced by a regular file (needs root for mknod)
want_exit=0
if is_root; then
    run() {
        mknod null c 1 3
        "$BIN/pn-dot" -f dot -o null "$NET"
    }
    check() { [ -c null ] || { echo "the device was replaced"; return 1; }; }
else
    run() { :; }
fi
