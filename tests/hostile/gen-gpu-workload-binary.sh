# a binary --workload file: the message quotes the line safely (bytes
# outside printable ASCII as \xHH, long text cut) and never echoes raw
# control bytes or NULs; exit 1 (invalid workload), the file and line named
want_exit=1
want_msg='w.bin:2: '
run() {
    { printf '0,1,2,3\n'
      printf '\033[31m\001\377'
      awk 'BEGIN { for (i = 0; i < 300; i++) printf "x"; printf "\n" }'
      printf '0,1,\000,3\n'; } > w.bin
    "$BIN/pn-gen-gpu" --workload w.bin
}
check() {
    # the only control byte allowed on standard error is the newline
    if LC_ALL=C tr -d '\n' < err | LC_ALL=C grep -q '[^ -~]'; then
        echo "raw bytes in the message" >&2; return 1; fi
    grep -qF '\x1b[31m\x01\xff' err || { echo "bytes not shown as \\xHH" >&2; return 1; }
    [ "$(wc -c < err)" -lt 400 ] || { echo "long text not cut" >&2; return 1; }
}
