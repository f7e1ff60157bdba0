#!/bin/sh
# Hostile inputs, outputs and command lines: one case per file in
# tests/hostile/, named after what it guards. Each case is a shell snippet
# sourced in a fresh scratch folder (the current directory) with $BIN (the
# programs), $CASES (tests/hostile) and $NET (a small valid net) set, and
# the helpers defined below (signal_when, tmp_exists, loop_net, is_root).
# It defines
#   want_exit   the documented exit code
#   want_msg    a fixed string the standard error must contain ('' = any)
#   run()       the command; may first write its input (large inputs are
#               generated here, never committed)
# and, optionally, check() for more assertions after the run (return 1 to
# fail; its standard error is shown). Every case also fails when the
# program dies of a signal or leaves a temporary file (*.tmp*) behind; a
# case whose program is meant to die of a signal (signal_when) keeps its
# status in a file and checks it in check().
. "${srcdir:-tests}/lib.sh"
CASES=$(cd "$srcdir/hostile" && pwd)
BIN=$(cd "$BIN" && pwd)
NET="$(cd "$srcdir" && pwd)/pnml/valid/sample/net.pnml"   # a small valid net
export BIN CASES NET

# Helpers for the cases.
# A suite started as a background job of a script (make check &) has
# SIGINT ignored, and a shell cannot undo that: env --default-signal
# (coreutils 8.31 on) gives the programs the default action back.
_dflt=
env --default-signal=INT true 2>/dev/null && _dflt="env --default-signal=INT"
# signal_when SIG COND CMD...: runs CMD in the foreground (a background job
# of a script starts with SIGINT ignored), sends it SIG as soon as the shell
# test COND holds (polled every 0.05 s, at most 30 s; $pid is CMD's process
# id in COND), and returns CMD's exit status (128 + SIG when it died of it).
signal_when() {
    _sig=$1 _cond=$2
    shift 2
    rm -f .pid .done
    (
        i=0
        until [ -e .done ] || { [ -s .pid ] && pid=$(cat .pid) &&
                                eval "$_cond"; }; do
            i=$((i + 1))
            [ "$i" -gt 600 ] && break
            sleep 0.05
        done
        [ -e .done ] || kill -"$_sig" "$(cat .pid)"
    ) &
    _killer=$!
    sh -c 'echo $$ >.pid; exec "$@"' sh $_dflt "$@"
    _st=$?
    : >.done
    wait "$_killer"
    rm -f .pid .done
    return "$_st"
}
# tmp_exists: a temporary output file is there (COND for signal_when)
tmp_exists() { ls -a | grep -q '\.tmp'; }
# loop_net FILE: a net that never ends (one token going round one
# transition): every run stops at --max-steps
loop_net() {
    cat >"$1" <<'EOF2'
<?xml version="1.0"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="loop" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="pg">
<place id="p"><initialMarking><text>1</text></initialMarking></place>
<transition id="t"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="p"/>
</page></net></pnml>
EOF2
}
# is_root: device nodes can be made (mknod); cases that need it pass
# without running elsewhere
is_root() { [ "$(id -u)" -eq 0 ]; }
for c in "$CASES"/*.sh; do
    name=$(basename "$c" .sh)
    w="$TMP/$name"
    mkdir -p "$w"
    (
        cd "$w" || exit 99
        want_msg=''
        check() { return 0; }
        . "$c"
        run >out 2>err
        got=$?
        if [ "$got" -ge 128 ]; then echo "killed by signal $((got - 128))"; exit 1; fi
        if [ "$got" -ne "$want_exit" ]; then echo "exit $got, wanted $want_exit"; exit 1; fi
        if [ -n "$want_msg" ] && ! grep -qF -- "$want_msg" err; then
            echo "stderr lacks '$want_msg'"; exit 1; fi
        left=$(find . -name '*.tmp*' | head -3)
        if [ -n "$left" ]; then echo "temporary files left: $left"; exit 1; fi
        check || exit 1
    ) >"$TMP/$name.why" 2>&1
    if [ $? -eq 0 ]; then ok; else
        bad "hostile/$name: $(head -1 "$TMP/$name.why")"
        sed -n '2,$p' "$TMP/$name.why" | head -10 >&2
        sed 's/^/  | /' "$w/err" 2>/dev/null | head -10 >&2
    fi
    rm -rf "$w"
done
finish
