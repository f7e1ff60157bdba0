# more warps than the documented maximum (16384), from --warps or from a
# launch: refused before anything is built (1,000,000 warps took 4.6 GB
# and 30 s after only a warning): exit 2, nothing written
want_exit=2
want_msg='1000000 warps: at most 16384'
run() {
    "$BIN/pn-gen-gpu" --threads-per-block 1024 --blocks 513 --sms 1 \
        -o launch.pnml 2>launch.err
    [ $? -eq 2 ] && grep -q '16416 warps: at most 16384' launch.err || {
        echo "launch: not refused" >&2; cat launch.err >&2; return 9; }
    "$BIN/pn-gen-gpu" --warps 1000000 -o net.pnml
}
check() {
    if [ -e net.pnml ] || [ -e launch.pnml ]; then
        echo "an output was written" >&2; return 1; fi
}
