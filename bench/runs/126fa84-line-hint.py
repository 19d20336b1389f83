# Reads 126fa84-line-hint.txt (the five builds' output, each under a
# "### build NAME" line, from 126fa84-line-hint.sh): per build, the medians
# over the rounds whose 1,000-key two-core run had a fast handoff (< 40 ns)
# and whose serial run was at the usual speed (< 30 ns), then each kept
# round's figures.
#   python3 bench/runs/126fa84-line-hint.py bench/runs/126fa84-line-hint.txt
import re,sys,statistics as st
builds=['base','addr','r','rnopf','nof']
text={};cur=None
for line in open(sys.argv[1]):
    m=re.match(r'### build (\S+)',line)
    if m: cur=m.group(1); text[cur]=[]; continue
    if cur: text[cur].append(line)
keys={'ser':'AllowKeysSharing/impl=sluice/clock=default/keys=1000/mode=serial-2',
'par':'AllowKeysSharing/impl=sluice/clock=default/keys=1000/mode=parallel/share=keys-2',
'lines':'AllowKeysSharing/impl=sluice/clock=default/keys=1000/mode=parallel/share=lines-2',
'nothing':'AllowKeysSharing/impl=sluice/clock=default/keys=1000/mode=parallel/share=nothing-2',
'paired':'AllowPaired/clock=default/keylen=13/counts=on-2',
'hot1':'Allow/impl=sluice/clock=default/keylen=13/mode=serial-2',
'hot2':'Allow/impl=sluice/clock=default/keylen=13/mode=parallel-2',
'den1':'AllowDenied/impl=sluice/clock=default/mode=serial-2',
'den2':'AllowDenied/impl=sluice/clock=default/mode=parallel-2'}
inv={v:k for k,v in keys.items()}
data={}
for b in builds:
    rounds=[];cur=None
    for line in text[b]:
        if line.startswith('# round'): cur={}; rounds.append(cur); continue
        m=re.match(r'Benchmark(\S+)\s+\d+\s+([\d.]+) ns/op(.*)',line)
        if m and m.group(1) in inv:
            k=inv[m.group(1)]; cur[k]=float(m.group(2))
            h=re.search(r'([\d.]+) handoff-ns',m.group(3))
            if h: cur[k+'_h']=float(h.group(1))
            f=re.search(r'([\d.]+) floor-ns/op\s+([\d.]+)',m.group(3))
            if f: cur['floor']=float(f.group(1)); cur['pratio']=float(f.group(2))
    data[b]=rounds
fast=lambda r: r.get('par_h',999)<40 and r.get('ser',99)<30
print('rounds kept (1k handoff < 40 ns, serial < 30 ns):',{b:sum(fast(r) for r in data[b]) for b in builds}, 'of', {b:len(data[b]) for b in builds})
cols=['ser','par','ratio','lines','nothing','paired','floor','pratio','hot1','hot2','den1','den2']
print('build  '+' '.join(f'{c:>7s}' for c in cols))
for b in builds:
    rs=[r for r in data[b] if fast(r)]
    for r in rs:
        if 'ser' in r and 'par' in r: r['ratio']=r['ser']/r['par']
    out=[]
    for c in cols:
        v=[r[c] for r in rs if c in r]
        out.append(f'{st.median(v):7.3f}' if v else '      -')
    print(f'{b:6s} '+' '.join(out))
print()
for b in builds:
    rs=[r for r in data[b] if fast(r)]
    print(b, 'ratio', sorted(round(r['ser']/r['par'],2) for r in rs), 'pratio', sorted(r['pratio'] for r in rs if 'pratio' in r))
    print('   par', sorted(r['par'] for r in rs), 'ser', sorted(r['ser'] for r in rs))
