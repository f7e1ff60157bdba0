# -o onto a chain of symbolic links writes the final target (atomically,
# beside it) and leaves the links as they were
want_exit=0
run() {
    mkdir real links
    echo old >real/net.pnml
    ln -s ../real/net.pnml links/first
    ln -s links/first out.pnml
    "$BIN/pn-convert" -o out.pnml "$NET"
}
check() {
    [ -L out.pnml ] && [ "$(readlink out.pnml)" = links/first ] &&
        [ -L links/first ] || { echo "a link was replaced"; return 1; }
    [ -f real/net.pnml ] && [ ! -L real/net.pnml ] &&
        grep -q '<pnml' real/net.pnml || { echo "the target was not written"; return 1; }
}
