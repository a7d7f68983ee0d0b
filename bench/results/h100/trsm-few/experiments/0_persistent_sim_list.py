import heapq
def sim(n=4096, nb=1024, TM=128, TN=256, P=132, rate=49e12, ovh=2e-6, prio="cp", m=None):
    m = m or n
    per = rate / P
    nblk = m // nb; rt = nb // TM; ct = n // TN
    tasks = []
    for b in range(nblk):
        for c in range(ct):
            for r in range(rt):
                tasks.append(("L", b, b, c, r, (r + 1) * TM))
        for u in range(b + 1, nblk):
            for c in range(ct):
                for r in range(rt):
                    tasks.append(("U", b, u, c, r, nb))
    dur = lambda t: 2 * TM * TN * t[5] / per + ovh
    # deps count
    key = lambda t: ("L", t[1], t[3]) if t[0] == "L" else ("U", t[2], t[3])
    total = {}
    for t in tasks: total[key(t)] = total.get(key(t), 0) + 1
    def deps(t):
        if t[0] == "L": return [("U", t[1], t[3])] if t[1] > 0 else []
        return [("L", t[1], t[3])]
    # priority: stage index (lower first): L(b) stage 2b, U(b->u) stage 2b+1 + (u-b-1)*0.5
    def pr(t):
        if prio == "cp":
            if t[0] == "L": return (2 * t[1], -t[5], t[3])
            return (2 * t[1] + 1 + (t[2] - t[1] - 1) * 1.5, t[3], t[4])
        return tasks.index(t)
    remaining = dict(total); keydone = {}
    waiting = {}
    ready = []
    for t in tasks:
        ds = [d for d in deps(t)]
        if not ds: heapq.heappush(ready, (pr(t), t))
        else:
            for d in ds: waiting.setdefault(d, []).append(t)
    # event sim
    free = P; now = 0.0; ev = []; order = []
    while ready or ev:
        while free and ready:
            _, t = heapq.heappop(ready); free -= 1
            order.append(t)
            heapq.heappush(ev, (now + dur(t), t))
        now, t = heapq.heappop(ev); free += 1
        k = key(t); remaining[k] -= 1
        if remaining[k] == 0:
            for w in waiting.get(k, []):
                heapq.heappush(ready, (pr(w), w))
    return now
for nb in (512, 1024):
    for TM, TN, P, rate in ((128, 256, 132, 49e12), (128, 128, 264, 46e12), (128,128,132,46e12), (64,256,264,46e12)):
        T = sim(nb=nb, TM=TM, TN=TN, P=P, rate=rate)
        print(nb, TM, TN, P, rate/1e12, "B phase %.3f ms  rate %.1f TF" % (T*1e3, 4096**3/T/1e12))
