#!/usr/bin/env python3
"""Extracts the programs of a tessel kernel cache (src/runtime/cache.c: magic, u64 key length,
key, u64 payload length, u64 checksum, payload). On NVIDIA the payload is PTX. Writes
OUT/<entry>.<n>.ptx and OUT/index.txt (file, entry, the build options from the key); with
--ptxas, also ptxas -arch=sm_90 -v's report per file (registers, spills) into the index.
   python3 bench/scripts/cache_ptx.py CACHE_DIR OUT [--entry REGEX] [--ptxas PATH]"""
import os, re, struct, subprocess, sys

def main():
    args = sys.argv[1:]
    entry_re, ptxas = None, None
    if '--entry' in args:
        i = args.index('--entry'); entry_re = re.compile(args[i + 1]); del args[i:i + 2]
    if '--ptxas' in args:
        i = args.index('--ptxas'); ptxas = args[i + 1]; del args[i:i + 2]
    cache, out = args
    os.makedirs(out, exist_ok=True)
    index = []
    for n, name in enumerate(sorted(os.listdir(cache))):
        path = os.path.join(cache, name)
        try:
            raw = open(path, 'rb').read()
            klen = struct.unpack_from('<Q', raw, 8)[0]
            key = raw[16:16 + klen].decode('utf-8', 'replace')
            plen = struct.unpack_from('<Q', raw, 16 + klen)[0]
            payload = raw[32 + klen:32 + klen + plen]
        except (OSError, struct.error):
            continue
        m = re.search(rb'\.entry\s+([A-Za-z_0-9]+)', payload)
        if not m:
            continue
        entry = m.group(1).decode()
        if entry_re and not entry_re.search(entry):
            continue
        opts = ' '.join(re.findall(r'-D[A-Z_]+=?[^ ]*', key))
        base = os.path.join(out, '%s.%d' % (entry, n))
        open(base + '.ptx', 'wb').write(payload.rstrip(b'\0'))
        report = ''
        if ptxas:
            r = subprocess.run([ptxas, '-arch=sm_90', '-v', base + '.ptx', '-o', base + '.cubin'],
                               capture_output=True, text=True)
            report = ' | '.join(l.split(':', 1)[-1].strip() for l in r.stderr.splitlines()
                                if 'Used' in l or 'spill' in l)
        index.append('%s\t%s\t%s\t%s' % (os.path.basename(base), entry, opts, report))
    open(os.path.join(out, 'index.txt'), 'w').write('\n'.join(index) + '\n')
    print('\n'.join(index))

main()
