#!/usr/bin/env python3
"""make_qmsh_bases.py - write the QMSH part of the conformance corpus: base files
(corpus/qmsh/base/) and the cases that use them (corpus/qmsh/<area>/).

The bases are laid out exactly as qmsh-layout.md describes versions 12-22 (the converter's
section order, little-endian, no padding), by a writer independent of the C one, so the C
decoder and writer are checked against a second implementation. The model is small and uses
values exact in float32 where it matters: 8 vertices in two quads (two submeshes), a 2-bone
skeleton, 2 bone groups, one animation of 3 keyframes, one point, splits.

Outputs:
  base/v<VV>-f<FF>.qmsh   every version 12..22 x every flag byte 0x00..0x1f (bits 0-4)
  base/<name>.qmsh        special files for the limits and for defects a patch cannot make
  versions/*.yaml         one case per base of the grid (clean, or only the expected warnings)
  <area>/*.yaml           a failing and a passing case per rule, offsets from this writer

usage: make_qmsh_bases.py [CORPUS_QMSH_DIR]   (default: corpus/qmsh beside this script's tree)

Standard library only; the output is deterministic.
"""
import math
import os
import shutil
import struct
import sys

T, A, S, P, SPL = 1, 2, 4, 8, 16
FLAG_NAMES = [(T, 'TANGENTS'), (A, 'ANIMATED'), (S, 'STATIC'), (P, 'PHYSICS'), (SPL, 'SPLIT')]
VERSIONS = range(12, 23)


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def f32_up(v):
    """The smallest float32 >= v (bounds that must enclose values computed in double)."""
    r = f32(v)
    if r < v:
        bits = struct.unpack('<I', struct.pack('<f', r))[0]
        r = struct.unpack('<f', struct.pack('<I', bits + 1 if r >= 0 else bits - 1))[0]
    return r


def skeletal(flags):
    return bool(flags & A) and not flags & S


def flag_text(flags):
    return '|'.join(n for b, n in FLAG_NAMES if flags & b) or 'none'


# --- the model -------------------------------------------------------------------------------

def make_mesh(version, flags, n_groups_v12=2, n_bones=2, n_anims=1, anim_frames=3,
              nonuniform=False, point_type=1, n_subs=2, n_groups=None):
    quads = [
        ([(-1, 0, .25), (1, 0, .25), (1, 2, .25), (-1, 2, .25)], (0, 0, 1), (1, 0, 0)),
        ([(.5, 0, -1), (.5, 0, 1), (.5, 2, 1), (.5, 2, -1)], (1, 0, 0), (0, 0, 1)),
    ]
    uv = [(0, 0), (1, 0), (1, 1), (0, 1)]
    verts, tris = [], []
    for q, (pos, nrm, tan) in enumerate(quads):
        for i, p in enumerate(pos):
            verts.append(dict(pos=p, normal=nrm, tex=uv[i], tangent=tan, binormal=(0, 1, 0),
                              weight=1.0 if p[1] == 0 else 0.25,
                              idx=(min(1, n_bones), min(2, n_bones), 0, 0)))
        b = 4 * q
        tris += [(b, b + 1, b + 2), (b, b + 2, b + 3)]
    subs = []
    for s in range(n_subs):
        sub = dict(first=2 * s, tris=2, min_ind=4 * s, n_ind=4,
                   name=['body', 'arm'][s], tex=['body.png', ''][s],
                   spec=[((.5, .5, .5), .25, 20), ((1, 1, 1), .2, 10)][s],
                   normal=[('body_n.png', 1.5), ('', 0)][s],
                   specular=[('body_s.png', .75, .5), ('', 0, 0)][s])
        subs.append(sub)
    if n_subs == 0:
        tris = []
    m = dict(version=version, flags=flags, verts=verts, tris=tris, subs=subs,
             cam=((1, 2, 3), (0, 1, 0), (0, 1, 0)), bones=[], anims=[], groups=[],
             n_groups=0, points=[])
    if skeletal(flags):
        bones = []
        for k in range(n_bones):
            if k == 0:
                mat = (1, 0, 0, 0, 1, 0, 0, 0, 1, 0, .5, 0)
            elif k == 1:
                mat = (0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 1, 0)  # 90 degrees about z, up by 1
            else:
                mat = (1, 0, 0, 0, 1, 0, 0, 0, 1, 0, .25, 0)
            raw = [0.0] * 16
            for r in range(4):
                for c in range(3):
                    raw[r * 4 + c] = mat[r * 3 + c]
            raw[15] = 1.0
            bones.append(dict(name='root' if k == 0 else 'bone%d' % k, parent=k,
                              mat=mat, raw=raw, head=(0, 0, 0, .1), tail=(0, 1, 0, .1),
                              connected=1 if k else 0))
        m['bones'] = bones
        anims = []
        for a in range(n_anims):
            frames = []
            for f in range(anim_frames):
                keys = []
                for k in range(n_bones):
                    ang = math.radians(30 * f) if k == 1 else 0.0
                    rot = (math.sin(ang / 2), 0.0, 0.0, math.cos(ang / 2))
                    sc = (1.0, 2.0, 1.0) if nonuniform and k == 1 else (1.0, 1.0, 1.0)
                    keys.append(dict(pos=(0, .1 * f if k == 1 else 0, 0), rot=rot, scale=sc))
                frames.append(dict(time=.5 * f, keys=keys))
            anims.append(dict(name='wave' if a == 0 else 'a%d' % a,
                              length=.5 * (anim_frames - 1) if anim_frames else 0.0,
                              frames=frames))
        m['anims'] = anims
        if version == 12 and n_groups_v12 < 2:
            m['n_groups'] = n_groups_v12
        elif n_bones == 2:
            m['groups'] = [dict(name='body', parent=0, bones=[1]), dict(name='arm', parent=0, bones=[2])]
        else:
            m['groups'] = [dict(name='all', parent=0, bones=list(range(1, n_bones + 1)))]
        if n_groups is not None:
            m['groups'] = m['groups'][:n_groups]
        if m['groups']:
            m['n_groups'] = len(m['groups'])
    m['points'] = [dict(name='hand', mat=(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1),
                        bone=min(2, n_bones) if skeletal(flags) else 0, type=point_type,
                        size=(.5, .5, .5), rot=(0, .5, 0) if version >= 19 else (0, 0, 0))]
    return m


