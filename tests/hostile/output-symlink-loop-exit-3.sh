# -o onto a loop of symbolic links: said, exit 3, the links untouched
want_exit=3
want_msg='a: cannot write: Too many levels of symbolic links'
run() {
    ln -s b a
    ln -s a b
    "$BIN/pn-convert" -o a "$NET"
}
check() { [ -L a ] && [ -L b ]; }
