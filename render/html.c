/*
 * A run in a browser: one self-contained HTML page (pn_dot_html()) with
 * the net's SVG, a step slider, play and pause, the marking of every
 * place, the transitions fired in the step highlighted, and the timeline
 * with a cursor on the step.  Nothing is fetched: the style, the script
 * and the run's data are in the page.
 *
 * The run's data is compact: per step the transitions fired (sorted, as
 * gaps) and the places whose tokens changed with their new counts, as
 * unsigned LEB128 numbers in base64.  The script decodes it once, keeps
 * the full marking every K steps (so that a seek replays fewer than K
 * steps), and on a move changes only the nodes and cells that differ.
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dot.h"
#include "engine.h"
#include "lib_private.h"

#define hfail(err, code, ...) pni_error(err, code, 0, 0, __VA_ARGS__)

/* ---- text into a growing string (pni_sb_t) ------------------------------- */

static void put_u64(pni_sb_t *b, uint64_t v)
{
    char num[24];
    pni_sb_put(b, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, v));
}

/* An unsigned LEB128 number: 7 bits a byte, low first. */
static void put_uv(pni_sb_t *b, uint64_t v)
{
    char c[10];
    size_t n = 0;
    do {
        c[n] = (char)(v & 127);
        v >>= 7;
        if (v)
            c[n] |= (char)128;
        n++;
    } while (v);
    pni_sb_put(b, c, n);
}

/* Text as HTML (element content and quoted attribute values). */
static void put_html(pni_sb_t *b, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': pni_sb_puts(b, "&lt;"); break;
        case '>': pni_sb_puts(b, "&gt;"); break;
        case '&': pni_sb_puts(b, "&amp;"); break;
        case '"': pni_sb_puts(b, "&quot;"); break;
        default: pni_sb_put(b, s, 1);
        }
}

/* Text as a JSON string, safe inside a <script> element: no '<', '>' or
 * '&' is written as itself.  NULL: "". */
static void put_script_string(pni_sb_t *b, const char *s)
{
    pni_sb_json(b, s ? s : "", PNI_JSON_SCRIPT);
}

/* A number of a JSON array: -1 for none. */
static void put_index(pni_sb_t *b, size_t i, size_t n)
{
    if (i < n)
        put_u64(b, i);
    else
        pni_sb_puts(b, "-1");
}

static void put_base64(pni_sb_t *b, const unsigned char *d, size_t n)
{
    static const char a[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[80];
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)d[i + 1] << 8;
        if (i + 2 < n)
            v |= d[i + 2];
        out[k++] = a[v >> 18];
        out[k++] = a[(v >> 12) & 63];
        out[k++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
        out[k++] = i + 2 < n ? a[v & 63] : '=';
        /* lines of 76 characters */
        if (k == 76 || i + 3 >= n) {
            out[k++] = '\n';
            pni_sb_put(b, out, k);
            k = 0;
        }
    }
}

/* ---- the page's style and script ------------------------------------------ */

/* the style and the script: render/viewer.css and render/viewer.js, made
 * C strings by render/embed.sh (edit those, then run it) */
/* BEGIN viewer */
static const char *const viewer_css[] = {
    "body { font: 14px sans-serif; margin: 0; color: #222; }\n",
    "#pnv-bar { position: sticky; top: 0; z-index: 2; background: #f4f4f4;\n",
    "  border-bottom: 1px solid #ccc; padding: 6px 10px; display: flex;\n",
    "  flex-wrap: wrap; gap: 8px; align-items: center; }\n",
    "#pnv-bar h1 { font-size: 15px; margin: 0 12px 0 0; }\n",
    "#pnv-slider { flex: 1; min-width: 200px; }\n",
    "#pnv-step { font-variant-numeric: tabular-nums; min-width: 11em; }\n",
    "#pnv-error { background: #fdd; padding: 8px; margin: 0; }\n",
    "#pnv-main { display: flex; gap: 8px; padding: 8px; }\n",
    "/* contained: a change inside is laid out inside */\n",
    "#pnv-net { flex: 3; overflow: auto; height: 70vh; border: 1px solid #ddd;\n",
    "  contain: strict; }\n",
    "#pnv-side { flex: 1; min-width: 18em; height: 70vh; overflow: auto;\n",
    "  contain: strict; }\n",
    "#pnv-fired { font-family: monospace; word-break: break-all; }\n",
    "#pnv-marking { font-size: 12px; }\n",
    "#pnv-marking .row { display: grid; grid-template-columns: 30% 1fr 20%;\n",
    "  border-bottom: 1px solid #eee; content-visibility: auto;\n",
    "  contain-intrinsic-size: auto 17px; }\n",
    "#pnv-marking .head { position: sticky; top: 0; background: #eee;\n",
    "  font-weight: bold; content-visibility: visible; z-index: 1; }\n",
    "#pnv-marking .row span { padding: 1px 6px; overflow: hidden;\n",
    "  text-overflow: ellipsis; white-space: nowrap; }\n",
    "#pnv-marking .tok { text-align: right; font-variant-numeric: tabular-nums; }\n",
    "#pnv-marking .row.marked { background: #fff3c4; }\n",
    "#pnv-tlbox { padding: 0 8px; }\n",
    "#pnv-tlwrap { position: relative; }\n",
    "#pnv-timeline { cursor: pointer; display: block; }\n",
    "#pnv-cursor { position: absolute; left: 0; border: 2px solid #d62728;\n",
    "  pointer-events: none; will-change: transform; }\n",
    ".swatch { display: inline-block; width: 10px; height: 10px; }\n",
    "#pnv-timing { color: #666; font-size: 12px; padding: 4px 8px; }\n",
    "svg text.tok { font: bold 11px sans-serif; fill: #1f3a93; stroke: #fff;\n",
    "  stroke-width: 3px; paint-order: stroke; }\n",
    "g.node.marked ellipse { fill: #fff3c4; }\n",
    "g.node.changed ellipse { stroke: #1f77b4; stroke-width: 3px; }\n",
    "g.node.fired polygon, g.node.fired path { fill: #e4572e; stroke: #e4572e;\n",
    "  stroke-width: 3px; }\n",
    NULL};