def bounds(m):
    ps = [v['pos'] for v in m['verts']]
    lo = [min(p[c] for p in ps) for c in range(3)]
    hi = [max(p[c] for p in ps) for c in range(3)]
    radius = f32_up(max(math.sqrt(sum(x * x for x in p)) for p in ps))
    return radius, lo + hi


def split_of(m, sub):
    idx = sorted({i for t in m['tris'][sub['first']:sub['first'] + sub['tris']] for i in t})
    ps = [m['verts'][i]['pos'] for i in idx]
    lo = [min(p[c] for p in ps) for c in range(3)]
    hi = [max(p[c] for p in ps) for c in range(3)]
    ctr = [(lo[c] + hi[c]) / 2 for c in range(3)]
    r = f32_up(max(math.sqrt(sum((p[c] - ctr[c]) ** 2 for c in range(3))) for p in ps))
    return ctr, r, lo + hi


# --- the writer (records the offset of every field by its diagnostic path) ------------------

class Out:
    def __init__(self):
        self.b = bytearray()
        self.off = {}

    def at(self, path):
        self.off[path] = len(self.b)

    def put(self, fmt, *v):
        self.b += struct.pack('<' + fmt, *v)

    def fl(self, vals, path=None):
        if path:
            self.at(path)
        for v in vals:
            self.put('f', v)

    def s1(self, s, path=None):
        if path:
            self.at(path)
        data = s.encode()
        self.put('B', len(data))
        self.b += data


def vertex_bytes(o, flags, i, v):
    rec = 'vertices[%d]' % i
    o.at(rec)
    o.fl(v['pos'], rec + '.pos')
    if flags & P:
        return
    if flags & A:
        o.fl([v['weight']], rec + '.weight')
        o.at(rec + '.indices')
        o.put('4B', *v['idx'])
    o.fl(v['normal'], rec + '.normal')
    o.fl(v['tex'], rec + '.tex')
    if flags & T:
        o.fl(v['tangent'], rec + '.tangent')
        o.fl(v['binormal'], rec + '.binormal')


def write(m):
    ver, flags = m['version'], m['flags']
    o = Out()
    radius, bbox = m.get('bounds') or bounds(m)
    sk = skeletal(flags)
    o.b += b'QMSH'
    o.at('header.version')
    o.put('B', ver)
    o.at('header.flags')
    o.put('B', flags)
    counts = [len(m['verts']), len(m['tris']), len(m['subs']), len(m['bones']) if sk else 0,
              len(m['anims']) if sk else 0, len(m['points']), m['n_groups']]
    for name, c in zip(['n_verts', 'n_tris', 'n_subs', 'n_bones', 'n_anims', 'n_points',
                        'n_groups'], counts):
        o.at('header.' + name)
        o.put('H', c)
    o.fl([radius], 'header.radius')
    o.fl(bbox, 'header.bbox')
    for c in range(3):
        o.off['header.bbox.min[%d]' % c] = o.off['header.bbox'] + 4 * c
        o.off['header.bbox.max[%d]' % c] = o.off['header.bbox'] + 12 + 4 * c
    if ver >= 20:
        o.at('header.points_offset')
        o.put('I', 0)
    if ver >= 13:
        o.fl(m['cam'][0], 'header.cam_pos')
        o.fl(m['cam'][1], 'header.cam_target')
    if ver >= 15:
        o.fl(m['cam'][2], 'header.cam_up')
    for i, v in enumerate(m['verts']):
        vertex_bytes(o, flags, i, v)
    for t, tri in enumerate(m['tris']):
        for k in range(3):
            o.at('triangles[%d][%d]' % (t, k))
            o.put('H', tri[k])
    for s, sub in enumerate(m['subs']):
        rec = 'submeshes[%d]' % s
        o.at(rec)
        for fld in ['first', 'tris', 'min_ind', 'n_ind']:
            o.at(rec + '.' + fld)
            o.put('H', sub[fld])
        o.s1(sub['name'], rec + '.name')
        o.s1(sub['tex'], rec + '.tex')
        if ver >= 18:
            o.fl(sub['spec'][0], rec + '.specular_color')
            o.fl([sub['spec'][1]], rec + '.specular_intensity')
            o.put('i', sub['spec'][2])
        if ver >= 16:
            if flags & T:
                o.s1(sub['normal'][0], rec + '.normal_tex')
                if sub['normal'][0]:
                    o.fl([sub['normal'][1]], rec + '.normal_factor')
            o.s1(sub['specular'][0], rec + '.specular_tex')
            if sub['specular'][0]:
                o.fl(sub['specular'][1:], rec + '.specular_factor')

    def groups():
        if ver == 12 and m['n_groups'] < 2:
            return
        for g, gr in enumerate(m['groups']):
            rec = 'groups[%d]' % g
            o.s1(gr['name'], rec + '.name')
            o.at(rec + '.parent')
            o.put('H', gr['parent'])
            o.at(rec + '.count')
            o.put('B', len(gr['bones']))
            for i, b in enumerate(gr['bones']):
                o.at(rec + '.bones[%d]' % i)
                o.put('B', b - 1 if ver == 12 else b)

    if sk:
        for k, b in enumerate(m['bones']):
            rec = 'bones[%d]' % k
            o.at(rec)
            if ver >= 21:
                o.s1(b['name'], rec + '.name')
                o.at(rec + '.parent')
                o.put('H', b['parent'])
                o.fl(b['mat'], rec + '.mat')
                o.fl(b['raw'], rec + '.raw_mat')
                o.fl(b['head'], rec + '.head')
                o.fl(b['tail'], rec + '.tail')
                o.at(rec + '.connected')
                o.put('B', b['connected'])
            else:
                o.at(rec + '.parent')
                o.put('H', b['parent'])
                o.fl(b['mat'], rec + '.mat')
                o.s1(b['name'], rec + '.name')
        if ver >= 21:
            groups()
        for a, an in enumerate(m['anims']):
            rec = 'animations[%d]' % a
            o.s1(an['name'], rec + '.name')
            o.fl([an['length']], rec + '.length')
            o.at(rec + '.n_frames')
            o.put('H', len(an['frames']))
            for f, fr in enumerate(an['frames']):
                fp = rec + '.frames[%d]' % f
                o.fl([fr['time']], fp + '.time')
                for k, key in enumerate(fr['keys']):
                    kp = fp + '.bones[%d]' % k
                    o.fl(key['pos'], kp + '.pos')
                    o.fl(key['rot'], kp + '.rot')
                    o.fl(key['scale'] if ver >= 22 else key['scale'][:1], kp + '.scale')
    points_at = len(o.b)
    o.off['points'] = points_at
    if ver >= 20:
        struct.pack_into('<I', o.b, o.off['header.points_offset'], points_at)
    for p, pt in enumerate(m['points']):
        rec = 'points[%d]' % p
        o.s1(pt['name'], rec + '.name')
        o.fl(pt['mat'], rec + '.mat')
        o.at(rec + '.bone')
        o.put('H', (pt['bone'] - 1) & 0xffff if ver == 12 else pt['bone'])
        o.at(rec + '.type')
        o.put('H', pt['type'])
        o.fl(pt['size'] if ver >= 14 else pt['size'][:1], rec + '.size')
        if ver >= 19:
            o.fl(pt['rot'], rec + '.rot')
    if sk and ver <= 20:
        groups()
    if flags & SPL:
        for s, sub in enumerate(m['subs']):
            ctr, r, box = split_of(m, sub)
            rec = 'splits[%d]' % s
            o.fl(ctr, rec + '.pos')
            o.fl([r], rec + '.radius')
            o.fl(box, rec + '.box')
            for c in range(3):
                o.off[rec + '.box.min[%d]' % c] = o.off[rec + '.box'] + 4 * c
                o.off[rec + '.box.max[%d]' % c] = o.off[rec + '.box'] + 12 + 4 * c
    o.off['end'] = len(o.b)
    return o


