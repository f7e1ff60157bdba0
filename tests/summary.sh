#!/bin/sh
# Prints one closing line for a finished `make check`: the individual
# checks of every Check program and command-line script, added up.
#   sh tests/summary.sh [BUILD_DIR]
dir=${1:-.}
cat "$dir"/tests/*.log 2>/dev/null | awk '
    /Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
        match($0, /Checks: [0-9]+/); c = substr($0, RSTART + 8, RLENGTH - 8)
        match($0, /Failures: [0-9]+/); f = substr($0, RSTART + 10, RLENGTH - 10)
        match($0, /Errors: [0-9]+/); e = substr($0, RSTART + 8, RLENGTH - 8)
        pass += c - f - e; fail += f + e }
    /^[0-9]+ passed, [0-9]+ failed$/ { pass += $1; fail += $3 }
    END { printf "tests: %d passed, %d failed\n", pass, fail }'
