# a NUL byte in a --workload line: named as such (not "line longer than
# 1023 bytes"), the line given; exit 1 (invalid workload)
want_exit=1
want_msg='w.bin:2: a NUL byte'
run() {
    printf '0,1,2,3\n1,1,\000,3\n' > w.bin
    "$BIN/pn-gen-gpu" --workload w.bin
}
check() {
    if LC_ALL=C tr -d '\n' < err | LC_ALL=C grep -q '[^ -~]'; then
        echo "raw bytes in the message" >&2; return 1; fi
}
