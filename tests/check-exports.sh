#!/bin/sh
# Only pn_ names leave libpn.so.
. "${srcdir:-tests}/lib.sh"
so=$(ls "$top_builddir"/lib/.libs/libpn.so.* 2>/dev/null | head -1)
if [ -z "$so" ]; then echo "no shared library built: skipped"; exit 77; fi
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' > "$TMP/syms"
[ -s "$TMP/syms" ] && ok || bad "no symbols read from $so"
grep -v '^pn_' "$TMP/syms" > "$TMP/bad"
if [ -s "$TMP/bad" ]; then bad "exported without pn_: $(tr '\n' ' ' < "$TMP/bad")"; else ok; fi
grep -qx pn_pnml_read_file "$TMP/syms" && ok || bad "pn_pnml_read_file not exported"
finish
