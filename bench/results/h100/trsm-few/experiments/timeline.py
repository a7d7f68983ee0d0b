import re, sys
for f in sys.argv[1:]:
    runs = []; cur = []
    for line in open(f):
        m = re.search(r'trace:\s+([\d.]+) us\s+(.*?)\s+(?:\[host \+([\d.]+), enqueue ([\d.]+) us\])?\s*\(at ([\d.]+) us\)', line)
        if not m: continue
        d, lab, host, enq, at = float(m.group(1)), m.group(2), m.group(3), m.group(4), float(m.group(5))
        if lab.startswith('upload'): runs.append(cur); cur = []; continue
        if lab.startswith('download'): continue
        cur.append((at, d, lab[:40], host))
    runs.append(cur)
    ev = runs[-1]
    t0 = min(e[0] for e in ev)
    print('==', f)
    end = 0; busy = 0
    for at, d, lab, host in sorted(ev):
        s = at - t0; e = s + d
        gap = s - end if s > end else 0
        busy += max(0, e - max(s, end)); 
        print('%8.1f %8.1f %7.1f  gap %6.1f  %s host+%s' % (s, e, d, gap, lab, host))
        end = max(end, e)
    print('span %.1f  busy(union) %.1f' % (end, busy))
