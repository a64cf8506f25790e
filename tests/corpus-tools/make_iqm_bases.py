#!/usr/bin/env python3
"""make_iqm_bases.py - write the IQM base files of the conformance corpus (corpus/iqm/base/).

Each base is a small, valid IQM file laid out the way the reference compiler lays it out
(iqm-notes.md 1.6): header, text (NUL-padded to 4), meshes, vertex array headers, 0-4 bytes so
vertex data starts 8-aligned, vertex data (each array aligned to max(format size, 4)), triangles,
adjacency, joints, poses, anims, frames (padded to an even number of uint16), bounds, comment.
Animation channels are quantized as the reference compiler does (iqm-notes.md 3.3), in float.

usage: make_iqm_bases.py [OUTDIR]      (default: corpus/iqm/base next to this script's tree)
       make_iqm_bases.py --layout       print the byte offsets of every section and record

Standard library only; the output is deterministic.
"""
import math
import os
import struct
import sys

HEADER = 124
FMT = {'byte': (0, 'b', 1), 'ubyte': (1, 'B', 1), 'short': (2, 'h', 2), 'ushort': (3, 'H', 2),
       'int': (4, 'i', 4), 'uint': (5, 'I', 4), 'half': (6, 'e', 2), 'float': (7, 'f', 4),
       'double': (8, 'd', 8)}
TYPE = {'position': 0, 'texcoord': 1, 'normal': 2, 'tangent': 3, 'blendindexes': 4,
        'blendweights': 5, 'color': 6}
NONE = 0xFFFFFFFF


def f32(v):
    """Round to float32, as the reference compiler's float arithmetic does."""
    return struct.unpack('<f', struct.pack('<f', v))[0]


def quantize(values):
    """One channel over the global strip: (animated, offset, scale, samples) (iqm-notes.md 3.3)."""
    vals = [f32(v) for v in values]
    lo, hi = min(vals), max(vals)
    rng = f32(hi - lo)
    if rng < 1e-10:
        return False, lo, 0.0, []
    scale = f32(rng / 65535.0)
    samples = [min(65535, int(f32(0.5 + f32(f32(v - lo) / scale)))) for v in vals]
    return True, lo, scale, samples


class Text:
    def __init__(self):
        self.data = bytearray(b'\0')
        self.index = {'': 0}

    def add(self, s):
        if s not in self.index:
            self.index[s] = len(self.data)
            self.data += s.encode() + b'\0'
        return self.index[s]

    def padded(self):
        return bytes(self.data) + b'\0' * ((4 - len(self.data) % 4) % 4)


def adjacency(tris):
    """Neighbour across edge (v[k], v[k+1]) shared by exactly two triangles, else ~0."""
    edges = {}
    for t, tri in enumerate(tris):
        for k in range(3):
            key = tuple(sorted((tri[k], tri[(k + 1) % 3])))
            edges.setdefault(key, []).append(t)
    out = []
    for t, tri in enumerate(tris):
        row = []
        for k in range(3):
            key = tuple(sorted((tri[k], tri[(k + 1) % 3])))
            owners = edges[key]
            row.append([o for o in owners if o != t][0] if len(owners) == 2 else NONE)
        out.append(row)
    return out


