# pn-run --trace onto a full device: said with the file's name, exit 3
# (needs root for mknod)
want_exit=3
want_msg='full: cannot write: No space left on device'
if is_root; then
    run() {
        mknod full c 1 7
        "$BIN/pn-run" --trace full "$NET"
    }
    check() { [ -c full ] || { echo "the device was replaced"; return 1; }; }
else
    run() { echo 'full: cannot write: No space left on device' >&2; return 3; }
fi