static const char *const viewer_js[] = {
    "(function () {\n",
    "'use strict';\n",
    "var t0 = performance.now();\n",
    "function $(id) { return document.getElementById('pnv-' + id); }\n",
    "function fail(msg) {\n",
    "  var e = $('error');\n",
    "  e.textContent = 'This page cannot show the run: ' + msg;\n",
    "  e.hidden = false;\n",
    "  throw new Error(msg);\n",
    "}\n",
    "var meta = JSON.parse($('meta').textContent);\n",
    "var raw = atob($('data').textContent.replace(/\\s+/g, ''));\n",
    "var bytes = new Uint8Array(raw.length);\n",
    "for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);\n",
    "var pos = 0;\n",
    "/* an unsigned LEB128 number (exact up to 2^53) */\n",
    "function uv() {\n",
    "  var v = 0, mul = 1, b;\n",
    "  do {\n",
    "    if (pos >= bytes.length) fail('its data ends early');\n",
    "    b = bytes[pos++];\n",
    "    v += (b & 127) * mul;\n",
    "    mul *= 128;\n",
    "  } while (b & 128);\n",
    "  return v;\n",
    "}\n",
    "var np = uv(), nt = uv(), N = uv();\n",
    "if (np !== meta.places.length || nt !== meta.transitions.length ||\n",
    "    N !== meta.steps)\n",
    "  fail('its data is not of its net');\n",
    "var init = new Float64Array(np);\n",
    "for (i = 0; i < np; i++) init[i] = uv();\n",
    "/* per step s: fired[fOff[s] .. fOff[s + 1]), and the places whose tokens\n",
    " * changed with their new counts, dP/dV[dOff[s] .. dOff[s + 1]) */\n",
    "var fOff = new Uint32Array(N + 2), dOff = new Uint32Array(N + 2);\n",
    "var fl = [], pl = [], vl = [];\n",
    "for (var s = 1; s <= N; s++) {\n",
    "  var n = uv(), prev = 0, j;\n",
    "  fOff[s] = fl.length;\n",
    "  for (j = 0; j < n; j++) {\n",
    "    prev += uv();\n",
    "    if (prev >= nt) fail('a transition out of range in step ' + s);\n",
    "    fl.push(prev);\n",
    "  }\n",
    "  n = uv();\n",
    "  prev = -1;\n",
    "  dOff[s] = pl.length;\n",
    "  for (j = 0; j < n; j++) {\n",
    "    prev += uv() + 1;\n",
    "    if (prev >= np) fail('a place out of range in step ' + s);\n",
    "    pl.push(prev);\n",
    "    vl.push(uv());\n",
    "  }\n",
    "}\n",
    "fOff[N + 1] = fl.length;\n",
    "dOff[N + 1] = pl.length;\n",
    "if (pos !== bytes.length) fail('its data is longer than its run');\n",
    "var fired = Uint32Array.from(fl), dP = Uint32Array.from(pl),\n",
    "    dV = Float64Array.from(vl);\n",
    "fl = pl = vl = null;\n",
    "\n",
    "function apply(m, s) {\n",
    "  for (var j = dOff[s], e = dOff[s + 1]; j < e; j++) m[dP[j]] = dV[j];\n",
    "}\n",
    "/* the full marking every K steps: a seek replays at most K - 1 steps */\n",
    "var K = meta.keyframe, kf = [init.slice()], m = init.slice();\n",
    "for (s = 1; s <= N; s++) {\n",
    "  apply(m, s);\n",
    "  if (s % K === 0) kf.push(m.slice());\n",
    "}\n",
    "\n",
    "/* the net's nodes: the tokens of each place drawn in or beside it */\n",
    "var SVGNS = 'http://www.w3.org/2000/svg';\n",
    "var svg = document.querySelector('#pnv-net svg');\n",
    "var nodes = new Map();\n",
    "if (svg) svg.querySelectorAll('g.node').forEach(function (g) {\n",
    "  nodes.set(g.getAttribute('id'), g);\n",
    "});\n",
    "var placeG = new Array(np), tokText = new Array(np), transG = new Array(nt);\n",
    "for (i = 0; i < np; i++) {\n",
    "  var g = nodes.get(meta.places[i]);\n",
    "  if (!g) continue;\n",
    "  var el = g.querySelector('ellipse');\n",
    "  if (!el) continue;\n",
    "  var cx = +el.getAttribute('cx'), cy = +el.getAttribute('cy'),\n",
    "      rx = +el.getAttribute('rx');\n",
    "  var t = document.createElementNS(SVGNS, 'text');\n",
    "  t.setAttribute('class', 'tok');\n",
    "  if (meta.countInside) {\n",
    "    t.setAttribute('x', cx);\n",
    "    t.setAttribute('y', cy + 4);\n",
    "    t.setAttribute('text-anchor', 'middle');\n",
    "  } else {\n",
    "    t.setAttribute('x', cx + rx + 1);\n",
    "    t.setAttribute('y', cy - rx * 0.55);\n",
    "  }\n",
    "  g.appendChild(t);\n",
    "  placeG[i] = g;\n",
    "  tokText[i] = t;\n",
    "}\n",
    "for (i = 0; i < nt; i++) transG[i] = nodes.get(meta.transitions[i]);\n",
    "\n",
    "/* the table of the marking: a row per place (rows of a grid, not of a\n",
    " * table, so that the browser lays out only the rows in view) */\n",
    "var body = $('marking'), frag = document.createDocumentFragment();\n",
    "var tokCell = new Array(np), rowEl = new Array(np);\n",
    "for (i = 0; i < np; i++) {\n",
    "  var tr = document.createElement('div');\n",
    "  var a = document.createElement('span'), b2 = document.createElement('span'),\n",
    "      c = document.createElement('span');\n",
    "  tr.className = 'row';\n",
    "  a.className = 'pid';\n",
    "  a.textContent = meta.places[i];\n",
    "  b2.className = 'pname';\n",
    "  b2.textContent = meta.placeNames[i];\n",
    "  c.className = 'tok';\n",
    "  tr.appendChild(a);\n",
    "  tr.appendChild(b2);\n",
    "  tr.appendChild(c);\n",
    "  frag.appendChild(tr);\n",
    "  tokCell[i] = c;\n",
    "  rowEl[i] = tr;\n",
    "}\n",
    "body.appendChild(frag);\n",
    "\n",
    "/* the timeline: rows by group (or transition), a column per step */\n",
    "var rowOf = meta.rowOf, classOf = meta.classOf, nrows = meta.rows.length;\n",
    "var share = [], nk = meta.classes.length ? meta.classes.length : 1;\n",
    "(function () {\n",
    "  var stamp = new Int32Array(nrows).fill(-1), best = new Uint8Array(nrows);\n",
    "  var touched = [];\n",
    "  for (var r = 0; r < nrows; r++) share.push(new Float64Array(nk + 1));\n",
    "  for (var s = 1; s <= N; s++) {\n",
    "    touched.length = 0;\n",
    "    for (var j = fOff[s]; j < fOff[s + 1]; j++) {\n",
    "      var r = rowOf[fired[j]];\n",
    "      if (r < 0) continue;\n",
    "      var k = classOf[fired[j]] >= 0 ? classOf[fired[j]] + 2 : 1;\n",
    "      if (stamp[r] !== s) { stamp[r] = s; best[r] = k; touched.push(r); }\n",
    "      else if (k > best[r]) best[r] = k;\n",
    "    }\n",
    "    for (j = 0; j < touched.length; j++) {\n",
    "      var b = best[touched[j]];\n",
    "      share[touched[j]][meta.classes.length ? (b === 1 ? nk : b - 2) : 0]++;\n",
    "    }\n",
    "  }\n",
    "  for (r = 0; r < nrows; r++) {\n",
    "    var busy = 0;\n",
    "    for (k = 0; k < nk; k++) busy += share[r][k];\n",
    "    share[r][nk] = N - busy;\n",
    "  }\n",
    "})();\n",
    "var canvas = $('timeline'), ctx = canvas.getContext('2d'), cursor = $('cursor');\n",
    "var CW = 6, RH = nrows > 64 ? Math.max(2, Math.floor(768 / nrows)) : 12;\n",
    "var LW = 90, TOP = 34, SK = 58, SW = SK * (nk + 1) + 12;\n",
    "var tlStart = 1, tlVisible = 0, drawnStart = -1;\n",
    "function sizeTimeline() {\n",
    "  var w = Math.max(400, canvas.parentNode.clientWidth - 4);\n",
    "  var h = TOP + nrows * RH + 44;\n",
    "  var dpr = window.devicePixelRatio || 1;\n",
    "  canvas.width = w * dpr;\n",
    "  canvas.height = h * dpr;\n",
    "  canvas.style.width = w + 'px';\n",
    "  canvas.style.height = h + 'px';\n",
    "  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);\n",
    "  tlVisible = Math.max(10, Math.floor((w - LW - SW - 8) / CW));\n",
    "  cursor.style.top = (TOP - 3) + 'px';\n",
    "  cursor.style.height = (nrows * RH + 3) + 'px';\n",
    "  cursor.style.width = CW + 'px';\n",
    "  drawFrame();\n",
    "  drawnStart = -1;\n",
    "}\n",
    "function cellColor(k) {\n",
    "  return k === 1 ? '#555555' : meta.colors[k - 2];\n",
    "}\n",
    "/* the parts that stay: row names, axis, each row's shares */\n",
    "function drawFrame() {\n",
    "  var w = canvas.width / (window.devicePixelRatio || 1);\n",
    "  var h = canvas.height / (window.devicePixelRatio || 1), r, j;\n",
    "  ctx.fillStyle = '#ffffff';\n",
    "  ctx.fillRect(0, 0, w, h);\n",
    "  ctx.fillStyle = '#000000';\n",
    "  ctx.textAlign = 'right';\n",
    "  ctx.textBaseline = 'middle';\n",
    "  ctx.font = 'bold 11px sans-serif';\n",
    "  ctx.fillText(meta.rowsTitle, LW - 4, TOP - 8);\n",
    "  ctx.font = (RH >= 9 ? 10 : Math.max(RH, 6)) + 'px sans-serif';\n",
    "  var every = RH >= 9 ? 1 : Math.ceil(9 / RH);\n",
    "  for (r = 0; r < nrows; r += every)\n",
    "    ctx.fillText(meta.rows[r], LW - 4, TOP + r * RH + RH / 2);\n",
    "  ctx.textAlign = 'left';\n",
    "  ctx.font = 'bold 11px sans-serif';\n",
    "  ctx.fillText('step', LW, TOP + nrows * RH + 26);\n",
    "  /* each row's share of the run's steps by kind of firing */\n",
    "  var sx = LW + Math.min(tlVisible, N) * CW + 12;\n",
    "  ctx.font = '9px sans-serif';\n",
    "  var kinds = (meta.classes.length ? meta.classes : ['fired']).concat(['none']);\n",
    "  for (j = 0; j < kinds.length; j++)\n",
    "    ctx.fillText(kinds[j], sx + j * SK, TOP - 8);\n",
    "  ctx.textAlign = 'right';\n",
    "  if (RH >= 9)\n",
    "    for (r = 0; r < nrows; r++)\n",
    "      for (j = 0; j < kinds.length; j++)\n",
    "        ctx.fillText(Math.round(100 * share[r][j] / Math.max(N, 1)) + '%',\n",
    "                     sx + j * SK + SK - 10, TOP + r * RH + RH / 2);\n",
    "}\n",
    "/* the window of steps tlStart.. (redrawn only when it moves) */\n",
    "function drawCells() {\n",
    "  var last = Math.min(N, tlStart + tlVisible - 1), r, s, j;\n",
    "  ctx.fillStyle = '#ffffff';\n",
    "  ctx.fillRect(LW, TOP - 1, Math.min(tlVisible, N) * CW + 1, nrows * RH + 20);\n",
    "  /* cells: the strongest class fired in the row at the step */\n",
    "  var best = new Uint8Array(nrows);\n",
    "  for (s = tlStart; s <= last; s++) {\n",
    "    best.fill(0);\n",
    "    for (j = fOff[s]; j < fOff[s + 1]; j++) {\n",
    "      r = rowOf[fired[j]];\n",
    "      if (r < 0) continue;\n",
    "      var c = classOf[fired[j]] >= 0 ? classOf[fired[j]] + 2 : 1;\n",
    "      if (c > best[r]) best[r] = c;\n",
    "    }\n",
    "    for (r = 0; r < nrows; r++)\n",
    "      if (best[r]) {\n",
    "        ctx.fillStyle = cellColor(best[r]);\n",
    "        ctx.fillRect(LW + (s - tlStart) * CW, TOP + r * RH, CW - 1,\n",
    "                     Math.max(1, RH - 1));\n",
    "      }\n",
    "  }\n",
    "  /* step numbers every 10 steps */\n",
    "  ctx.fillStyle = '#000000';\n",
    "  ctx.textAlign = 'left';\n",
    "  ctx.font = '9px sans-serif';\n",
    "  var y = TOP + nrows * RH + 8;\n",
    "  for (s = Math.ceil(tlStart / 10) * 10; s <= last; s += 10) {\n",
    "    ctx.fillRect(LW + (s - tlStart) * CW, y - 6, 1, 4);\n",
    "    ctx.fillText(String(s), LW + (s - tlStart) * CW, y + 2);\n",
    "  }\n",
    "}\n",
    "function drawTimeline(k) {\n",
    "  /* the window follows the cursor */\n",
    "  if (k < tlStart || k >= tlStart + tlVisible)\n",
    "    tlStart = Math.max(1, Math.min(k - (tlVisible >> 1),\n",
    "                                   N - tlVisible + 1));\n",
    "  if (tlStart !== drawnStart) {\n",
    "    drawCells();\n",
    "    drawnStart = tlStart;\n",
    "  }\n",
    "  cursor.hidden = !(k >= tlStart && k < tlStart + tlVisible);\n",
    "  cursor.style.transform = 'translateX(' + (LW + (k - tlStart) * CW - 2) + 'px)';\n",
    "}\n",
    "/* the legend, once */\n",
    "(function () {\n",
    "  var lg = $('legend');\n",
    "  var names = meta.classes.length ? meta.classes : ['fired'];\n",
    "  for (var j = 0; j < names.length; j++) {\n",
    "    var sw = document.createElement('span');\n",
    "    sw.className = 'swatch';\n",
    "    sw.style.background = meta.classes.length ? meta.colors[j] : '#555555';\n",
    "    lg.appendChild(sw);\n",
    "    lg.appendChild(document.createTextNode(' ' + names[j] + '  '));\n",
    "  }\n",
    "})();\n",
    "\n",
    "/* the step shown, and what it changed */\n",
    "var cur = -1, work = new Float64Array(np), shown = new Float64Array(np);\n",
    "var hot = [], changed = [];\n",
    "shown.fill(NaN);\n",
    "var slider = $('slider'), label = $('step'), firedList = $('fired');\n",
    "slider.max = N;\n",
    "function setPlace(p, v) {\n",
    "  shown[p] = v;\n",
    "  var text = String(v);\n",
    "  tokCell[p].textContent = text;\n",
    "  rowEl[p].className = v ? 'row marked' : 'row';\n",
    "  if (tokText[p]) {\n",
    "    tokText[p].textContent = v ? text : '';\n",
    "    placeG[p].classList.toggle('marked', v > 0);\n",
    "  }\n",
    "}\n",
    "function show(k) {\n",
    "  k = Math.max(0, Math.min(N, Math.floor(k) || 0));\n",
    "  if (k === cur) return;\n",
    "  var j, p;\n",
    "  if (cur >= 0 && k === cur + 1) {\n",
    "    apply(work, k);\n",
    "    for (j = dOff[k]; j < dOff[k + 1]; j++)\n",
    "      if (work[dP[j]] !== shown[dP[j]]) setPlace(dP[j], work[dP[j]]);\n",
    "  } else {\n",
    "    var f = Math.floor(k / K);\n",
    "    work.set(kf[f]);\n",
    "    for (var s = f * K + 1; s <= k; s++) apply(work, s);\n",
    "    for (p = 0; p < np; p++)\n",
    "      if (work[p] !== shown[p]) setPlace(p, work[p]);\n",
    "  }\n",
    "  for (j = 0; j < hot.length; j++) if (transG[hot[j]]) transG[hot[j]].classList.remove('fired');\n",
    "  for (j = 0; j < changed.length; j++) if (placeG[changed[j]]) placeG[changed[j]].classList.remove('changed');\n",
    "  hot = Array.prototype.slice.call(fired.subarray(fOff[k] || 0, k ? fOff[k + 1] : 0));\n",
    "  changed = k ? Array.prototype.slice.call(dP.subarray(dOff[k], dOff[k + 1])) : [];\n",
    "  for (j = 0; j < hot.length; j++) if (transG[hot[j]]) transG[hot[j]].classList.add('fired');\n",
    "  for (j = 0; j < changed.length; j++) if (placeG[changed[j]]) placeG[changed[j]].classList.add('changed');\n",
    "  var ids = [];\n",
    "  for (j = 0; j < hot.length && j < 200; j++) ids.push(meta.transitions[hot[j]]);\n",
    "  firedList.textContent = k === 0 ? 'the initial marking'\n",
    "    : hot.length === 0 ? 'nothing fired'\n",
    "    : ids.join(' ') + (hot.length > 200 ? ' \\u2026 (' + hot.length + ')' : '');\n",
    "  cur = k;\n",
    "  slider.value = k;\n",
    "  label.textContent = 'step ' + k + ' of ' + N;\n",
    "  drawTimeline(k);\n",
    "}\n",
    "\n",
    "/* playing */\n",
    "var playing = false, lastTs = 0, acc = 0, playBtn = $('play');\n",
    "function setPlaying(on) {\n",
    "  playing = on && cur < N;\n",
    "  playBtn.textContent = playing ? '\\u23f8 pause' : '\\u25b6 play';\n",
    "  if (playing) {\n",
    "    lastTs = performance.now();\n",
    "    acc = 0;\n",
    "    requestAnimationFrame(tick);\n",
    "  }\n",
    "}\n",
    "function tick(ts) {\n",
    "  if (!playing) return;\n",
    "  acc += Math.max(0, ts - lastTs) * +$('speed').value / 1000;\n",
    "  lastTs = ts;\n",
    "  if (acc >= 1) {\n",
    "    var n = Math.floor(acc);\n",
    "    acc -= n;\n",
    "    show(cur + n);\n",
    "    if (cur >= N) { setPlaying(false); return; }\n",
    "  }\n",
    "  requestAnimationFrame(tick);\n",
    "}\n",
    "playBtn.onclick = function () { setPlaying(!playing); };\n",
    "$('back').onclick = function () { setPlaying(false); show(cur - 1); };\n",
    "$('fwd').onclick = function () { setPlaying(false); show(cur + 1); };\n",
    "$('first').onclick = function () { setPlaying(false); show(0); };\n",
    "$('last').onclick = function () { setPlaying(false); show(N); };\n",
    "slider.oninput = function () { show(+slider.value); };\n",
    "canvas.onclick = function (e) {\n",
    "  var x = e.clientX - canvas.getBoundingClientRect().left - LW;\n",
    "  if (x >= 0 && x < tlVisible * CW) show(tlStart + Math.floor(x / CW));\n",
    "};\n",
    "document.addEventListener('keydown', function (e) {\n",
    "  if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;\n",
    "  if (e.key === 'ArrowRight') { show(cur + 1); e.preventDefault(); }\n",
    "  else if (e.key === 'ArrowLeft') { show(cur - 1); e.preventDefault(); }\n",
    "  else if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }\n",
    "});\n",
    "/* zoom of the net */\n",
    "var zoom = $('zoom');\n",
    "var svgW = svg ? parseFloat(svg.getAttribute('width')) : 0,\n",
    "    svgH = svg ? parseFloat(svg.getAttribute('height')) : 0;\n",
    "function setZoom() {\n",
    "  if (!svg) return;\n",
    "  if (zoom.value === 'fit') {\n",
    "    svg.style.width = '100%';\n",
    "    svg.style.height = 'auto';\n",
    "  } else {\n",
    "    svg.style.width = svgW * zoom.value + 'pt';\n",
    "    svg.style.height = svgH * zoom.value + 'pt';\n",
    "  }\n",
    "}\n",
    "zoom.onchange = setZoom;\n",
    "/* #zoom=fit (or 0.25, 0.5, 1) in the address: the zoom to open with */\n",
    "var zm = /zoom=([0-9.]+|fit)/.exec(location.hash);\n",
    "if (zm && zoom.querySelector('option[value=\"' + zm[1] + '\"]'))\n",
    "  zoom.value = zm[1];\n",
    "else if (svg && svgW * 4 / 3 <= 2 * $('net').clientWidth)\n",
    "  zoom.value = 'fit';  /* a net at most twice as wide as its box */\n",
    "\n",
    "/* the step in the address: #step=K */\n",
    "function fromHash() {\n",
    "  var mm = /step=(\\d+)/.exec(location.hash);\n",
    "  return mm ? +mm[1] : 0;\n",
    "}\n",
    "window.addEventListener('hashchange', function () { show(fromHash()); });\n",
    "window.addEventListener('resize', function () { sizeTimeline(); drawTimeline(cur); });\n",
    "sizeTimeline();\n",
    "setZoom();\n",
    "/* #step=K&from=J: from step J to K a step at a time, as the buttons go */\n",
    "var from = /from=(\\d+)/.exec(location.hash);\n",
    "if (from) {\n",
    "  show(+from[1]);\n",
    "  var to = Math.min(fromHash(), N);\n",
    "  while (cur < to) show(cur + 1);\n",
    "  while (cur > to) show(cur - 1);\n",
    "}\n",
    "show(fromHash());\n",
    "var loadMs = performance.now();\n",
    "var timing = $('timing');\n",
    "timing.setAttribute('data-load-ms', loadMs.toFixed(1));\n",
    "timing.setAttribute('data-script-ms', (loadMs - t0).toFixed(1));\n",
    "timing.textContent = np + ' places, ' + nt + ' transitions, ' + N +\n",
    "  ' steps; shown ' + loadMs.toFixed(0) + ' ms after the page was opened (' +\n",
    "  (loadMs - t0).toFixed(0) + ' ms decoding and drawing)';\n",
    "/* #bench: times random seeks and single steps: the script's part, and\n",
    " * with the browser's style and layout of the change */\n",
    "if (/bench/.test(location.hash)) {\n",
    "  var seed = 1, runs = 50, t1, t2, js = 0, all = 0, worst = 0;\n",
    "  var bench = function (k) {\n",
    "    t1 = performance.now();\n",
    "    show(k);\n",
    "    t2 = performance.now();\n",
    "    void document.body.offsetHeight;\n",
    "    js += t2 - t1;\n",
    "    all += performance.now() - t1;\n",
    "    worst = Math.max(worst, performance.now() - t1);\n",
    "  };\n",
    "  for (i = 0; i < runs; i++) {\n",
    "    seed = (seed * 1103515245 + 12345) % 2147483648;\n",
    "    bench(seed % (N + 1));\n",
    "  }\n",
    "  timing.setAttribute('data-seek-ms', (all / runs).toFixed(2));\n",
    "  timing.setAttribute('data-seek-js-ms', (js / runs).toFixed(2));\n",
    "  timing.setAttribute('data-seek-max-ms', worst.toFixed(2));\n",
    "  show(0);\n",
    "  js = all = worst = 0;\n",
    "  runs = Math.min(N, 200);\n",
    "  for (i = 0; i < runs; i++) bench(cur + 1);\n",
    "  timing.setAttribute('data-step-ms', (all / Math.max(runs, 1)).toFixed(2));\n",
    "  timing.setAttribute('data-step-js-ms', (js / Math.max(runs, 1)).toFixed(2));\n",
    "  timing.setAttribute('data-step-max-ms', worst.toFixed(2));\n",
    "  show(fromHash());\n",
    "}\n",
    "})();\n",
    NULL};