def build(model, version=2, valign=True, layout=None):
    """Serialise a model description (a dict, see the bases below) as IQM."""
    text = Text()
    meshes = [(text.add(m['name']), text.add(m['material']), m['fv'], m['nv'], m['ft'], m['nt'])
              for m in model.get('meshes', [])]
    varrays = model.get('varrays', [])
    nverts = model.get('num_vertexes', 0)
    joints = model.get('joints', [])
    joint_names = [text.add(j['name']) for j in joints]
    anims = model.get('anims', [])
    anim_names = [text.add(a['name']) for a in anims]
    custom_types = [16 + text.add(va['type']) if va['type'] not in TYPE else TYPE[va['type']]
                    for va in varrays]
    ext_names = [text.add(e['name']) for e in model.get('extensions', [])]
    tdata = text.padded() if len(text.data) > 1 or model.get('force_text') else b''

    out = bytearray(HEADER)
    hdr = {}
    lay = layout if layout is not None else {}

    def put(name, data, align=4):
        while len(out) % align:
            out.append(0)
        if not data:
            return 0
        lay[name] = (len(out), len(data))
        pos = len(out)
        out.extend(data)
        return pos

    hdr['ofs_text'] = put('text', tdata)
    hdr['num_text'] = len(tdata)
    hdr['ofs_meshes'] = put('meshes', b''.join(struct.pack('<6I', *m) for m in meshes))
    # vertex array headers are patched once the data offsets are known
    va_pos = put('vertexarrays', bytes(20 * len(varrays)))
    hdr['ofs_vertexarrays'] = va_pos
    if valign:
        out.extend(bytes((8 - len(out) % 8) % 8))
    vstart = len(out)
    for i, va in enumerate(varrays):
        code, pack, size = FMT[va['format']]
        align = max(size, 4)
        while (len(out) - vstart) % align:
            out.append(0)
        offset = len(out) if nverts else va.get('empty_offset', 0)
        comps = [c for vert in va['data'] for c in vert]
        data = struct.pack('<%d%s' % (len(comps), pack), *comps)
        if data:
            lay['vertexarrays[%d].data' % i] = (len(out), len(data))
        out.extend(data)
        struct.pack_into('<5I', out, va_pos + 20 * i, custom_types[i], 0, code, va['size'], offset)
    while len(out) % 4:
        out.append(0)
    tris = model.get('triangles', [])
    hdr['ofs_triangles'] = put('triangles', b''.join(struct.pack('<3I', *t) for t in tris))
    adj = adjacency(tris) if tris and model.get('adjacency', True) else []
    hdr['ofs_adjacency'] = put('adjacency', b''.join(struct.pack('<3I', *a) for a in adj))

    jdata = b''
    for j, n in zip(joints, joint_names):
        t, r, s = j['t'], j['r'], j['s']
        if version == 1:
            jdata += struct.pack('<Ii3f3f3f', n, j['parent'], *t, *r[:3], *s)
        else:
            jdata += struct.pack('<Ii3f4f3f', n, j['parent'], *t, *r, *s)
    hdr['ofs_joints'] = put('joints', jdata)

    # poses: per pose, per channel, the values over the global strip (frames[f][p] = 10 floats)
    frames = model.get('frames', [])
    pose_parents = model.get('pose_parents', [])
    nch = 9 if version == 1 else 10
    chan_src = [c for c in range(10) if not (version == 1 and c == 6)]
    pdata, columns = b'', []
    for p, parent in enumerate(pose_parents):
        mask, offs, scales = 0, [], []
        for bit, c in enumerate(chan_src):
            animated, off, scale, samples = quantize([fr[p][c] for fr in frames])
            if animated:
                mask |= 1 << bit
                columns.append((p, samples))
            offs.append(off)
            scales.append(scale)
        pdata += struct.pack('<iI%df%df' % (nch, nch), parent, mask, *offs, *scales)
    hdr['ofs_poses'] = put('poses', pdata)
    hdr['ofs_anims'] = put('anims', b''.join(
        struct.pack('<3IfI', n, a['first'], a['count'], a['rate'], a.get('flags', 0))
        for a, n in zip(anims, anim_names)))
    fdata = b''
    for f in range(len(frames)):
        fdata += b''.join(struct.pack('<H', col[1][f]) for col in columns)
    if len(fdata) % 4:
        fdata += b'\0\0'  # the writer pads frames to an even number of uint16
    hdr['ofs_frames'] = put('frames', fdata)
    bounds = model.get('bounds', [])
    hdr['ofs_bounds'] = put('bounds', b''.join(struct.pack('<8f', *b) for b in bounds))
    comment = model.get('comment', b'')
    if comment:
        comment += b'\0' * (4 - len(comment) % 4)
    hdr['ofs_comment'] = put('comment', comment)
    hdr['num_comment'] = len(comment)

    exts = model.get('extensions', [])
    ext_pos = []
    for i, e in enumerate(exts):
        data_pos = put('extensions[%d].data' % i, e['data']) if e['data'] else 0
        ext_pos.append((len(out), data_pos))
        put('extensions[%d]' % i, bytes(16))
    for i, (pos, data_pos) in enumerate(ext_pos):
        nxt = ext_pos[i + 1][0] if i + 1 < len(ext_pos) else 0
        struct.pack_into('<4I', out, pos, ext_names[i], len(exts[i]['data']), data_pos, nxt)
    for _ in range(model.get('tail_pad', 0)):
        out.append(0)

    fields = [version, len(out), 0,
              hdr['num_text'], hdr['ofs_text'],
              len(meshes), hdr['ofs_meshes'],
              len(varrays), nverts, hdr['ofs_vertexarrays'],
              len(tris), hdr['ofs_triangles'], hdr['ofs_adjacency'],
              len(joints), hdr['ofs_joints'],
              len(pose_parents), hdr['ofs_poses'],
              len(anims), hdr['ofs_anims'],
              len(frames), len(columns), hdr['ofs_frames'], hdr['ofs_bounds'],
              hdr['num_comment'], hdr['ofs_comment'],
              len(exts), ext_pos[0][0] if exts else 0]
    out[0:16] = b'INTERQUAKEMODEL\0'
    struct.pack_into('<27I', out, 16, *fields)
    if model.get('empty_offsets_at_end'):
        for i in range(len(varrays)):
            struct.pack_into('<I', out, va_pos + 20 * i + 16, len(out))
    return bytes(out)


