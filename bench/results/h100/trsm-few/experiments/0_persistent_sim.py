import heapq, itertools, sys
def sim(n=4096, nb=1024, TM=128, TN=256, P=132, rate=49e12, ovh=2e-6, order="right", leafpair=False):
    per = rate / P
    nblk = n // nb; rt = nb // TM; ct = n // TN
    tasks = []  # (kind, b, u, c, r, k)
    def leaf(b):
        for r in reversed(range(rt)):       # heavy first
            for c in range(ct):
                tasks.append(("L", b, b, c, r, (r + 1) * TM))
    def upd(b, u):
        for c in range(ct):
            for r in range(rt):
                tasks.append(("U", b, u, c, r, nb))
    if order == "right":
        for b in range(nblk):
            leaf(b)
            for u in range(b + 1, nblk): upd(b, u)
    elif order == "col":  # interleave updates of b+1 first (lookahead)
        for b in range(nblk):
            leaf(b)
            for u in range(b + 1, nblk): upd(b, u)
    # deps: L(b,c) needs all U(b',b,c,*) for b'<b; U(b,u,c,*) needs all L(b,c,*)
    done = {}  # key -> count done
    need = {}
    finish = {}
    cnt = {}
    for t in tasks:
        kind, b, u, c, r, k = t
        key = ("L", b, c) if kind == "L" else ("U", u, c)  # U key counts updates into block u
        cnt[key] = cnt.get(key, 0) + 1
    # time when all tasks of a key done
    keytime = {}
    keyleft = dict(cnt)
    # greedy: workers take tickets in order; a task's start = max(worker free, dep ready)
    # deps ready time requires knowing finish times of earlier tickets: process in ticket order
    workers = [0.0] * P
    heapq.heapify(workers)
    keymax = {}
    for t in tasks:
        kind, b, u, c, r, k = t
        w = heapq.heappop(workers)
        if kind == "L":
            dep = keymax.get(("U", b, c), 0.0) if b > 0 else 0.0
            # need all updates into b for column c: those are all earlier tickets
        else:
            dep = keymax.get(("L", b, c), 0.0)
        start = max(w, dep)
        dur = 2 * TM * TN * k / per + ovh
        end = start + dur
        key = ("L", b, c) if kind == "L" else ("U", u, c)
        keymax[key] = max(keymax.get(key, 0.0), end)
        heapq.heappush(workers, end)
    return max(workers)
for nb in (512, 1024):
    for TM, TN, P, rate in ((128, 256, 132, 49e12), (128, 128, 264, 46e12), (128,128,132,46e12)):
        T = sim(nb=nb, TM=TM, TN=TN, P=P, rate=rate)
        print(nb, TM, TN, P, rate/1e12, "B phase %.3f ms  rate %.1f TF" % (T*1e3, 4096**3/T/1e12))