/* END viewer */

/* ---- the run's data ------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* What encoding a run needs besides the output. */
typedef struct {
    size_t np, nt;
    size_t *arc_off, *arc_place; /* per transition: the places of its arcs */
    uint64_t *prev;              /* the marking before the step */
    uint64_t *stamp;             /* per place: the last step that touched it */
    size_t *touched;             /* the places the step's arcs touch */
    uint32_t *sorted;            /* the step's transitions, sorted */
    size_t cap_sorted;
    pn_engine_t *engine;
    pn_sim_t *sim;
} enc_t;

static void enc_free(enc_t *e)
{
    free(e->arc_off);
    free(e->arc_place);
    free(e->prev);
    free(e->stamp);
    free(e->touched);
    free(e->sorted);
    pn_sim_free(e->sim);
    pn_engine_free(e->engine);
}

/* The places of each transition's arcs, as offsets into one array. */
static pn_status_t enc_open(enc_t *e, const pn_net_t *net)
{
    size_t na = pn_net_arc_count(net);
    e->np = pn_net_place_count(net);
    e->nt = pn_net_transition_count(net);
    e->arc_off = calloc(e->nt + 2, sizeof *e->arc_off);
    e->arc_place = malloc((na + 1) * sizeof *e->arc_place);
    e->prev = malloc((e->np + 1) * sizeof *e->prev);
    e->stamp = calloc(e->np + 1, sizeof *e->stamp);
    e->touched = malloc((na + 1) * sizeof *e->touched);
    if (!e->arc_off || !e->arc_place || !e->prev || !e->stamp || !e->touched)
        return PN_ENOMEM;
    for (size_t a = 0; a < na; a++)
        e->arc_off[pn_net_arc(net, a)->transition + 2]++;
    for (size_t t = 0; t < e->nt; t++)
        e->arc_off[t + 2] += e->arc_off[t + 1];
    for (size_t a = 0; a < na; a++) {
        const pn_arc_t *arc = pn_net_arc(net, a);
        e->arc_place[e->arc_off[arc->transition + 1]++] = arc->place;
    }
    pn_status_t st = pn_engine_compile(net, &e->engine);
    if (st)
        return st;
    /* seed and semantics do not matter: the steps are given */
    e->sim = pn_sim_new(e->engine, 0, PN_SEM_MAXIMAL, 0);
    return e->sim ? PN_OK : PN_ENOMEM;
}