def quat_z(angle):
    """Rotation about z, flipped to w <= 0 as the compiler stores it."""
    q = [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)]
    if q[3] > 0:
        q = [-c for c in q]
    return q


def skinned_quads():
    """Two quads (two meshes), 8 vertices, 4 triangles, every standard array and one custom."""
    pos = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
    tex = [(0, 0), (1, 0), (1, 1), (0, 1)] * 2
    nrm = [(0, 0, 1)] * 8
    tan = [(1, 0, 0, 1)] * 8
    bidx = [(0, 0, 0, 0), (1, 0, 0, 0), (1, 2, 0, 0), (2, 0, 0, 0)] * 2
    bwt = [(255, 0, 0, 0), (255, 0, 0, 0), (200, 55, 0, 0), (255, 0, 0, 0)] * 2
    col = [(255, 255, 255, 255)] * 8
    wet = [(0.5,)] * 8
    return [
        {'type': 'position', 'format': 'float', 'size': 3, 'data': pos},
        {'type': 'texcoord', 'format': 'float', 'size': 2, 'data': tex},
        {'type': 'normal', 'format': 'float', 'size': 3, 'data': nrm},
        {'type': 'tangent', 'format': 'float', 'size': 4, 'data': tan},
        {'type': 'blendindexes', 'format': 'ubyte', 'size': 4, 'data': bidx},
        {'type': 'blendweights', 'format': 'ubyte', 'size': 4, 'data': bwt},
        {'type': 'color', 'format': 'ubyte', 'size': 4, 'data': col},
        {'type': 'wetness', 'format': 'float', 'size': 1, 'data': wet},
    ]


def three_joint_frames(n):
    """Frames of a root sliding in x, an arm turning about z, a still hand."""
    frames = []
    for f in range(n):
        root = [0.1 * f, 0, 0] + [0, 0, 0, -1] + [1, 1, 1]
        arm = [0, 1, 0] + quat_z(0.3 * f) + [1, 1, 1]
        hand = [0, 1, 0] + [0, 0, 0, -1] + [1, 1, 1]
        frames.append([root, arm, hand])
    return frames


def base_anim(version=2):
    joints = [
        {'name': 'root', 'parent': -1, 't': (0, 0, 0), 'r': (0, 0, 0, -1), 's': (1, 1, 1)},
        {'name': 'arm', 'parent': 0, 't': (0, 1, 0), 'r': (0, 0, 0, -1), 's': (1, 1, 1)},
        {'name': 'hand', 'parent': 1, 't': (0, 1, 0), 'r': (0, 0, 0, -1), 's': (1, 1, 1)},
    ]
    return {
        'meshes': [{'name': 'body', 'material': 'skin.png', 'fv': 0, 'nv': 4, 'ft': 0, 'nt': 2},
                   {'name': 'head', 'material': 'skin.png', 'fv': 4, 'nv': 4, 'ft': 2, 'nt': 2}],
        'num_vertexes': 8,
        'varrays': skinned_quads(),
        'triangles': [(0, 1, 2), (0, 2, 3), (4, 5, 6), (4, 6, 7)],
        'joints': joints,
        'pose_parents': [-1, 0, 1],
        'anims': [{'name': 'idle', 'first': 0, 'count': 2, 'rate': 24.0},
                  {'name': 'wave', 'first': 2, 'count': 3, 'rate': 30.0, 'flags': 1}],
        'frames': three_joint_frames(5),
        'bounds': [(0, 0, 0, 1 + 0.1 * f, 1, 1, math.sqrt(2) + 0.1 * f, math.sqrt(3) + 0.1 * f)
                   for f in range(5)],
        'comment': b'made by make_iqm_bases.py',
    }


