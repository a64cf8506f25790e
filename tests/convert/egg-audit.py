#!/usr/bin/env python3
"""egg-audit.py - no conversion of an Egg reports `lossless` or `within the bound` while something
was dropped (issue 29's Done line). For each Egg source the conversion matrix converted to another
format without a loss announced, every entry and every <Scalar> of the source is classified, by a
tokenizer and a table of its own (spec/formats/core.md 4.13, written again here, not the C code's),
as carried, no loss, or dropped; a dropped one, or one the table does not know, is a failure.

usage: egg-audit.py RESULTS SAMPLES SRCDIR  (RESULTS: the matrix's tab-separated lines)"""
import re
import sys
import zlib

TOK = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|\{|\}|<[^>]*>|[^\s{}"<]+')
PRIMS = {'<polygon>', '<trianglefan>', '<trianglestrip>'}  # what the model makes triangles of
GROUPS = {'<group>', '<joint>', '<instance>'}

# Entries carried by the model, or no loss (core.md 4.13 "Not losses"); the others below.
KEPT = {'<coordinatesystem>', '<comment>', '<vertexpool>', '<vertex>', '<uv>', '<normal>', '<rgba>',
        '<tangent>', '<binormal>', '<group>', '<joint>', '<table>', '<bundle>', '<xfm$anim>',
        '<xfm$anim_s$>', '<v>', '<vertexref>', '<ref>', '<mref>', '<dcs>', '<model>', '<dart>',
        '<texlist>', '<animpreload>', '<translate>', '<rotate>', '<rotx>', '<roty>', '<rotz>',
        '<scale>', '<matrix3>', '<matrix4>', '<polygon>', '<trianglefan>', '<trianglestrip>'}
DROPPED = {'<collide>', '<switchcondition>', '<distance>', '<pointlight>', '<line>', '<patch>',
           '<nurbscurve>', '<nurbssurface>', '<dxyz>', '<dnormal>', '<drgba>', '<duv>', '<aux>',
           '<billboard>', '<tag>', '<objecttype>', '<file>'}

NEAREST = {'nearest', 'point', 'nearest_mipmap_nearest', 'nearest_mipmap_linear', 'mipmap_point',
           'mipmap_linear'}
COMBINE = {'combine_rgb': 'modulate', 'combine_alpha': 'modulate',
           'combine_rgb_source0': 'previous', 'combine_rgb_operand0': 'src_color',
           'combine_rgb_source1': 'texture', 'combine_rgb_operand1': 'src_color',
           'combine_rgb_source2': 'constant', 'combine_rgb_operand2': 'src_alpha',
           'combine_alpha_source0': 'previous', 'combine_alpha_operand0': 'src_alpha',
           'combine_alpha_source1': 'texture', 'combine_alpha_operand1': 'src_alpha',
           'combine_alpha_source2': 'constant', 'combine_alpha_operand2': 'src_alpha'}


def word(s):
    """Panda3D's cmp_nocase_uh: any case, '-' equal to '_'."""
    return s.lower().replace('-', '_')


def num(v, default):
    try:
        return float(v) == default
    except ValueError:
        return False


def scalar_lost(where, name, v):
    """None when the <Scalar> `name { v }` at `where` (texture, group, prim) changes nothing drawn
    in the target, else why it is a loss."""
    n, w = word(name), word(v)
    if n == 'alpha':
        # eggSyntax <Scalar> alpha: "If alpha-type is OFF, it means not to enable transparency,
        # even if the image contains an alpha channel": opaque, as every target draws
        return None if w == 'off' else 'a transparency mode'
    if n in ('bin', 'draw_order'):
        return 'a draw order'
    if n == 'depth_offset':
        return None if num(v, 0) else 'a depth offset'
    if n in ('depth_write', 'depth_test'):
        return None if w == 'on' else 'depth ' + w
    if n == 'visibility':
        return None if w == 'normal' else 'hidden'
    if where == 'texture':
        if n in ('wrap', 'wrapu', 'wrapv'):
            return None if w == 'repeat' else 'wrap ' + w
        if n in ('minfilter', 'magfilter'):
            return 'point sampling' if w in NEAREST else None
        if n in ('lod_bias', 'min_lod', 'max_lod'):
            return None if num(v, {'lod_bias': 0, 'min_lod': -1000, 'max_lod': 1000}[n]) else n
        if n == 'envtype':
            return None if w == 'modulate' else 'envtype ' + w
        if n in COMBINE:
            return None if w == COMBINE[n] else n + ' ' + w
        if n in ('tex_gen',):
            return 'tex-gen'
        if n in ('rgb_scale', 'alpha_scale'):
            return None if num(v, 1) else n
        if n == 'type':
            return None if w in ('2d', '2d_texture', '2dtexture') else 'type ' + w
        if n in ('multiview', 'read_mipmaps'):
            return None if num(v, 0) else n
        if n == 'format':
            return 'one-channel format' if w in ('alpha', 'red', 'green', 'blue') else None
        if n == 'alpha_file':
            return 'an alpha file'
        if n in ('wrapw', 'magfilteralpha', 'magfiltercolor', 'borderr', 'borderg', 'borderb',
                 'bordera', 'anisotropic_degree', 'compression', 'quality_level', 'priority',
                 'stage_name', 'alpha_file_channel', 'saved_result', 'blendr', 'blendg', 'blendb',
                 'blenda', 'num_views'):
            return None
        if n == 'uv_name':
            return 'uv-name (check the UV sets by hand)'
    if where == 'group':
        if n in ('decal', 'direct', 'no_fog', 'polylight', 'occluder', 'portal'):
            return None if num(v, 0) else n
        if n == 'blend':
            return None if w == 'none' else 'blend ' + w
        if n in ('collide_mask', 'from_collide_mask', 'into_collide_mask'):
            return n
        if n.startswith('scroll_'):
            return None if num(v, 0) else n
        if n in ('fps', 'indexed', 'decalbase', 'blendop_a', 'blendop_b', 'blendr', 'blendg',
                 'blendb', 'blenda'):
            return None
    if where == 'prim' and n in ('thick', 'perspective'):
        return None
    return 'not classified'


def tree(text):
    """The entries as (kind, name, values, children, parent) lists, roots first."""
    root = ['ROOT', None, [], [], None]
    cur, pending = root, None
    for m in TOK.finditer(text):
        t = m.group(0)
        if t.startswith('//'):
            continue
        if t.startswith('<') and t.endswith('>'):
            pending = [t.lower(), None]
        elif t == '{':
            kind, name = pending if pending else ('?', None)
            node = [kind, name, [], [], cur]
            cur[3].append(node)
            cur, pending = node, None
        elif t == '}':
            cur = cur[4] or root
        elif pending and pending[1] is None:
            pending[1] = t.strip('"')
        else:
            cur[2].append(t.strip('"'))
    return root


def walk(n):
    for c in n[3]:
        yield c
        yield from walk(c)


def load(path):
    data = open(path, 'rb').read()
    return tree((zlib.decompress(data) if path.endswith('.pz') else data).decode('latin-1'))


def unused_files(path):
    """The files only <Texture>s no <TRef> names name (with their alpha-files): Panda3D never
    loads them, so a conversion need not name them (the matrix's reference check)."""
    root = load(path)
    # Panda3D's parser (egg/parser.yxx, texture_name) resolves a <TRef> to the last <Texture> of
    # its name read before it, wherever in the file: one name table, at any depth
    last, used = {}, set()
    for n in walk(root):
        if n[0] == '<texture>' and n[4][0] not in PRIMS:
            last[n[1]] = id(n)
        elif n[0] == '<tref>' and n[2] and n[2][0] in last:
            used.add(last[n[2][0]])
    files = {}
    for n in walk(root):
        if n[0] == '<texture>' and n[4][0] not in PRIMS and n[2]:
            names = [n[2][0]] + [c[2][0] for c in n[3] if c[0] in ('<scalar>', '<char*>') and
                                 word(c[1] or '') == 'alpha_file' and c[2]]
            for f in names:
                files[f] = files.get(f, False) or id(n) in used
    return {f for f, u in files.items() if not u}


def pools(root):
    """Each <VertexPool>'s vertices by number: its own, an omitted one the highest so far + 1
    (the first 1), a repeated number keeping the first vertex."""
    out = {}
    for n in walk(root):
        if n[0] != '<vertexpool>':
            continue
        verts, nxt = {}, 1
        for v in n[3]:
            if v[0] != '<vertex>':
                continue
            try:
                num = int(v[1]) if v[1] is not None else nxt
            except ValueError:
                continue
            verts.setdefault(num, v)
            nxt = max(nxt, num + 1)
        out.setdefault(n[1] or '', verts)
    return out


def attr(n, kind):
    """The values of n's last `kind` child (<Normal>, <RGBA>), or None."""
    found = [c[2] for c in n[3] if c[0] == kind]
    return found[-1] if found else None


def same(kind, a, b):
    """Whether component value a draws as vertex value b: normals as 32-bit floats (none is no
    normal), colours as bytes (none is opaque white, what a reader without colours shows)."""
    import struct

    def f32(x):
        return struct.unpack('f', struct.pack('f', float(x)))[0]

    def byte(x):
        return min(255, max(0, int(float(x) * 255 + 0.5)))
    if kind == '<normal>':
        return b is not None and all(f32(x) == f32(y) for x, y in zip(a[:3], b[:3]))
    a, b = (a or ['1'] * 4)[:4], (b or ['1'] * 4)[:4]
    return all(byte(x) == byte(y) for x, y in zip(a, b))


def component_lost(comp, prim, vpools):
    """eggSyntax <TriangleStrip>: "the individual triangles of a triangle strip [may] have a
    separate normal and/or color" (<Component> index, drawn flat). Written per vertex, the
    triangle draws the same only when each of its three vertices carries that value (its own,
    else the primitive's)."""
    verts = []
    for vr in prim[3]:
        if vr[0] == '<vertexref>':
            ref = [c[2][0] for c in vr[3] if c[0] == '<ref>' and c[2]]
            pool = vpools.get(ref[0] if ref else '', {})
            verts += [pool.get(int(float(i))) for i in vr[2]]
    try:
        k = int(comp[1])
    except (TypeError, ValueError):
        return True
    if k < 0 or k + 2 >= len(verts):
        return True
    tri = [verts[0] if prim[0] == '<trianglefan>' else verts[k], verts[k + 1], verts[k + 2]]
    for c in comp[3]:
        if c[0] in ('<normal>', '<rgba>'):
            for v in tri:
                if v is None or not same(c[0], c[2], attr(v, c[0]) or attr(prim, c[0])):
                    return True
    return False


def audit(path):
    root = load(path)
    vpools = pools(root)
    lost = []
    first_tex, later_tex = set(), set()
    used_mat = set()
    for n in walk(root):
        if n[0] in PRIMS:
            trefs = [c[2][0] for c in n[3] if c[0] == '<tref>' and c[2]]
            first_tex.update(trefs[:1])
            later_tex.update(trefs[1:])
        if n[0] == '<mref>' and n[2]:
            used_mat.add(n[2][0])
    for n in walk(root):
        kind, name, vals, kids, parent = n
        pk = parent[0]
        if kind in ('<scalar>', '<char*>'):
            where = ('texture' if pk == '<texture>' else 'group' if pk in GROUPS
                     else 'prim' if pk in PRIMS else None)
            if where == 'texture' and parent[1] not in first_tex:
                continue  # unused (no loss) or dropped whole (checked below)
            if where is None:
                if pk == '<material>' and parent[1] in used_mat:
                    lost.append('<Material> %s colours' % parent[1])
                continue  # animation tables, materials unused, points, NURBS: below
            why = scalar_lost(where, name or '', vals[0] if vals else '')
            if why:
                lost.append('%s <Scalar> %s { %s }: %s' % (pk, name, ' '.join(vals), why))
        elif kind == '<texture>' and pk not in PRIMS:
            if name in later_tex and name not in first_tex:
                lost.append('<Texture> %s: a second texture' % name)
        elif kind == '<texture>' or kind == '<tref>':
            continue  # an inline texture or a reference: the mesh's material or checked above
        elif kind == '<transform>':
            if pk == '<texture>' and kids and parent[1] in first_tex:
                lost.append('<Texture> %s: a texture matrix' % parent[1])
        elif kind == '<material>':
            continue  # its scalars are judged above
        elif kind in ('<bface>', '<switch>'):
            if vals and vals[0] not in ('0', '0.0'):
                lost.append(kind)
        elif kind == '<s$anim>':
            if pk != '<xfm$anim_s$>':
                lost.append('a morph slider table')
        elif kind == '<component>':
            if pk in ('<trianglestrip>', '<trianglefan>') and kids and component_lost(n, parent, vpools):
                lost.append('per-triangle attributes')
        elif kind in DROPPED:
            lost.append(kind)
        elif kind not in KEPT:
            lost.append(kind + ': not classified')
    return sorted(set(lost))


def main():
    results, samples, srcdir = sys.argv[1:4]
    fails = checked = 0
    seen = {}
    for line in open(results):
        fmt, label, target, outcome = line.rstrip('\n').split('\t')[:4]
        if fmt != 'egg' or target == 'egg' or outcome not in ('lossless', 'bound'):
            continue
        if label.startswith('samples/'):
            path = samples + '/' + label[len('samples/'):]
        else:
            path = srcdir + '/' + label
        if path not in seen:
            seen[path] = audit(path)
        checked += 1
        for what in seen[path]:
            print('FAIL: %s -> %s is %s but drops %s' % (label, target, outcome, what))
            fails += 1
    print('egg audit: %d conversions of %d Egg sources without an announced loss, %d dropping '
          'something' % (checked, len(seen), fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