static pn_status_t check_tokens(const pn_net_t *net, size_t p, uint64_t m,
                                uint64_t step, pn_error_t *err)
{
    if (m <= PN_HTML_MAX_TOKENS)
        return PN_OK;
    return hfail(err, PN_ETOOBIG, "place '%s' holds %" PRIu64 " tokens after "
                 "step %" PRIu64 ", more than a page shows exactly (%" PRIu64
                 ")", pn_net_place(net, p)->id, m, step,
                 (uint64_t)PN_HTML_MAX_TOKENS);
}

/* One step: its transitions sorted (as gaps), then the places whose
 * tokens it changed (as gaps) with their new counts. */
static pn_status_t encode_step(enc_t *e, const pn_net_t *net,
                               const pn_trace_t *trace, uint64_t s, pni_sb_t *d,
                               pn_error_t *err)
{
    size_t n, bad, nt = 0;
    const uint32_t *f = pn_trace_fired(trace, s, &n);
    if (n > e->cap_sorted) {
        uint32_t *p = realloc(e->sorted, n * sizeof *p);
        if (!p)
            return hfail(err, PN_ENOMEM, "out of memory");
        e->sorted = p;
        e->cap_sorted = n;
    }
    if (n)
        memcpy(e->sorted, f, n * sizeof *f);
    qsort(e->sorted, n, sizeof *e->sorted, cmp_u32);
    put_uv(d, n);
    for (size_t i = 0; i < n; i++)
        put_uv(d, e->sorted[i] - (i ? e->sorted[i - 1] : 0));
    for (size_t i = 0; i < n; i++)
        for (size_t a = e->arc_off[f[i]]; a < e->arc_off[f[i] + 1]; a++) {
            size_t p = e->arc_place[a];
            if (e->stamp[p] != s) {
                e->stamp[p] = s;
                e->touched[nt++] = p;
            }
        }
    pn_status_t st = pn_sim_fire(e->sim, f, n, &bad);
    if (st == PN_EINVAL)
        return hfail(err, PN_ETRACE, "step %" PRIu64 " of the trace cannot "
                     "fire on this net", s);
    if (st)
        return hfail(err, st, "step %" PRIu64 ": a token count beyond the "
                     "engine's range", s);
    const uint64_t *m = pn_sim_marking(e->sim);
    size_t nchg = 0;
    qsort(e->touched, nt, sizeof *e->touched, cmp_size);
    for (size_t i = 0; i < nt; i++)
        if (m[e->touched[i]] != e->prev[e->touched[i]])
            e->touched[nchg++] = e->touched[i];
    put_uv(d, nchg);
    for (size_t i = 0; i < nchg; i++) {
        size_t p = e->touched[i];
        if ((st = check_tokens(net, p, m[p], s, err)))
            return st;
        put_uv(d, p - (i ? e->touched[i - 1] + 1 : 0));
        put_uv(d, m[p]);
        e->prev[p] = m[p];
    }
    return PN_OK;
}

