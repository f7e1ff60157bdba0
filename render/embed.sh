#!/bin/sh
# Writes the page's style and script (render/viewer.css, render/viewer.js)
# as C strings to standard output: the header viewer.h that render/html.c
# includes, made by the build in the build folder (render/local.mk).
#   sh render/embed.sh [DIR] > render/viewer.h    (DIR: render/, the default)
set -eu
dir=${1:-$(dirname "$0")}
lines() {
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n",/' "$1"
}
echo '/* Made from render/viewer.css and render/viewer.js by render/embed.sh'
echo ' * (edit those): the style and the script of the page of html.c. */'
echo 'static const char *const viewer_css[] = {'
lines "$dir/viewer.css"
echo '    NULL};'
echo 'static const char *const viewer_js[] = {'
lines "$dir/viewer.js"
echo '    NULL};'
