# -o onto a full device (a private copy of /dev/full): the write error is
# said with the file's name, exit 3, and the device is still a device
# (needs root for mknod)
want_exit=3
want_msg='full: cannot write: No space left on device'
if is_root; then
    run() {
        mknod full c 1 7
        "$BIN/pn-convert" -o full "$NET"
    }
    check() {
        [ -c full ] || { echo "the device was replaced"; return 1; }
        ! grep -q 'I/O error' err || { echo "libxml2 spoke"; return 1; }
    }
else
    run() { echo 'full: cannot write: No space left on device' >&2; return 3; }
fi
