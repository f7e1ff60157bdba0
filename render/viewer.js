(function () {
'use strict';
var t0 = performance.now();
function $(id) { return document.getElementById('pnv-' + id); }
function fail(msg) {
  var e = $('error');
  e.textContent = 'This page cannot show the run: ' + msg;
  e.hidden = false;
  throw new Error(msg);
}
var meta = JSON.parse($('meta').textContent);
var raw = atob($('data').textContent.replace(/\s+/g, ''));
var bytes = new Uint8Array(raw.length);
for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
var pos = 0;
/* an unsigned LEB128 number (exact up to 2^53) */
function uv() {
  var v = 0, mul = 1, b;
  do {
    if (pos >= bytes.length) fail('its data ends early');
    b = bytes[pos++];
    v += (b & 127) * mul;
    mul *= 128;
  } while (b & 128);
  return v;
}
var np = uv(), nt = uv(), N = uv();
if (np !== meta.places.length || nt !== meta.transitions.length ||
    N !== meta.steps)
  fail('its data is not of its net');
var init = new Float64Array(np);
for (i = 0; i < np; i++) init[i] = uv();
/* per step s: fired[fOff[s] .. fOff[s + 1]), and the places whose tokens
 * changed with their new counts, dP/dV[dOff[s] .. dOff[s + 1]) */
var fOff = new Uint32Array(N + 2), dOff = new Uint32Array(N + 2);
var fl = [], pl = [], vl = [];
for (var s = 1; s <= N; s++) {
  var n = uv(), prev = 0, j;
  fOff[s] = fl.length;
  for (j = 0; j < n; j++) {
    prev += uv();
    if (prev >= nt) fail('a transition out of range in step ' + s);
    fl.push(prev);
  }
  n = uv();
  prev = -1;
  dOff[s] = pl.length;
  for (j = 0; j < n; j++) {
    prev += uv() + 1;
    if (prev >= np) fail('a place out of range in step ' + s);
    pl.push(prev);
    vl.push(uv());
  }
}
fOff[N + 1] = fl.length;
dOff[N + 1] = pl.length;
if (pos !== bytes.length) fail('its data is longer than its run');
var fired = Uint32Array.from(fl), dP = Uint32Array.from(pl),
    dV = Float64Array.from(vl);
fl = pl = vl = null;

function apply(m, s) {
  for (var j = dOff[s], e = dOff[s + 1]; j < e; j++) m[dP[j]] = dV[j];
}
/* the full marking every K steps: a seek replays at most K - 1 steps */
var K = meta.keyframe, kf = [init.slice()], m = init.slice();
/* a lasso: the run goes round steps L+1 .. N for ever (the marking after
 * step N is the one after step L); -1: no loop */
var L = typeof meta.loop === 'number' && meta.loop < N ? meta.loop : -1;
function after(k) { return k < N ? k + 1 : L >= 0 ? L + 1 : N; }
for (s = 1; s <= N; s++) {
  apply(m, s);
  if (s % K === 0) kf.push(m.slice());
}

/* the net's nodes: the tokens of each place drawn in or beside it */
var SVGNS = 'http://www.w3.org/2000/svg';
var svg = document.querySelector('#pnv-net svg');
var nodes = new Map();
if (svg) svg.querySelectorAll('g.node').forEach(function (g) {
  nodes.set(g.getAttribute('id'), g);
});
var placeG = new Array(np), tokText = new Array(np), transG = new Array(nt);
for (i = 0; i < np; i++) {
  var g = nodes.get(meta.places[i]);
  if (!g) continue;
  var el = g.querySelector('ellipse');
  if (!el) continue;
  var cx = +el.getAttribute('cx'), cy = +el.getAttribute('cy'),
      rx = +el.getAttribute('rx');
  var t = document.createElementNS(SVGNS, 'text');
  t.setAttribute('class', 'tok');
  if (meta.countInside) {
    t.setAttribute('x', cx);
    t.setAttribute('y', cy + 4);
    t.setAttribute('text-anchor', 'middle');
  } else {
    t.setAttribute('x', cx + rx + 1);
    t.setAttribute('y', cy - rx * 0.55);
  }
  g.appendChild(t);
  placeG[i] = g;
  tokText[i] = t;
}
for (i = 0; i < nt; i++) transG[i] = nodes.get(meta.transitions[i]);

/* the table of the marking: a row per place (rows of a grid, not of a
 * table, so that the browser lays out only the rows in view) */
var body = $('marking'), frag = document.createDocumentFragment();
var tokCell = new Array(np), rowEl = new Array(np);
for (i = 0; i < np; i++) {
  var tr = document.createElement('div');
  var a = document.createElement('span'), b2 = document.createElement('span'),
      c = document.createElement('span');
  tr.className = 'row';
  a.className = 'pid';
  a.textContent = meta.places[i];
  b2.className = 'pname';
  b2.textContent = meta.placeNames[i];
  /* a name cut to its column is whole in its tooltip */
  a.title = meta.places[i];
  b2.title = meta.placeNames[i];
  c.className = 'tok';
  tr.appendChild(a);
  tr.appendChild(b2);
  tr.appendChild(c);
  frag.appendChild(tr);
  tokCell[i] = c;
  rowEl[i] = tr;
}
body.appendChild(frag);

/* the timeline: rows by group (or transition), a column per step */
var rowOf = meta.rowOf, classOf = meta.classOf, nrows = meta.rows.length;
var share = [], nk = meta.classes.length ? meta.classes.length : 1;
(function () {
  var stamp = new Int32Array(nrows).fill(-1), best = new Uint8Array(nrows);
  var touched = [];
  for (var r = 0; r < nrows; r++) share.push(new Float64Array(nk + 1));
  for (var s = 1; s <= N; s++) {
    touched.length = 0;
    for (var j = fOff[s]; j < fOff[s + 1]; j++) {
      var r = rowOf[fired[j]];
      if (r < 0) continue;
      var k = classOf[fired[j]] >= 0 ? classOf[fired[j]] + 2 : 1;
      if (stamp[r] !== s) { stamp[r] = s; best[r] = k; touched.push(r); }
      else if (k > best[r]) best[r] = k;
    }
    for (j = 0; j < touched.length; j++) {
      var b = best[touched[j]];
      share[touched[j]][meta.classes.length ? (b === 1 ? nk : b - 2) : 0]++;
    }
  }
  for (r = 0; r < nrows; r++) {
    var busy = 0;
    for (k = 0; k < nk; k++) busy += share[r][k];
    share[r][nk] = N - busy;
  }
})();
var canvas = $('timeline'), ctx = canvas.getContext('2d'), cursor = $('cursor');
var LOOPCOLOR = '#e07b00';
var CW = 6, RH = nrows > 64 ? Math.max(2, Math.floor(768 / nrows)) : 12;
var ROWFONT = (RH >= 9 ? 10 : Math.max(RH, 6)) + 'px sans-serif';
var TOP = 34, SK = 58, SW = SK * (nk + 1) + 12;
/* the row names' column: as wide as the widest name and the title, so
 * that no name is cut */
var LW = (function () {
  var w = 0, r;
  ctx.font = ROWFONT;
  for (r = 0; r < nrows; r++) w = Math.max(w, ctx.measureText(meta.rows[r]).width);
  ctx.font = 'bold 11px sans-serif';
  w = Math.max(w, ctx.measureText(meta.rowsTitle).width);
  return Math.max(90, Math.ceil(w) + 8);
})();
var tlStart = 1, tlVisible = 0, drawnStart = -1;
function sizeTimeline() {
  /* at least 10 steps beside the names (the box scrolls) */
  var w = Math.max(400, canvas.parentNode.clientWidth - 4,
                   LW + SW + 8 + 10 * CW);
  var h = TOP + nrows * RH + 44;
  var dpr = window.devicePixelRatio || 1;
  canvas.width = w * dpr;
  canvas.height = h * dpr;
  canvas.style.width = w + 'px';
  canvas.style.height = h + 'px';
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  tlVisible = Math.max(10, Math.floor((w - LW - SW - 8) / CW));
  cursor.style.top = (TOP - 3) + 'px';
  cursor.style.height = (nrows * RH + 3) + 'px';
  cursor.style.width = CW + 'px';
  drawFrame();
  drawnStart = -1;
}
function cellColor(k) {
  return k === 1 ? '#555555' : meta.colors[k - 2];
}
/* the parts that stay: row names, axis, each row's shares */
function drawFrame() {
  var w = canvas.width / (window.devicePixelRatio || 1);
  var h = canvas.height / (window.devicePixelRatio || 1), r, j;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#000000';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  ctx.font = 'bold 11px sans-serif';
  ctx.fillText(meta.rowsTitle, LW - 4, TOP - 8);
  ctx.font = ROWFONT;
  var every = RH >= 9 ? 1 : Math.ceil(9 / RH);
  for (r = 0; r < nrows; r += every)
    ctx.fillText(meta.rows[r], LW - 4, TOP + r * RH + RH / 2);
  ctx.textAlign = 'left';
  ctx.font = 'bold 11px sans-serif';
  ctx.fillText('step', LW, TOP + nrows * RH + 26);
  if (L >= 0) {
    ctx.fillStyle = LOOPCOLOR;
    ctx.fillText('loop from step ' + L, LW + 40, TOP + nrows * RH + 26);
    ctx.fillStyle = '#000000';
  }
  /* each row's share of the run's steps by kind of firing */
  var sx = LW + Math.min(tlVisible, N) * CW + 12;
  ctx.font = '9px sans-serif';
  var kinds = (meta.classes.length ? meta.classes : ['fired']).concat(['none']);
  for (j = 0; j < kinds.length; j++)
    ctx.fillText(kinds[j], sx + j * SK, TOP - 8);
  ctx.textAlign = 'right';
  if (RH >= 9)
    for (r = 0; r < nrows; r++)
      for (j = 0; j < kinds.length; j++)
        ctx.fillText(Math.round(100 * share[r][j] / Math.max(N, 1)) + '%',
                     sx + j * SK + SK - 10, TOP + r * RH + RH / 2);
}
/* the window of steps tlStart.. (redrawn only when it moves) */
function drawCells() {
  var last = Math.min(N, tlStart + tlVisible - 1), r, s, j;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(LW, TOP - 1, Math.min(tlVisible, N) * CW + 1, nrows * RH + 20);
  /* cells: the strongest class fired in the row at the step */
  var best = new Uint8Array(nrows);
  for (s = tlStart; s <= last; s++) {
    best.fill(0);
    for (j = fOff[s]; j < fOff[s + 1]; j++) {
      r = rowOf[fired[j]];
      if (r < 0) continue;
      var c = classOf[fired[j]] >= 0 ? classOf[fired[j]] + 2 : 1;
      if (c > best[r]) best[r] = c;
    }
    for (r = 0; r < nrows; r++)
      if (best[r]) {
        ctx.fillStyle = cellColor(best[r]);
        ctx.fillRect(LW + (s - tlStart) * CW, TOP + r * RH, CW - 1,
                     Math.max(1, RH - 1));
      }
  }
  /* the steps of the loop: a band under them */
  ctx.fillStyle = LOOPCOLOR;
  for (s = Math.max(tlStart, L + 1); L >= 0 && s <= last; s++)
    ctx.fillRect(LW + (s - tlStart) * CW, TOP + nrows * RH, CW, 2);
  /* step numbers every 10 steps */
  ctx.fillStyle = '#000000';
  ctx.textAlign = 'left';
  ctx.font = '9px sans-serif';
  var y = TOP + nrows * RH + 8;
  for (s = Math.ceil(tlStart / 10) * 10; s <= last; s += 10) {
    ctx.fillRect(LW + (s - tlStart) * CW, y - 6, 1, 4);
    ctx.fillText(String(s), LW + (s - tlStart) * CW, y + 2);
  }
}
function drawTimeline(k) {
  /* the window follows the cursor */
  if (k < tlStart || k >= tlStart + tlVisible)
    tlStart = Math.max(1, Math.min(k - (tlVisible >> 1),
                                   N - tlVisible + 1));
  if (tlStart !== drawnStart) {
    drawCells();
    drawnStart = tlStart;
  }
  cursor.hidden = !(k >= tlStart && k < tlStart + tlVisible);
  cursor.style.transform = 'translateX(' + (LW + (k - tlStart) * CW - 2) + 'px)';
}
/* the legend, once */
(function () {
  var lg = $('legend');
  var names = meta.classes.length ? meta.classes : ['fired'];
  for (var j = 0; j < names.length; j++) {
    var sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = meta.classes.length ? meta.colors[j] : '#555555';
    lg.appendChild(sw);
    lg.appendChild(document.createTextNode(' ' + names[j] + '  '));
  }
})();

/* the step shown, and what it changed */
var cur = -1, work = new Float64Array(np), shown = new Float64Array(np);
var hot = [], changed = [];
shown.fill(NaN);
var slider = $('slider'), label = $('step'), firedList = $('fired');
slider.max = N;
function setPlace(p, v) {
  shown[p] = v;
  var text = String(v);
  tokCell[p].textContent = text;
  rowEl[p].className = v ? 'row marked' : 'row';
  if (tokText[p]) {
    tokText[p].textContent = v ? text : '';
    placeG[p].classList.toggle('marked', v > 0);
  }
}
/* the ids fired in step k, each in a span that no line break cuts */
function listFired(k) {
  firedList.textContent = k === 0 ? 'the initial marking'
    : hot.length === 0 ? 'nothing fired' : '';
  for (var j = 0; j < hot.length && j < 200; j++) {
    if (j) firedList.appendChild(document.createTextNode(' '));
    var sp = document.createElement('span');
    sp.textContent = meta.transitions[hot[j]];
    firedList.appendChild(sp);
  }
  if (hot.length > 200)
    firedList.appendChild(document.createTextNode(' \u2026 (' + hot.length + ')'));
}
function show(k) {
  k = Math.max(0, Math.min(N, Math.floor(k) || 0));
  if (k === cur) return;
  var j, p;
  if (cur >= 0 && k === cur + 1) {
    apply(work, k);
    for (j = dOff[k]; j < dOff[k + 1]; j++)
      if (work[dP[j]] !== shown[dP[j]]) setPlace(dP[j], work[dP[j]]);
  } else {
    var f = Math.floor(k / K);
    work.set(kf[f]);
    for (var s = f * K + 1; s <= k; s++) apply(work, s);
    for (p = 0; p < np; p++)
      if (work[p] !== shown[p]) setPlace(p, work[p]);
  }
  for (j = 0; j < hot.length; j++) if (transG[hot[j]]) transG[hot[j]].classList.remove('fired');
  for (j = 0; j < changed.length; j++) if (placeG[changed[j]]) placeG[changed[j]].classList.remove('changed');
  hot = Array.prototype.slice.call(fired.subarray(fOff[k] || 0, k ? fOff[k + 1] : 0));
  changed = k ? Array.prototype.slice.call(dP.subarray(dOff[k], dOff[k + 1])) : [];
  for (j = 0; j < hot.length; j++) if (transG[hot[j]]) transG[hot[j]].classList.add('fired');
  for (j = 0; j < changed.length; j++) if (placeG[changed[j]]) placeG[changed[j]].classList.add('changed');
  listFired(k);
  cur = k;
  slider.value = k;
  label.textContent = 'step ' + k + ' of ' + N +
    (L >= 0 && k > L ? ' (the loop from step ' + L + ', for ever)'
     : typeof meta.deadFrom === 'number' && k === N ? ' (dead, for ever)' : '');
  drawTimeline(k);
}

/* playing */
var playing = false, lastTs = 0, acc = 0, playBtn = $('play');
function setPlaying(on) {
  playing = on && (cur < N || L >= 0);
  playBtn.textContent = playing ? '\u23f8 pause' : '\u25b6 play';
  if (playing) {
    lastTs = performance.now();
    acc = 0;
    requestAnimationFrame(tick);
  }
}
function tick(ts) {
  if (!playing) return;
  acc += Math.max(0, ts - lastTs) * +$('speed').value / 1000;
  lastTs = ts;
  if (acc >= 1) {
    var n = Math.floor(acc);
    acc -= n;
    var k = cur;
    while (n-- > 0) k = after(k);
    show(k);
    if (cur >= N && L < 0) { setPlaying(false); return; }
  }
  requestAnimationFrame(tick);
}
playBtn.onclick = function () { setPlaying(!playing); };
$('back').onclick = function () { setPlaying(false); show(cur - 1); };
$('fwd').onclick = function () { setPlaying(false); show(after(cur)); };
$('first').onclick = function () { setPlaying(false); show(0); };
$('last').onclick = function () { setPlaying(false); show(N); };
slider.oninput = function () { show(+slider.value); };
canvas.onclick = function (e) {
  var x = e.clientX - canvas.getBoundingClientRect().left - LW;
  if (x >= 0 && x < tlVisible * CW) show(tlStart + Math.floor(x / CW));
};
document.addEventListener('keydown', function (e) {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.key === 'ArrowRight') { show(after(cur)); e.preventDefault(); }
  else if (e.key === 'ArrowLeft') { show(cur - 1); e.preventDefault(); }
  else if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
});
/* the view of the net: its zoom ("fit": the net's width in the view,
 * "all": the whole net), and the nodes of the step in its middle */
var zoom = $('zoom'), view = $('net');
var svgW = svg ? parseFloat(svg.getAttribute('width')) : 0,
    svgH = svg ? parseFloat(svg.getAttribute('height')) : 0;
function setZoom() {
  if (!svg) return;
  if (zoom.value === 'fit') {
    svg.style.width = '100%';
    svg.style.height = 'auto';
  } else if (zoom.value === 'all') {
    var z = Math.min(view.clientWidth / svgW, view.clientHeight / svgH);
    svg.style.width = Math.floor(svgW * z) + 'px';
    svg.style.height = Math.floor(svgH * z) + 'px';
  } else {
    svg.style.width = svgW * zoom.value + 'pt';
    svg.style.height = svgH * zoom.value + 'pt';
  }
}
/* the nodes step k is about: the transitions it fired (at step 0, or
 * where none of them is drawn, those of the next step with some drawn);
 * else the marked places */
function focusNodes(k) {
  var out = [], s, j;
  for (s = Math.max(k, 1); s <= N && !out.length; s++)
    for (j = fOff[s]; j < fOff[s + 1]; j++)
      if (transG[fired[j]]) out.push(transG[fired[j]]);
  for (j = 0; j < np && !out.length; j++)
    if (placeG[j] && shown[j] > 0) out.push(placeG[j]);
  return out;
}
/* the box around nodes, in the coordinates of the view's content */
function boxOf(nodes) {
  var r = view.getBoundingClientRect(), b = { x0: Infinity, y0: Infinity,
      x1: -Infinity, y1: -Infinity };
  var ox = r.left + view.clientLeft - view.scrollLeft,
      oy = r.top + view.clientTop - view.scrollTop;
  nodes.forEach(function (g) {
    var q = g.getBoundingClientRect();
    b.x0 = Math.min(b.x0, q.left - ox);
    b.y0 = Math.min(b.y0, q.top - oy);
    b.x1 = Math.max(b.x1, q.right - ox);
    b.y1 = Math.max(b.y1, q.bottom - oy);
  });
  return b;
}
/* the largest zoom that shows them all ("fit" first for a net at most
 * twice as wide as its box); else the whole net.  Measured once, where
 * they lie in the picture, for every zoom: a layout of a large picture
 * takes long */
function chooseZoom(nodes) {
  var r = svg.getBoundingClientRect(), x0 = 1, y0 = 1, x1 = 0, y1 = 0, i;
  for (i = 0; i < nodes.length; i++) {
    var q = nodes[i].getBoundingClientRect();
    x0 = Math.min(x0, (q.left - r.left) / r.width);
    y0 = Math.min(y0, (q.top - r.top) / r.height);
    x1 = Math.max(x1, (q.right - r.left) / r.width);
    y1 = Math.max(y1, (q.bottom - r.top) / r.height);
  }
  var tries = ['1', '0.5', '0.25', 'fit'];
  if (svgW * 4 / 3 <= 2 * view.clientWidth) tries.unshift('fit');
  zoom.value = 'all';
  for (i = 0; i < tries.length; i++) {
    /* the picture's width in pixels at that zoom */
    var w = tries[i] === 'fit' ? view.clientWidth : svgW * 4 / 3 * tries[i];
    if ((x1 - x0) * w + 32 <= view.clientWidth &&
        (y1 - y0) * w * svgH / svgW + 32 <= view.clientHeight) {
      zoom.value = tries[i];
      break;
    }
  }
  setZoom();
}
/* the view's middle on the nodes of the step shown */
function centre() {
  var nodes = svg ? focusNodes(cur) : [];
  if (!nodes.length) return;
  var b = boxOf(nodes);
  view.scrollLeft = (b.x0 + b.x1 - view.clientWidth) / 2;
  view.scrollTop = (b.y0 + b.y1 - view.clientHeight) / 2;
}
zoom.onchange = function () { setZoom(); centre(); };

/* the address: #step=K, the step shown; #zoom=fit (or 0.25, 0.5, 1) */
function fromHash() {
  var mm = /step=(\d+)/.exec(location.hash);
  return mm ? +mm[1] : 0;
}
function zoomOfHash() {
  var zm = /zoom=([0-9.]+|fit|all)/.exec(location.hash);
  return zm && zoom.querySelector('option[value="' + zm[1] + '"]') ? zm[1] : '';
}
window.addEventListener('hashchange', function () {
  var z = zoomOfHash();
  if (z) { zoom.value = z; setZoom(); }
  show(fromHash());
  centre();
});
window.addEventListener('resize', function () {
  sizeTimeline();
  drawTimeline(cur);
  if (zoom.value === 'all') setZoom();
});
sizeTimeline();
/* #step=K&from=J: from step J to K a step at a time, as the buttons go */
var from = /from=(\d+)/.exec(location.hash);
if (from) {
  show(+from[1]);
  var to = Math.min(fromHash(), N);
  while (cur < to) show(cur + 1);
  while (cur > to) show(cur - 1);
}
show(fromHash());
/* open on the step's nodes, at the zoom of the address or else the
 * largest that shows them */
if (zoomOfHash()) {
  zoom.value = zoomOfHash();
  setZoom();
} else if (svg && focusNodes(cur).length) {
  chooseZoom(focusNodes(cur));
} else {
  if (svg && svgW * 4 / 3 <= 2 * view.clientWidth) zoom.value = 'fit';
  setZoom();
}
centre();
var loadMs = performance.now();
var timing = $('timing');
timing.setAttribute('data-load-ms', loadMs.toFixed(1));
timing.setAttribute('data-script-ms', (loadMs - t0).toFixed(1));
timing.textContent = np + ' places, ' + nt + ' transitions, ' + N +
  ' steps; shown ' + loadMs.toFixed(0) + ' ms after the page was opened (' +
  (loadMs - t0).toFixed(0) + ' ms decoding and drawing)';
/* #bench: times random seeks and single steps: the script's part, and
 * with the browser's style and layout of the change */
if (/bench/.test(location.hash)) {
  var seed = 1, runs = 50, t1, t2, js = 0, all = 0, worst = 0;
  var bench = function (k) {
    t1 = performance.now();
    show(k);
    t2 = performance.now();
    void document.body.offsetHeight;
    js += t2 - t1;
    all += performance.now() - t1;
    worst = Math.max(worst, performance.now() - t1);
  };
  for (i = 0; i < runs; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    bench(seed % (N + 1));
  }
  timing.setAttribute('data-seek-ms', (all / runs).toFixed(2));
  timing.setAttribute('data-seek-js-ms', (js / runs).toFixed(2));
  timing.setAttribute('data-seek-max-ms', worst.toFixed(2));
  show(0);
  js = all = worst = 0;
  runs = Math.min(N, 200);
  for (i = 0; i < runs; i++) bench(cur + 1);
  timing.setAttribute('data-step-ms', (all / Math.max(runs, 1)).toFixed(2));
  timing.setAttribute('data-step-js-ms', (js / Math.max(runs, 1)).toFixed(2));
  timing.setAttribute('data-step-max-ms', worst.toFixed(2));
  show(fromHash());
}
})();
