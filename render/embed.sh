#!/bin/sh
# Writes the page's style and script (render/viewer.css, render/viewer.js)
# into render/html.c as C strings, between its BEGIN and END viewer lines;
# run it after editing either (tests/cli-html.sh checks they agree).
#   sh render/embed.sh [DIR]     (DIR: render/, the default)
set -eu
dir=${1:-$(dirname "$0")}
lines() {
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n",/' "$1"
}
{
    sed -n '1,/^\/\* BEGIN viewer/p' "$dir/html.c"
    echo 'static const char *const viewer_css[] = {'
    lines "$dir/viewer.css"
    echo '    NULL};'
    echo 'static const char *const viewer_js[] = {'
    lines "$dir/viewer.js"
    echo '    NULL};'
    sed -n '/^\/\* END viewer/,$p' "$dir/html.c"
} > "$dir/html.c.new"
mv "$dir/html.c.new" "$dir/html.c"
