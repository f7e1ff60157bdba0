# -o onto a symbolic link to a file that does not exist yet creates that
# file (as the shell's > does); the link stays
want_exit=0
run() {
    ln -s new.pnml out.pnml
    "$BIN/pn-convert" -o out.pnml "$NET"
}
check() {
    [ -L out.pnml ] || { echo "the link was replaced"; return 1; }
    grep -q '<pnml' new.pnml || { echo "the target was not written"; return 1; }
}
