# pn-maxplus's estimate onto a full standard output (/dev/full): said, exit 3, not 0 with
# the output lost
want_exit=3
want_msg='standard output: cannot write: No space left on device'
if [ -c /dev/full ]; then
    run() { "$BIN/pn-maxplus" "$CASES/../../share/examples/vector-add.dot" --set t=1,T=2,tau=3 >/dev/full; }
else
    run() { echo "$want_msg" >&2; return 3; }
fi