# --- the corpus --------------------------------------------------------------------------------

def canonical(version, flags):
    """No warning expected: PHYSICS (from 13) alone or with SPLIT; SPLIT from 18; STATIC only
    with ANIMATED."""
    return not grid_warnings(version, flags)


def grid_warnings(version, flags):
    w = []
    if flags & P and version < 13:
        w.append('QMSH-HDR-004')
    if flags & SPL and version < 18:
        w.append('QMSH-HDR-004')
    if flags & P and flags & (T | A | S):
        w.append('QMSH-HDR-005')
    elif flags & S and not flags & A:
        w.append('QMSH-HDR-005')
    return w


def yaml_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def fmt_num(v):
    if isinstance(v, float):
        if math.isnan(v):
            return '.nan'
        if math.isinf(v):
            return '.inf' if v > 0 else '-.inf'
        return repr(v)
    return str(v)


class Corpus:
    def __init__(self, root):
        self.root = root
        self.bases = {}
        self.count = 0

    def base(self, name, m):
        if name not in self.bases:
            o = write(m)
            with open(os.path.join(self.root, 'base', name + '.qmsh'), 'wb') as fh:
                fh.write(o.b)
            self.bases[name] = o
        return self.bases[name]

    def case(self, area, fname, description, base, patches=(), expect=(), others=None,
             verdict=None, options=None, roundtrip=False, poses=None):
        lines = ['description: ' + yaml_str(description), 'input:',
                 '  base: ../base/%s.qmsh' % base]
        if patches:
            lines.append('  patches:')
            for p in patches:
                lines.append('    - {' + ', '.join('%s: %s' % (k, fmt_num(v) if k != 'hex' and k != 'append' else yaml_str(v))
                                                  for k, v in p.items()) + '}')
        if options:
            lines.append('options:')
            for k, v in options.items():
                lines.append('  %s: %s' % (k, v))
        if expect:
            lines.append('expect:')
            for e in expect:
                lines.append('  - {' + ', '.join('%s: %s' % (k, yaml_str(v) if k == 'path' else v)
                                                  for k, v in e.items()) + '}')
        else:
            lines.append('expect: []')
        if others:
            lines.append('others: ' + others)
        if verdict:
            lines.append('verdict: ' + verdict)
        if roundtrip:
            lines.append('roundtrip: true')
        if poses:
            lines.append('poses:')
            lines.append('  tolerance: 1e-9')
            lines.append('  frames:')
            for p in poses:
                lines.append('    - {' + ', '.join('%s: %s' % (k, '[' + ', '.join(fmt_num(x) for x in v) + ']' if isinstance(v, (list, tuple)) else v)
                                                  for k, v in p.items()) + '}')
        d = os.path.join(self.root, area)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, fname + '.yaml'), 'w') as fh:
            fh.write('\n'.join(lines) + '\n')
        self.count += 1


def grid(c):
    for ver in VERSIONS:
        for flags in range(32):
            name = 'v%d-f%02x' % (ver, flags)
            c.base(name, make_mesh(ver, flags))
            warns = grid_warnings(ver, flags)
            expect = []
            for w in sorted(set(warns)):
                expect.append({'id': w, 'severity': 'warning', 'offset': 5,
                               'path': 'header.flags', 'count': warns.count(w)})
            desc = 'version %d, flags %s: %s' % (ver, flag_text(flags),
                                                 'valid with a flag warning' if warns else 'valid')
            c.case('versions', name + '-t01-pass', desc, name, expect=expect, verdict='valid',
                   roundtrip=not warns)


def f(v):
    return f32(v)


