# -o onto an existing file whose folder takes no new file (/proc/version:
# the replacement is written beside it first): exit 3, and the message
# says that no temporary file could be made there, not only the errno
want_exit=3
want_msg='/proc/version: cannot write: no temporary file can be made beside it'
if [ -f /proc/version ]; then
    run() { "$BIN/pn-convert" -o /proc/version "$NET"; }
else
    run() { echo "$want_msg" >&2; return 3; }
fi