static pn_status_t encode_run(const pn_net_t *net, const pn_trace_t *trace,
                              pni_sb_t *d, pn_error_t *err)
{
    enc_t e = {0};
    pn_status_t st = enc_open(&e, net);
    if (st) {
        enc_free(&e);
        return hfail(err, st, st == PN_ENOMEM ? "out of memory"
                                              : "the net cannot be run");
    }
    uint64_t steps = pn_trace_steps(trace);
    put_uv(d, e.np);
    put_uv(d, e.nt);
    put_uv(d, steps);
    const uint64_t *m = pn_sim_marking(e.sim);
    for (size_t p = 0; !st && p < e.np; p++) {
        st = check_tokens(net, p, m[p], 0, err);
        put_uv(d, m[p]);
        e.prev[p] = m[p];
    }
    for (uint64_t s = 1; !st && s <= steps; s++) {
        st = encode_step(&e, net, trace, s, d, err);
        if (!st && d->n > PN_HTML_MAX_DATA)
            st = hfail(err, PN_ETOOBIG, "the run's data passes %d MiB at "
                       "step %" PRIu64 " of %" PRIu64 ": a page holds a "
                       "shorter run (pn-run --max-steps %" PRIu64 ")",
                       PN_HTML_MAX_DATA >> 20, s, steps, s - 1);
        if (!st && d->oom)
            st = hfail(err, PN_ENOMEM, "out of memory");
    }
    enc_free(&e);
    return st;
}