def unit(q):
    """The runner compares rotations after normalising the decoded float quaternion."""
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def poses_cases(c):
    for ver in (12, 20, 21, 22):
        name = 'v%d-f%02x' % (ver, A | T)
        ang = math.radians(30)
        frames = [
            {'frame': 'base', 'joint': 1, 't': [0.0, 1.0, 0.0],
             'r': [0.0, 0.0, math.sqrt(.5), math.sqrt(.5)], 's': [1.0, 1.0, 1.0]},
            {'frame': 'base', 'joint': 0, 't': [0.0, 0.5, 0.0], 'r': [0.0, 0.0, 0.0, 1.0]},
            {'frame': 1, 'anim': 'wave', 'joint': 1, 't': [0.0, f(.1), 0.0],
             'r': unit([f(math.sin(ang / 2)), 0.0, 0.0, f(math.cos(ang / 2))]),
             's': [1.0, 1.0, 1.0]},
            {'frame': 2, 'joint': 1, 't': [0.0, f(.2), 0.0]},
        ]
        c.case('poses', 'poses-v%d-t01-pass' % ver,
               'version %d keyframes decode to local poses relative to the bone matrix' % ver,
               name, verdict='valid', poses=frames)
    m = make_mesh(22, A, nonuniform=True)
    c.base('v22-nonuniform', m)
    c.case('poses', 'poses-v22-nonuniform-t01-pass',
           'version 22 stores a Vec3 keyframe scale; non-uniform scale decodes per axis',
           'v22-nonuniform', verdict='valid', roundtrip=True,
           poses=[{'frame': 1, 'joint': 1, 's': [1.0, 2.0, 1.0]}])