def base_formats():
    """One triangle with a custom array in every component format."""
    def rows(vals):
        return [vals] * 3
    customs = [('c_byte', 'byte', (-1,)), ('c_ubyte', 'ubyte', (1, 2)), ('c_short', 'short', (-3, 4, 5)),
               ('c_ushort', 'ushort', (6, 7, 8, 9)), ('c_int', 'int', (-10,)), ('c_uint', 'uint', (11, 12)),
               ('c_half', 'half', (0.5, 1.5, -2.0)), ('c_float', 'float', (1.0, 2.0, 3.0, 4.0)),
               ('c_double', 'double', (0.25, -0.75))]
    va = [{'type': 'position', 'format': 'float', 'size': 3, 'data': [(0, 0, 0), (1, 0, 0), (0, 1, 0)]},
          {'type': 'texcoord', 'format': 'float', 'size': 2, 'data': [(0, 0), (1, 0), (0, 1)]},
          {'type': 'normal', 'format': 'float', 'size': 3, 'data': [(0, 0, 1)] * 3}]
    for name, fmt, vals in customs:
        va.append({'type': name, 'format': fmt, 'size': len(vals), 'data': rows(vals)})
    return {'meshes': [{'name': 'tri', 'material': 'plain', 'fv': 0, 'nv': 3, 'ft': 0, 'nt': 1}],
            'num_vertexes': 3, 'varrays': va, 'triangles': [(0, 1, 2)]}


def base_static():
    """A quad with position, texcoord and normal only, plus two extension nodes."""
    va = [{'type': 'position', 'format': 'float', 'size': 3, 'data': [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]},
          {'type': 'texcoord', 'format': 'float', 'size': 2, 'data': [(0, 0), (1, 0), (1, 1), (0, 1)]},
          {'type': 'normal', 'format': 'float', 'size': 3, 'data': [(0, 0, 1)] * 4}]
    return {'meshes': [{'name': 'quad', 'material': 'plain', 'fv': 0, 'nv': 4, 'ft': 0, 'nt': 2}],
            'num_vertexes': 4, 'varrays': va, 'triangles': [(0, 1, 2), (0, 2, 3)],
            'extensions': [{'name': 'ext.first', 'data': b'DATA'}, {'name': 'ext.second', 'data': b'MORE'}]}


def base_animonly():
    """num_joints 0, two poses, one animation of three frames, no bounds (as -j less output)."""
    frames = [[[0.2 * f, 0, 0, 0, 0, 0, -1, 1, 1, 1], [0, 1, 0] + quat_z(0.4 * f) + [1, 1, 1]]
              for f in range(3)]
    return {'pose_parents': [-1, 0], 'anims': [{'name': 'walk', 'first': 0, 'count': 3, 'rate': 10.0}],
            'frames': frames}


def base_v1():
    """A version 1 file: 44-byte joints, 80-byte poses, w implicit (iqm-notes.md 1.5)."""
    m = base_anim()
    m['comment'] = b'version 1 layout'
    return m


def base_collapsed():
    """What the compiler writes when a mesh's only triangle collapses: an empty mesh and four
    zero-length vertex arrays whose offset is the file size (iqm-notes.md R7, R24)."""
    va = [{'type': t, 'format': 'float', 'size': s, 'data': []}
          for t, s in (('position', 3), ('texcoord', 2), ('normal', 3), ('tangent', 4))]
    return {'meshes': [{'name': 'gone', 'material': 'plain', 'fv': 0, 'nv': 0, 'ft': 0, 'nt': 0}],
            'num_vertexes': 0, 'varrays': va, 'empty_offsets_at_end': True}


def empty():
    """The compiler's empty IQM: the header and the 4 bytes of valign, filesize 128."""
    return build({}, valign=True)


BASES = {
    'anim.iqm': (base_anim, 2),
    'formats.iqm': (base_formats, 2),
    'static.iqm': (base_static, 2),
    'animonly.iqm': (base_animonly, 2),
    'v1.iqm': (base_v1, 1),
    'collapsed.iqm': (base_collapsed, 2),
}


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = os.path.join(here, '..', '..', 'corpus', 'iqm', 'base')
    show = '--layout' in argv
    args = [a for a in argv[1:] if a != '--layout']
    if args:
        outdir = args[0]
    os.makedirs(outdir, exist_ok=True)
    for name, (fn, version) in sorted(BASES.items()):
        lay = {}
        data = build(fn(), version=version, layout=lay)
        with open(os.path.join(outdir, name), 'wb') as fp:
            fp.write(data)
        if show:
            print('%s: %d bytes' % (name, len(data)))
            for k, (o, n) in sorted(lay.items(), key=lambda kv: kv[1][0]):
                print('  %-28s %6d +%d' % (k, o, n))
    data = empty()
    with open(os.path.join(outdir, 'empty.iqm'), 'wb') as fp:
        fp.write(data)
    if show:
        print('empty.iqm: %d bytes' % len(data))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