/* ---- the page ------------------------------------------------------------- */

/* The steps between two full markings the script keeps: at least 64, more
 * when the markings would take more than PN_HTML_MAX_KEPT numbers. */
static uint64_t keyframe_every(uint64_t steps, size_t np)
{
    uint64_t k = 64;
    while ((steps / k + 1) * (uint64_t)(np ? np : 1) > PN_HTML_MAX_KEPT)
        k *= 2;
    return k;
}

/* The net's names and the timeline's rows, as JSON. */
static void put_meta(pni_sb_t *b, const pn_net_t *net, const pn_trace_t *trace,
                     const pn_dot_options_t *o)
{
    size_t np = pn_net_place_count(net), nt = pn_net_transition_count(net);
    const pn_groups_t *g = o->groups;
    int by_group = g && o->clusters;
    /* the classes the timeline draws (as pn_dot_timeline()) */
    size_t nclasses = g && g->nclasses < 254 ? g->nclasses : 0;
    pni_sb_puts(b, "{\"title\":");
    put_script_string(b, o->title ? o->title : pn_net_id(net) ? pn_net_id(net) : "run");
    pni_sb_puts(b, ",\"steps\":");
    put_u64(b, pn_trace_steps(trace));
    pni_sb_puts(b, ",\"keyframe\":");
    put_u64(b, keyframe_every(pn_trace_steps(trace), np));
    pni_sb_puts(b, ",\"countInside\":");
    pni_sb_puts(b, o->labels == PN_LABELS_SHORT ? "0" : "1");
    pni_sb_puts(b, ",\n\"places\":[");
    for (size_t p = 0; p < np; p++) {
        pni_sb_put(b, ",", p > 0);
        put_script_string(b, pn_net_place(net, p)->id);
    }
    pni_sb_puts(b, "],\n\"placeNames\":[");
    for (size_t p = 0; p < np; p++) {
        pni_sb_put(b, ",", p > 0);
        put_script_string(b, pn_net_place(net, p)->name ? pn_net_place(net, p)->name
                                               : "");
    }
    pni_sb_puts(b, "],\n\"transitions\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        put_script_string(b, pn_net_transition(net, t)->id);
    }
    /* rows: the groups that hold a transition, then "(other)"; or one
     * per transition */
    size_t *row_of_group = by_group ? malloc((g->ngroups + 1) *
                                             sizeof *row_of_group)
                                    : NULL;
    size_t nrows = 0, other = PN_NONE;
    if (by_group && !row_of_group) {
        b->oom = 1;
        return;
    }
    pni_sb_puts(b, "],\n\"rows\":[");
    if (by_group) {
        for (size_t k = 0; k < g->ngroups; k++)
            row_of_group[k] = PN_NONE;
        for (size_t t = 0; t < nt; t++)
            if (g->transition_group[t] < g->ngroups)
                row_of_group[g->transition_group[t]] = 0;
        for (size_t k = 0; k < g->ngroups; k++)
            if (row_of_group[k] == 0) {
                pni_sb_put(b, ",", nrows > 0);
                put_script_string(b, g->group_names[k]);
                row_of_group[k] = nrows++;
            }
        for (size_t t = 0; t < nt && other == PN_NONE; t++)
            if (g->transition_group[t] >= g->ngroups) {
                pni_sb_put(b, ",", nrows > 0);
                put_script_string(b, "(other)");
                other = nrows++;
            }
    } else
        for (size_t t = 0; t < nt; t++) {
            pni_sb_put(b, ",", t > 0);
            put_script_string(b, pn_net_transition(net, t)->id);
        }
    pni_sb_puts(b, "],\n\"rowOf\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        if (!by_group)
            put_u64(b, t);
        else if (g->transition_group[t] < g->ngroups)
            put_u64(b, row_of_group[g->transition_group[t]]);
        else
            put_u64(b, other);
    }
    free(row_of_group);
    pni_sb_puts(b, "],\n\"classOf\":[");
    for (size_t t = 0; t < nt; t++) {
        pni_sb_put(b, ",", t > 0);
        put_index(b, g ? g->transition_class[t] : PN_NONE, nclasses);
    }
    pni_sb_puts(b, "],\n\"classes\":[");
    for (size_t k = 0; k < nclasses; k++) {
        pni_sb_put(b, ",", k > 0);
        put_script_string(b, g->class_names[k]);
    }
    pni_sb_puts(b, "],\"colors\":[");
    for (size_t k = 0; k < nclasses; k++) {
        pni_sb_put(b, ",", k > 0);
        put_script_string(b, g->class_colors[k]);
    }
    pni_sb_puts(b, "],\"rowsTitle\":");
    put_script_string(b, o->rows_title ? o->rows_title
                : by_group    ? "group"
                              : "transition");
    pni_sb_puts(b, "}");
}