def rule_cases(c):
    sk = A | T | SPL
    b22 = c.bases['v22-f%02x' % sk]
    n22 = 'v22-f%02x' % sk
    b21 = c.bases['v21-f%02x' % sk]
    n21 = 'v21-f%02x' % sk
    b20 = c.bases['v20-f%02x' % sk]
    n20 = 'v20-f%02x' % sk
    b12 = c.bases['v12-f%02x' % (A | T)]
    n12 = 'v12-f%02x' % (A | T)
    o = b22.off

    def one(rid, t, desc, base, patches, off_path, severity='error', kind='fail', others=None,
            extra=(), options=None, verdict=None):
        exp = []
        if rid:
            e = {'id': rid, 'severity': severity}
            if off_path is not None:
                e['offset'], e['path'] = off_path
            exp.append(e)
        exp += list(extra)
        c.case(area_of(rid or extra[0]['id']), '%s-t%02d-%s' % (rid or extra[0]['id'], t, kind),
               desc, base, patches=patches, expect=exp if kind == 'fail' else [],
               others=others, options=options,
               verdict=verdict or ('invalid' if kind == 'fail' and severity in ('error', 'fatal') else 'valid'))

    def ok(rid, t, desc, base, patches=(), options=None):
        c.case(area_of(rid), '%s-t%02d-pass' % (rid, t), desc, base, patches=patches,
               options=options, verdict='valid')

    # header
    one('QMSH-HDR-001', 1, 'magic QMSX, checked as qmsh by assumption', n22,
        [{'at': 0, 'hex': '514d5358'}], (0, 'header.magic'), 'fatal',
        options={'assume-format': 'qmsh'})
    ok('QMSH-HDR-001', 1, 'the magic QMSH', n22)
    for t, v in enumerate([23, 11, 255], 1):
        one('QMSH-HDR-002', t, 'version %d is outside 12-22' % v, n22,
            [{'at': 4, 'u8': v}], (4, 'header.version'), 'fatal')
    ok('QMSH-HDR-002', 1, 'version 22, the newest known', n22)
    ok('QMSH-HDR-002', 2, 'version 12, the oldest known', n12)
    one('QMSH-HDR-003', 1, 'flag bit 5 set', n22, [{'at': 5, 'u8': sk | 0x20}],
        (5, 'header.flags'))
    one('QMSH-HDR-003', 2, 'flag bit 7 set', n22, [{'at': 5, 'u8': sk | 0x80}],
        (5, 'header.flags'))
    ok('QMSH-HDR-003', 1, 'all five known flag bits in use where they fit', n22)
    one('QMSH-HDR-004', 1, 'PHYSICS in a version 12 file', 'v12-f08', [], (5, 'header.flags'),
        'warning')
    one('QMSH-HDR-004', 2, 'SPLIT in a version 17 file', 'v17-f10', [], (5, 'header.flags'),
        'warning')
    ok('QMSH-HDR-004', 1, 'SPLIT in version 18, where it appears', 'v18-f10')
    ok('QMSH-HDR-004', 2, 'PHYSICS in version 13, where it appears', 'v13-f08')
    one('QMSH-HDR-005', 1, 'PHYSICS with ANIMATED', 'v22-f0a', [], (5, 'header.flags'), 'warning')
    one('QMSH-HDR-005', 2, 'STATIC without ANIMATED', 'v22-f04', [], (5, 'header.flags'),
        'warning')
    ok('QMSH-HDR-005', 1, 'ANIMATED and STATIC: an armour mesh', 'v22-f06')
    one('QMSH-HDR-006', 1, 'a version 22 file cut inside its header', n22,
        [{'truncate': 60}], (59, 'header'), 'fatal')
    one('QMSH-HDR-006', 2, 'a version 12 file cut inside its 48-byte header', n12,
        [{'truncate': 47}], (46, 'header'), 'fatal')
    ok('QMSH-HDR-006', 1, 'a version 12 file with the 48-byte header', n12)
    one('QMSH-HDR-007', 1, 'version 19 under the engine profile', 'v19-f%02x' % sk, [],
        (4, 'header.version'), 'info', options={'profile': 'engine'})
    one('QMSH-HDR-007', 2, 'version 12 under the engine profile', n12, [],
        (4, 'header.version'), 'info', options={'profile': 'engine'})
    ok('QMSH-HDR-007', 1, 'version 20 under the engine profile', n20,
       options={'profile': 'engine'})
    one('QMSH-HDR-008', 1, 'points_offset one past the points', n22,
        [{'at': o['header.points_offset'], 'u32': o['points'] + 1}],
        (48, 'header.points_offset'))
    one('QMSH-HDR-008', 2, 'points_offset zero in version 20', n20,
        [{'at': b20.off['header.points_offset'], 'u32': 0}], (48, 'header.points_offset'))
    ok('QMSH-HDR-008', 1, 'points_offset exact in version 21', n21)
    one('QMSH-HDR-009', 1, 'bbox max x below a vertex', n22,
        [{'at': o['header.bbox.max[0]'], 'f32': 0.5}], (o['header.bbox.max[0]'],
                                                        'header.bbox.max[0]'))
    one('QMSH-HDR-009', 2, 'bbox min y above a vertex', n22,
        [{'at': o['header.bbox.min[1]'], 'f32': 0.125}], (o['header.bbox.min[1]'],
                                                          'header.bbox.min[1]'))
    ok('QMSH-HDR-009', 1, 'bbox grown beyond the vertices', n22,
       [{'at': o['header.bbox.max[0]'], 'f32': 4.0}])
    one('QMSH-HDR-010', 1, 'radius shorter than the farthest vertex', n22,
        [{'at': o['header.radius'], 'f32': 2.0}], (20, 'header.radius'))
    ok('QMSH-HDR-010', 1, 'radius larger than needed', n22,
       [{'at': o['header.radius'], 'f32': 3.0}])

    # vertices and triangles
    one('QMSH-VTX-001', 1, 'weight 1.5', n22, [{'at': o['vertices[2].weight'], 'f32': 1.5}],
        (o['vertices[2].weight'], 'vertices[2].weight'))
    one('QMSH-VTX-001', 2, 'weight -0.25 in version 12', n12,
        [{'at': b12.off['vertices[5].weight'], 'f32': -0.25}],
        (b12.off['vertices[5].weight'], 'vertices[5].weight'))
    ok('QMSH-VTX-001', 1, 'weights 0 and 1 exactly', n22,
       [{'at': o['vertices[2].weight'], 'f32': 0.0}, {'at': o['vertices[3].weight'], 'f32': 1.0}])
    one('QMSH-VTX-002', 1, 'first skinning index 3 with 2 bones', n22,
        [{'at': o['vertices[1].indices'], 'u8': 3}],
        (o['vertices[1].indices'], 'vertices[1].indices[0]'))
    one('QMSH-VTX-002', 2, 'second skinning index 200', n21,
        [{'at': b21.off['vertices[6].indices'] + 1, 'u8': 200}],
        (b21.off['vertices[6].indices'] + 1, 'vertices[6].indices[1]'))
    ok('QMSH-VTX-002', 1, 'skinning index 0 (the zero bone) and n_bones', n22,
       [{'at': o['vertices[1].indices'], 'u8': 0}, {'at': o['vertices[1].indices'] + 1, 'u8': 2}])
    ok('QMSH-VTX-002', 2, 'armour (STATIC) indices beyond its own empty skeleton are not checked',
       'v22-f06', [{'at': c.bases['v22-f06'].off['vertices[0].indices'], 'u8': 40}])
    one('QMSH-VTX-003', 1, 'third skinning index not 0', n22,
        [{'at': o['vertices[0].indices'] + 2, 'u8': 1}],
        (o['vertices[0].indices'] + 2, 'vertices[0].indices[2]'), 'warning')
    ok('QMSH-VTX-003', 1, 'spare indices 0', n22)
    one('QMSH-VTX-004', 1, 'triangle index 8 with 8 vertices', n22,
        [{'at': o['triangles[3][2]'], 'u16': 8}], (o['triangles[3][2]'], 'triangles[3][2]'))
    one('QMSH-VTX-004', 2, 'triangle index 65535 in version 12', n12,
        [{'at': b12.off['triangles[0][0]'], 'u16': 65535}],
        (b12.off['triangles[0][0]'], 'triangles[0][0]'))
    ok('QMSH-VTX-004', 1, 'triangle index 7, the last vertex', n22,
       [{'at': o['triangles[3][2]'], 'u16': 7}])

    # submeshes
    one('QMSH-SUB-001', 1, 'submesh 1 claims 3 triangles from 2', n22,
        [{'at': o['submeshes[1].tris'], 'u16': 3}], (o['submeshes[1].tris'], 'submeshes[1].tris'))
    one('QMSH-SUB-001', 2, 'submesh 0 starts past the triangles', n22,
        [{'at': o['submeshes[0].first'], 'u16': 9}],
        (o['submeshes[0].first'], 'submeshes[0].first'))
    ok('QMSH-SUB-001', 1, 'submesh 1 ends at the last triangle', n22)
    one('QMSH-SUB-002', 1, 'submesh 1 claims 5 vertices from 4', n22,
        [{'at': o['submeshes[1].n_ind'], 'u16': 5}],
        (o['submeshes[1].n_ind'], 'submeshes[1].n_ind'))
    one('QMSH-SUB-002', 2, 'submesh 0 vertex range starts past the vertices', n22,
        [{'at': o['submeshes[0].min_ind'], 'u16': 9}],
        (o['submeshes[0].min_ind'], 'submeshes[0].min_ind'))
    ok('QMSH-SUB-002', 1, 'submesh 0 widened to every vertex', n22,
       [{'at': o['submeshes[0].n_ind'], 'u16': 8}])
    b03 = c.bases['v22-f03']
    one('QMSH-SUB-003', 1, 'one triangle of submesh 0 uses a vertex of submesh 1', 'v22-f03',
        [{'at': b03.off['triangles[1][1]'], 'u16': 5}],
        (b03.off['triangles[1][1]'], 'triangles[1][1]'))
    one('QMSH-SUB-003', 2, 'submesh 1 vertex range shifted off its triangles', n22,
        [{'at': o['submeshes[1].min_ind'], 'u16': 0}],
        (o['submeshes[1].min_ind'], 'submeshes[1].min_ind'))
    ok('QMSH-SUB-003', 1, 'a submesh triangle on the first and last vertex of its range', n22,
       [{'at': o['triangles[1][1]'], 'u16': 3}])

    # bones
    one('QMSH-BON-001', 1, 'bone parent 3 with 2 bones', n22,
        [{'at': o['bones[1].parent'], 'u16': 3}], (o['bones[1].parent'], 'bones[1].parent'))
    one('QMSH-BON-001', 2, 'bone parent 9 in version 20', n20,
        [{'at': b20.off['bones[1].parent'], 'u16': 9}],
        (b20.off['bones[1].parent'], 'bones[1].parent'))
    ok('QMSH-BON-001', 1, 'bone parent n_bones-1 (the previous bone)', n22)
    one('QMSH-BON-002', 1, 'bone 1 (id 1) names itself as parent', n22,
        [{'at': o['bones[0].parent'], 'u16': 1}], (o['bones[0].parent'], 'bones[0].parent'))
    one('QMSH-BON-002', 2, 'bone 1 names bone 2 (later) as parent', n12,
        [{'at': b12.off['bones[0].parent'], 'u16': 2}],
        (b12.off['bones[0].parent'], 'bones[0].parent'))
    ok('QMSH-BON-002', 1, 'both bones roots', n22, [{'at': o['bones[1].parent'], 'u16': 0}])
    one('QMSH-BON-003', 1, 'connected byte 2', n22, [{'at': o['bones[1].connected'], 'u8': 2}],
        (o['bones[1].connected'], 'bones[1].connected'))
    ok('QMSH-BON-003', 1, 'connected 0 and 1', n21)

    # groups
    one('QMSH-GRP-001', 1, 'group parent 2 with 2 groups', n22,
        [{'at': o['groups[1].parent'], 'u16': 2}], (o['groups[1].parent'], 'groups[1].parent'))
    one('QMSH-GRP-001', 2, 'group parent 7 in version 20 (groups after the points)', n20,
        [{'at': b20.off['groups[0].parent'], 'u16': 7}],
        (b20.off['groups[0].parent'], 'groups[0].parent'))
    ok('QMSH-GRP-001', 1, 'group 1 parented to group 1 (a root may name itself)', n22,
       [{'at': o['groups[1].parent'], 'u16': 1}])
    one('QMSH-GRP-002', 1, 'group bone id 3 with 2 bones', n22,
        [{'at': o['groups[1].bones[0]'], 'u8': 3}],
        (o['groups[1].bones[0]'], 'groups[1].bones[0]'),
        extra=[{'id': 'QMSH-GRP-004', 'path': 'bones[1]', 'offset': o['bones[1]']}])
    one('QMSH-GRP-002', 2, 'group bone id 0 (ids are 1-based from version 13)', n21,
        [{'at': b21.off['groups[0].bones[0]'], 'u8': 0}],
        (b21.off['groups[0].bones[0]'], 'groups[0].bones[0]'),
        extra=[{'id': 'QMSH-GRP-004', 'path': 'bones[0]', 'offset': b21.off['bones[0]']}])
    one('QMSH-GRP-002', 3, 'version 12 group bone id 2 (0-based: only 0 and 1 exist)', n12,
        [{'at': b12.off['groups[1].bones[0]'], 'u8': 2}],
        (b12.off['groups[1].bones[0]'], 'groups[1].bones[0]'),
        extra=[{'id': 'QMSH-GRP-004', 'path': 'bones[1]', 'offset': b12.off['bones[1]']}])
    ok('QMSH-GRP-002', 1, 'version 12 group bone ids 0 and 1 (0-based)', n12)
    dup = [{'at': o['groups[1].bones[0]'], 'u8': 1}]
    one('QMSH-GRP-003', 1, 'bone 1 in both groups', n22, dup,
        (o['groups[1].bones[0]'], 'groups[1].bones[0]'),
        extra=[{'id': 'QMSH-GRP-004', 'path': 'bones[1]', 'offset': o['bones[1]']}])
    one('QMSH-GRP-004', 1, 'bone 2 in no group (group 1 lists bone 1 again)', n22, dup,
        (o['bones[1]'], 'bones[1]'), extra=[{'id': 'QMSH-GRP-003'}])
    c.base('v12-implicit-group', make_mesh(12, A | T, n_groups_v12=1))
    c.base('v12-no-groups', make_mesh(12, A, n_groups_v12=0))
    ok('QMSH-GRP-004', 1, 'version 12 with one group: the implicit group holds every bone',
       'v12-implicit-group')
    ok('QMSH-GRP-004', 2, 'version 12 with n_groups 0: the implicit group', 'v12-no-groups')

    # animations
    c.base('v22-zero-frames', make_mesh(22, A, anim_frames=0))
    one('QMSH-ANM-001', 1, 'an animation without keyframes', 'v22-zero-frames', [],
        (c.bases['v22-zero-frames'].off['animations[0].n_frames'], 'animations[0].n_frames'))
    c.base('v22-one-frame', make_mesh(22, A, anim_frames=1))
    ok('QMSH-ANM-001', 1, 'an animation of one keyframe, length 0', 'v22-one-frame')
    one('QMSH-ANM-002', 1, 'length 2 with the last keyframe at 1', n22,
        [{'at': o['animations[0].length'], 'f32': 2.0}],
        (o['animations[0].length'], 'animations[0].length'))
    one('QMSH-ANM-002', 2, 'one keyframe, length 0.5', 'v22-one-frame',
        [{'at': c.bases['v22-one-frame'].off['animations[0].length'], 'f32': 0.5}],
        (c.bases['v22-one-frame'].off['animations[0].length'], 'animations[0].length'))
    ok('QMSH-ANM-002', 1, 'length equal to the last keyframe time', n22)
    one('QMSH-KEY-001', 1, 'first keyframe at 0.25', n22,
        [{'at': o['animations[0].frames[0].time'], 'f32': 0.25}],
        (o['animations[0].frames[0].time'], 'animations[0].frames[0].time'))
    ok('QMSH-KEY-001', 1, 'first keyframe at 0', n22)
    one('QMSH-KEY-002', 1, 'keyframe 1 at the time of keyframe 2', n22,
        [{'at': o['animations[0].frames[1].time'], 'f32': 1.0}],
        (o['animations[0].frames[1].time'], 'animations[0].frames[1].time'))
    one('QMSH-KEY-002', 2, 'keyframe 1 before keyframe 0 (version 12)', n12,
        [{'at': b12.off['animations[0].frames[1].time'], 'f32': -0.5}],
        (b12.off['animations[0].frames[1].time'], 'animations[0].frames[1].time'))
    ok('QMSH-KEY-002', 1, 'keyframes at 0, 0.75, 1', n22,
       [{'at': o['animations[0].frames[1].time'], 'f32': 0.75}])
    rot = o['animations[0].frames[1].bones[1].rot']
    one('QMSH-KEY-003', 1, 'keyframe rotation w = 2', n22, [{'at': rot + 12, 'f32': 2.0}],
        (rot + 12, 'animations[0].frames[1].bones[1].rot'))
    one('QMSH-KEY-003', 3, 'keyframe rotation x = -7', n22, [{'at': rot, 'f32': -7.0}],
        (rot, 'animations[0].frames[1].bones[1].rot'))
    one('QMSH-KEY-003', 2, 'keyframe rotation all zero', n21,
        [{'at': b21.off['animations[0].frames[0].bones[0].rot'] + 12, 'f32': 0.0}],
        (b21.off['animations[0].frames[0].bones[0].rot'] + 12,
         'animations[0].frames[0].bones[0].rot'))
    ok('QMSH-KEY-003', 1, 'keyframe rotation -1 (unit, negative w)', n22,
       [{'at': o['animations[0].frames[0].bones[0].rot'] + 12, 'f32': -1.0}])
    unit_w = [{'at': rot + 4 * c, 'f32': 0.0} for c in range(3)]
    one('QMSH-KEY-003', 4, 'keyframe rotation of length 0.685 (a broken key of a real file)', n22,
        unit_w + [{'at': rot + 12, 'f32': 0.685}], (rot + 12, 'animations[0].frames[1].bones[1].rot'))
    one('QMSH-KEY-003', 5, 'keyframe rotation of length 1.0015 (past the visible-effect threshold)', n22,
        unit_w + [{'at': rot + 12, 'f32': 1.0015}], (rot + 12, 'animations[0].frames[1].bones[1].rot'))
    one('QMSH-KEY-004', 1, 'keyframe rotation of length 1.0009: past rounding, no visible effect', n22,
        unit_w + [{'at': rot + 12, 'f32': 1.0009}], (rot + 12, 'animations[0].frames[1].bones[1].rot'),
        'warning')
    one('QMSH-KEY-004', 2, 'keyframe rotation of length 0.9992 (version 21)', n21,
        [{'at': b21.off['animations[0].frames[0].bones[0].rot'] + 4 * c, 'f32': 0.0} for c in range(3)] +
        [{'at': b21.off['animations[0].frames[0].bones[0].rot'] + 12, 'f32': 0.9992}],
        (b21.off['animations[0].frames[0].bones[0].rot'] + 12, 'animations[0].frames[0].bones[0].rot'),
        'warning')
    ok('QMSH-KEY-004', 1, 'keyframe rotation of length 1.00005 (within rounding)', n22,
       unit_w + [{'at': rot + 12, 'f32': 1.00005}])

    # points
    one('QMSH-PNT-001', 1, 'point bone 3 with 2 bones', n22, [{'at': o['points[0].bone'], 'u16': 3}],
        (o['points[0].bone'], 'points[0].bone'))
    one('QMSH-PNT-001', 2, 'version 12 point bone 2 (0-based: only 0 and 1)', n12,
        [{'at': b12.off['points[0].bone'], 'u16': 2}], (b12.off['points[0].bone'], 'points[0].bone'))
    ok('QMSH-PNT-001', 1, 'point bone 2 = n_bones', n22)
    ok('QMSH-PNT-001', 2, 'a mesh without a skeleton: the point bone is not checked', 'v22-f00',
       [{'at': c.bases['v22-f00'].off['points[0].bone'], 'u16': 0xcdcd}])
    one('QMSH-PNT-002', 1, 'point type 7', n22, [{'at': o['points[0].type'], 'u16': 7}],
        (o['points[0].type'], 'points[0].type'))
    ok('QMSH-PNT-002', 1, 'point type 6 (CONE) in version 22', n22,
       [{'at': o['points[0].type'], 'u16': 6}])
    one('QMSH-PNT-003', 1, 'point type 3 (ARROWS) in version 20', n20,
        [{'at': b20.off['points[0].type'], 'u16': 3}], (b20.off['points[0].type'], 'points[0].type'),
        'warning')
    ok('QMSH-PNT-003', 1, 'point type 2 (BOX) in version 20', n20,
       [{'at': b20.off['points[0].type'], 'u16': 2}])
    # a real v21 file of 2019 has types 3 and 4: the v21 writer already wrote them
    ok('QMSH-PNT-003', 2, 'point type 3 (ARROWS) in version 21', n21,
       [{'at': b21.off['points[0].type'], 'u16': 3}])
    ok('QMSH-PNT-003', 3, 'point type 4 (SINGLE_ARROW) in version 21', n21,
       [{'at': b21.off['points[0].type'], 'u16': 4}])

    # splits
    one('QMSH-SPL-001', 1, 'split 0 box max y below its vertices', n22,
        [{'at': o['splits[0].box.max[1]'], 'f32': 1.0}],
        (o['splits[0].box.max[1]'], 'splits[0].box.max[1]'))
    one('QMSH-SPL-001', 2, 'split 1 box min z above its vertices', n22,
        [{'at': o['splits[1].box.min[2]'], 'f32': 0.0}],
        (o['splits[1].box.min[2]'], 'splits[1].box.min[2]'))
    ok('QMSH-SPL-001', 1, 'split box larger than its vertices', n22,
       [{'at': o['splits[0].box.max[1]'], 'f32': 3.0}])
    one('QMSH-SPL-002', 1, 'split 0 radius 0.5', n22, [{'at': o['splits[0].radius'], 'f32': 0.5}],
        (o['splits[0].radius'], 'splits[0].radius'))
    ok('QMSH-SPL-002', 1, 'split radius larger than needed', n22,
       [{'at': o['splits[0].radius'], 'f32': 5.0}])

    # numbers
    one('QMSH-NUM-001', 1, 'NaN in a vertex position', n22,
        [{'at': o['vertices[3].pos'] + 4, 'f32': float('nan')}],
        (o['vertices[3].pos'] + 4, 'vertices[3].pos[1]'))
    one('QMSH-NUM-001', 2, 'infinite radius', n22, [{'at': 20, 'f32': float('inf')}],
        (20, 'header.radius'))
    one('QMSH-NUM-001', 3, 'NaN in a keyframe rotation', n22, [{'at': rot, 'f32': float('nan')}],
        (rot, 'animations[0].frames[1].bones[1].rot[0]'))
    one('QMSH-NUM-001', 4, '-inf in a bone matrix (version 12)', n12,
        [{'at': b12.off['bones[1].mat'] + 36, 'f32': float('-inf')}],
        (b12.off['bones[1].mat'] + 36, 'bones[1].mat[9]'))
    ok('QMSH-NUM-001', 1, 'large finite values in the camera', n22,
       [{'at': o['header.cam_pos'], 'f32': 3.0e38}])

    # limits and structure
    n = len(b22.b)
    one('QMSH-LIM-001', 1, 'cut inside the vertices', n22, [{'truncate': 200}],
        (199, 'vertices[1]'), 'fatal')
    one('QMSH-LIM-001', 2, 'a point name running past the end', n22,
        [{'at': o['points[0].name'], 'u8': 255}, {'truncate': o['points[0].name'] + 100}],
        (o['points[0].name'], 'points[0].name'), 'fatal')
    one('QMSH-LIM-001', 4, 'n_verts 65535: far more vertices than the file holds', n22,
        [{'at': 6, 'u16': 65535}], (6, 'header.n_verts'), 'fatal')
    one('QMSH-LIM-001', 5, 'a group count running past the end', 'v20-f%02x' % A,
        [{'at': c.bases['v20-f%02x' % A].off['groups[1].count'], 'u8': 200}],
        (c.bases['v20-f%02x' % A].off['groups[1].count'], 'groups[1].count'), 'fatal')
    one('QMSH-LIM-001', 3, 'splits missing entirely', n22, [{'truncate': o['splits[0].pos']}],
        (o['splits[0].pos'], 'splits[0]'), 'fatal')
    ok('QMSH-LIM-001', 1, 'every section whole', n22)
    one('QMSH-LIM-002', 1, 'four bytes after the splits', n22, [{'append': '00000000'}],
        (n, 'trailing'))
    one('QMSH-LIM-002', 2, 'one byte after the groups of version 20 (no splits)', 'v20-f%02x' % A,
        [{'append': 'ff'}], (len(c.bases['v20-f%02x' % A].b), 'trailing'))
    ok('QMSH-LIM-002', 1, 'the file ends with the last split', n22)
    for nb, rid, sev in ((65, 'QMSH-LIM-003', 'error'), (64, 'QMSH-LIM-004', 'warning')):
        name = 'v22-bones%d' % nb
        c.base(name, make_mesh(22, A, n_bones=nb, n_anims=0))
        one(rid, 1, '%d bones' % nb, name, [], (12, 'header.n_bones'), sev)
    c.base('v22-bones63', make_mesh(22, A, n_bones=63, n_anims=0))
    ok('QMSH-LIM-003', 1, '63 bones, the safe maximum', 'v22-bones63')
    ok('QMSH-LIM-004', 1, '63 bones, the safe maximum', 'v22-bones63')
    c.base('v22-anims256', make_mesh(22, A, n_bones=1, n_anims=256, anim_frames=1))
    one('QMSH-LIM-005', 1, '256 animations', 'v22-anims256', [], (14, 'header.n_anims'))
    c.base('v22-anims255', make_mesh(22, A, n_bones=1, n_anims=255, anim_frames=1))
    ok('QMSH-LIM-005', 1, '255 animations', 'v22-anims255')
    c.base('v22-no-subs', make_mesh(22, 0, n_subs=0))
    one('QMSH-LIM-006', 1, 'no submeshes', 'v22-no-subs', [], (10, 'header.n_subs'))
    c.base('v22-one-sub', make_mesh(22, 0, n_subs=1))
    ok('QMSH-LIM-006', 1, 'one submesh is enough', 'v22-one-sub')
    c.base('v22-no-bones', make_mesh(22, A, n_bones=0, n_anims=0, n_groups=1))
    one('QMSH-LIM-007', 1, 'an animated mesh with its own skeleton but no bones', 'v22-no-bones',
        [], (12, 'header.n_bones'))
    ok('QMSH-LIM-007', 1, 'an armour mesh (STATIC) has no bones of its own', 'v22-f06')
    c.base('v22-no-groups', make_mesh(22, A, n_groups=0))
    one('QMSH-LIM-008', 1, 'a version 22 skeleton without bone groups', 'v22-no-groups', [],
        (18, 'header.n_groups'))
    c.base('v13-no-groups', make_mesh(13, A, n_groups=0))
    one('QMSH-LIM-008', 2, 'a version 13 skeleton without bone groups', 'v13-no-groups', [],
        (18, 'header.n_groups'))
    ok('QMSH-LIM-008', 1, 'version 12 without groups: one implicit group', 'v12-no-groups')
    one('QMSH-LIM-009', 1, 'n_verts one too many: every later section shifts', n22,
        [{'at': 6, 'u16': 9}], (6, 'header.n_verts'), others='any')
    one('QMSH-LIM-009', 2, 'n_points one too many in version 22', n22,
        [{'at': 16, 'u16': 2}], (16, 'header.n_points'), others='any')
    one('QMSH-LIM-009', 3, 'n_tris one too few in version 12', n12,
        [{'at': 8, 'u16': 3}], (8, 'header.n_tris'), others='any')
    ok('QMSH-LIM-009', 1, 'counts that describe the file exactly', n12)


AREAS = {'HDR': 'header', 'VTX': 'vertices', 'SUB': 'submeshes', 'BON': 'bones',
         'GRP': 'groups', 'ANM': 'animations', 'KEY': 'animations', 'PNT': 'points',
         'SPL': 'splits', 'NUM': 'numbers', 'LIM': 'limits'}


def area_of(rid):
    return AREAS[rid.split('-')[1]]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..', 'corpus', 'qmsh')
    for sub in ['base', 'versions', 'poses'] + sorted(set(AREAS.values())):
        p = os.path.join(root, sub)
        if os.path.isdir(p):
            for fn in os.listdir(p):
                if fn.endswith('.qmsh') or fn.endswith('.yaml'):
                    os.remove(os.path.join(p, fn))
        os.makedirs(p, exist_ok=True)
    c = Corpus(root)
    grid(c)
    poses_cases(c)
    rule_cases(c)
    print('%d bases, %d cases written under %s' % (len(c.bases), c.count, root))


if __name__ == '__main__':
    main()
