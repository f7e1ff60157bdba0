#!/usr/bin/env python3
# The Kanban system's steady state computed apart from pn-solve, as the
# reference for tests/cli-solve.sh (N = 1, 2) and `make bench` (N = 3):
# the chain is built from PRISM's module description of the model
# (prism-examples/kanban/kanban.sm in prismmodelchecker/prism: cell i's
# w, x, y, z are N - pkan_i, pm_i, pback_i, pout_i), not from the net,
# and solved by Gauss-Seidel in plain Python to a residual below 1e-15.
# Usage: kanban-reference.py N   (N = 3 takes some minutes)
import sys
t = int(sys.argv[1])
in1, out4, s123, s234, back = 1.0, 0.9, 0.4, 0.5, 0.3
redo = [0.36, 0.42, 0.39, 0.33]
ok = [0.84, 0.98, 0.91, 0.77]

def succ(s):
    s = list(s)
    res = []
    def mv(ch, r, lab):
        n = s[:]
        for i, d in ch:
            n[i] += d
        res.append((tuple(n), r, lab))
    W = lambda c: 4 * c
    X = lambda c: 4 * c + 1
    Y = lambda c: 4 * c + 2
    Z = lambda c: 4 * c + 3
    if s[W(0)] < t and s[X(0)] < t:
        mv([(W(0), 1), (X(0), 1)], in1, "in")
    for c in range(4):
        if s[X(c)] > 0 and s[Y(c)] < t:
            mv([(X(c), -1), (Y(c), 1)], redo[c], "redo%d" % (c + 1))
        if s[X(c)] > 0 and s[Z(c)] < t:
            mv([(X(c), -1), (Z(c), 1)], ok[c], "ok%d" % (c + 1))
        if s[Y(c)] > 0 and s[X(c)] < t:
            mv([(Y(c), -1), (X(c), 1)], back, "back%d" % (c + 1))
    # s1: k1 (z1>0,w1>0), k2 and k3 (w<t, x<t)
    if (s[Z(0)] > 0 and s[W(0)] > 0 and s[W(1)] < t and s[X(1)] < t
            and s[W(2)] < t and s[X(2)] < t):
        mv([(Z(0), -1), (W(0), -1), (W(1), 1), (X(1), 1), (W(2), 1),
            (X(2), 1)], s123, "s1")
    if (s[Z(1)] > 0 and s[W(1)] > 0 and s[Z(2)] > 0 and s[W(2)] > 0
            and s[W(3)] < t and s[X(3)] < t):
        mv([(Z(1), -1), (W(1), -1), (Z(2), -1), (W(2), -1), (W(3), 1),
            (X(3), 1)], s234, "s2")
    if s[Z(3)] > 0 and s[W(3)] > 0:
        mv([(Z(3), -1), (W(3), -1)], out4, "out")
    return res

init = tuple([0] * 16)
idx = {init: 0}
states = [init]
out = []
i = 0
while i < len(states):
    lst = []
    for n, r, lab in succ(states[i]):
        if n not in idx:
            idx[n] = len(states)
            states.append(n)
        lst.append((idx[n], r, lab))
    out.append(lst)
    i += 1
n = len(states)
d = [sum(r for _, r, _ in out[s]) for s in range(n)]
inc = [[] for _ in range(n)]
for s in range(n):
    for j, r, _ in out[s]:
        inc[j].append((s, r))
x = [1.0 / n] * n
for it in range(1, 200000):
    for j in range(n):
        x[j] = sum(x[s] * r for s, r in inc[j]) / d[j]
    tot = sum(x)
    x = [v / tot for v in x]
    if it % 20 == 0:
        res = max(abs(x[j] * d[j] - sum(x[s] * r for s, r in inc[j])) for j in range(n))
        if res < 1e-15:
            break
thr = {}
for s in range(n):
    for j, r, lab in out[s]:
        thr[lab] = thr.get(lab, 0) + x[s] * r
print("t=%d states=%d sweeps=%d residual=%.3g" % (t, n, it, res))
for lab in sorted(thr):
    print("%-8s %.15g" % (lab, thr[lab]))
for c in range(4):
    print("cell%d    %.15g" % (c + 1, sum(x[s] * (states[s][4*c+1] + states[s][4*c+2] + states[s][4*c+3]) for s in range(n))))
    print("pkan%d    %.15g" % (c + 1, sum(x[s] * (t - states[s][4*c]) for s in range(n))))