/* The SVG document less what comes before its <svg> element (the XML
 * declaration, the doctype, comments): what an HTML page may hold. */
static const char *svg_element(const char *svg, size_t len, size_t *n)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(svg + i, "<svg", 4)) {
            *n = len - i;
            return svg + i;
        }
    return NULL;
}

static void put_lines(pni_sb_t *b, const char *const *lines)
{
    for (; *lines; lines++)
        pni_sb_puts(b, *lines);
}

pn_status_t pn_dot_html(const pn_net_t *net, const pn_trace_t *trace,
                        const char *svg, size_t svg_len,
                        const pn_dot_options_t *opts, char **data, size_t *len,
                        pn_error_t *err)
{
    pni_error_begin(err, NULL);
    pn_dot_options_t o;
    if (opts)
        o = *opts;
    else
        pn_dot_options_init(&o);
    if (!net || !trace || !data || !len || (!svg && svg_len) ||
        (o.groups && (o.groups->nplaces != pn_net_place_count(net) ||
                      o.groups->ntransitions !=
                          pn_net_transition_count(net))))
        return hfail(err, PN_EINVAL, "invalid argument");
    *data = NULL;
    *len = 0;
    size_t svg_n = 0;
    const char *svg_at = svg ? svg_element(svg, svg_len, &svg_n) : NULL;
    if (svg && !svg_at)
        return hfail(err, PN_EINVAL, "the net's picture is not SVG");
    if (svg_n > PN_HTML_MAX_SVG)
        return hfail(err, PN_ETOOBIG, "the net's picture is %zu MiB, more "
                     "than a page holds (%d MiB): draw it smaller", svg_n >> 20,
                     PN_HTML_MAX_SVG >> 20);
    pni_sb_t d = {0}, b = {0};
    pn_status_t st = encode_run(net, trace, &d, err);
    if (st) {
        pni_sb_free(&d);
        return st;
    }
    const char *title =
        o.title ? o.title : pn_net_id(net) ? pn_net_id(net) : "run";
    pni_sb_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                    "<meta charset=\"utf-8\">\n<title>");
    put_html(&b, title);
    pni_sb_puts(&b, ": a run of ");
    put_u64(&b, pn_trace_steps(trace));
    pni_sb_puts(&b, " steps</title>\n<style>\n");
    put_lines(&b, viewer_css);
    pni_sb_puts(&b, "</style>\n</head>\n<body>\n<header id=\"pnv-bar\"><h1>");
    put_html(&b, title);
    pni_sb_puts(&b, "</h1>\n"
        "<button id=\"pnv-first\" title=\"the initial marking\">"
        "|\xe2\x97\x80</button>"
        "<button id=\"pnv-back\" title=\"a step back (left arrow)\">"
        "\xe2\x97\x80</button>"
        "<button id=\"pnv-play\" title=\"play or pause (space)\">"
        "\xe2\x96\xb6 play</button>"
        "<button id=\"pnv-fwd\" title=\"a step forward (right arrow)\">"
        "\xe2\x96\xb6</button>"
        "<button id=\"pnv-last\" title=\"the last step\">\xe2\x96\xb6|</button>\n"
        "<input id=\"pnv-slider\" type=\"range\" min=\"0\" max=\"0\" "
        "value=\"0\" aria-label=\"step\">\n<span id=\"pnv-step\"></span>\n"
        "<label>steps a second <select id=\"pnv-speed\"><option>1</option>"
        "<option>4</option><option selected>10</option><option>30</option>"
        "<option>100</option><option>1000</option></select></label>\n"
        "<label>zoom <select id=\"pnv-zoom\"><option value=\"fit\">fit"
        "</option><option value=\"0.25\">25%</option><option value=\"0.5\">"
        "50%</option><option value=\"1\" selected>100%</option></select>"
        "</label>\n</header>\n"
        "<p id=\"pnv-error\" hidden></p>\n<div id=\"pnv-main\">\n"
        "<section id=\"pnv-net\">\n");
    if (svg_at)
        pni_sb_put(&b, svg_at, svg_n);
    pni_sb_puts(&b, "\n</section>\n<aside id=\"pnv-side\">\n<h2>fired</h2>\n"
                    "<p id=\"pnv-fired\"></p>\n<h2>marking</h2>\n"
                    "<div id=\"pnv-marking\" role=\"table\"><div class=\"row "
                    "head\" role=\"row\"><span>place</span><span>name</span>"
                    "<span class=\"tok\">tokens</span></div></div>\n</aside>\n</div>\n<div id=\"pnv-tlbox\">\n"
                    "<div id=\"pnv-tlwrap\"><canvas id=\"pnv-timeline\"></canvas>"
                    "<div id=\"pnv-cursor\"></div></div>\n"
                    "<div id=\"pnv-legend\"></div>\n</div>\n"
                    "<p id=\"pnv-timing\"></p>\n"
                    "<script type=\"application/json\" id=\"pnv-meta\">");
    put_meta(&b, net, trace, &o);
    pni_sb_puts(&b, "</script>\n<script type=\"text/plain\" "
                    "id=\"pnv-data\">\n");
    put_base64(&b, (const unsigned char *)d.s, d.n);
    pni_sb_puts(&b, "</script>\n<script>\n");
    put_lines(&b, viewer_js);
    pni_sb_puts(&b, "</script>\n</body>\n</html>\n");
    pni_sb_free(&d);
    size_t n;
    char *page = pni_sb_take(&b, &n);
    if (!page)
        return hfail(err, PN_ENOMEM, "out of memory");
    *data = page;
    *len = n;
    return PN_OK;
}
