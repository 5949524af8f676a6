#!/usr/bin/env python3
# Independent cross-check of the GPX conformance expectations (Python expat, not libxml2): applies
# SEMANTICS §1 (kind choice, timing, drops) and prints one JSON line per file.
# Usage: Scripts/gpx-crosscheck.py Tests/GPXTests/Fixtures/conformance
import sys, os, re, json, xml.parsers.expat
from datetime import datetime, timezone, timedelta

GPXNS = ("http://www.topografix.com/GPX/1/0", "http://www.topografix.com/GPX/1/1")
def parse_time(s):
    m = re.fullmatch(r'\s*(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(Z|z|[+-]\d\d(?::?\d\d)?)?\s*', s)
    if not m: return None
    y,mo,d,h,mi,se,frac,zone = m.groups()
    us = int((frac or '0')[:6].ljust(6,'0'))
    off = 0
    if zone and zone not in 'Zz':
        sign = -1 if zone[0]=='-' else 1
        z = zone[1:].replace(':','')
        off = sign*(int(z[:2])*60 + (int(z[2:4]) if len(z)>2 else 0))
    t = datetime(int(y),int(mo),int(d),int(h),int(mi),int(se),us,tzinfo=timezone.utc) - timedelta(minutes=off)
    return t

def analyse(path):
    data = open(path,'rb').read()
    p = xml.parsers.expat.ParserCreate(namespace_separator=' ')
    st = dict(depth=0, root=None, skip=0, pt=None, field=None, text='', trk=0, segopen=False, segdepth=0)
    trk, rte, wpt = [], [], []
    def ns_ok(name):
        if ' ' not in name: return True, name
        uri, local = name.split(' ',1)
        return (uri in GPXNS or uri == st['rootns']), local
    def start(name, attrs):
        st['depth'] += 1
        if st['skip']: return
        if st['root'] is None:
            st['root'] = name; st['rootns'] = name.split(' ')[0] if ' ' in name else None
            return
        ok, local = ns_ok(name)
        if not ok: st['skip'] = st['depth']; return
        if st['pt'] is not None:
            if local == 'extensions': st['skip'] = st['depth']
            elif st['depth'] == st['pt']['depth']+1 and local in ('time','ele'):
                st['field'] = local; st['text'] = ''
            return
        if local == 'extensions': st['skip'] = st['depth']
        elif local == 'trk': st['trk'] = st['depth']; st['segopen'] = False
        elif local == 'trkseg': st['segopen'] = True; st['segdepth'] = st['depth']; trk.append([])
        elif local in ('trkpt','rtept','wpt'):
            if local == 'trkpt' and not st['segopen']:
                st['segopen'] = True; trk.append([])
            st['pt'] = dict(kind=local, depth=st['depth'], lat=attrs.get('lat'), lon=attrs.get('lon'), time=None, line=p.CurrentLineNumber)
    def end(name):
        d = st['depth']; st['depth'] -= 1
        if st['skip']:
            if d == st['skip']: st['skip'] = 0
            return
        pt = st['pt']
        if pt is None:
            if d == st['segdepth']: st['segopen'] = False; st['segdepth'] = 0
            if d == st['trk']: st['segopen'] = False; st['trk'] = 0
            return
        if st['field'] and d == pt['depth']+1:
            if st['field'] == 'time':
                pt['time'] = parse_time(st['text'])
                if pt['time'] is None: raise ValueError('bad time line %d' % pt['line'])
            st['field'] = None
        elif d == pt['depth']:
            {'trkpt': lambda: trk[-1].append(pt), 'rtept': lambda: rte.append(pt), 'wpt': lambda: wpt.append(pt)}[pt['kind']]()
            st['pt'] = None
    def chars(s):
        if st['field'] and not st['skip']: st['text'] += s
    p.StartElementHandler = start; p.EndElementHandler = end; p.CharacterDataHandler = chars
    try:
        p.Parse(data, True)
    except Exception as e:
        return dict(error=str(e))
    if any(trk): kind, segs = 'trkpt', trk
    elif rte: kind, segs = 'rtept', [rte]
    elif wpt: kind, segs = 'wpt', [wpt]
    else: return dict(kind='none', points=0, segments=len(trk), timing='untimed', drops={})
    pts = [q for s in segs for q in s]
    decimal = re.compile(r'^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$')  # not NaN, inf or hex
    for q in pts:
        if not (decimal.match(q['lat']) and decimal.match(q['lon'])):
            return dict(error='non-numeric lat/lon line %d' % q['line'])
    timed = sum(1 for q in pts if q['time'] is not None)
    if 0 < timed < len(pts):
        first = next(q for q in pts if q['time'] is None)
        return dict(error='partial timing, first untimed line %d' % first['line'])
    timing = 'timed' if timed else 'untimed'
    kept = []; drops = {'range':0,'back':0,'dup':0}; last = None
    for s in segs:
        kept.append([])
        for q in s:
            la, lo = float(q['lat']), float(q['lon'])
            if not (-90 <= la <= 90 and -180 <= lo <= 180): drops['range'] += 1; continue
            if timing == 'timed' and last is not None:
                if q['time'] < last[1]['time']: drops['back'] += 1; continue
                if q['time'] == last[1]['time']: kept[last[0]].pop(); drops['dup'] += 1
            kept[-1].append(q); last = (len(kept)-1, q)
    return dict(kind=kind, points=sum(len(s) for s in kept), segments=len(kept), timing=timing, drops=drops,
                raw=len(pts), nonempty=sum(1 for s in segs if s))

d = sys.argv[1]
for f in sorted(os.listdir(d)):
    if not (f.endswith('.gpx') or f.endswith('.xml')): continue
    print(f, json.dumps(analyse(os.path.join(d,f))))
