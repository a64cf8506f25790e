#!/usr/bin/env python3
"""make_target_bases.py - the base files of the target cases (corpus/target/base/): models past a
real loader's limits that are too large to patch out of the small IQM bases.

    python3 tests/corpus-tools/make_target_bases.py

writes (deterministic, standard library only):
  bones.iqm   257 joints in one chain and one skinned triangle: past FTE's 256 and ioquake3's 128
  big.iqm     one mesh of 1000 vertices (float x3 positions only) and 2000 triangles: past
              ioquake3's 999 vertices and 1999 triangles per mesh
The last joint of bones.iqm has a name of 45 bytes and the triangle a material of 40 (past raylib's
31)."""
import math
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "corpus", "target", "base")
HEADER = 124


def iqm(text, meshes=b"", nmeshes=0, varrays=(), nvertexes=0, tris=b"", ntris=0, joints=b"",
        njoints=0, poses=b"", nposes=0, anims=b"", nanims=0, frames=b"", nframes=0, nchannels=0):
    """Lay out an IQM 2 file: header, text, meshes, vertex arrays, data, triangles, joints, poses,
    anims, frames (each 4-aligned)."""
    body, ofs = bytearray(), {}

    def put(name, data):
        while (HEADER + len(body)) % 4:
            body.append(0)
        ofs[name] = HEADER + len(body) if data else 0
        body.extend(data)

    put("text", text)
    put("meshes", meshes)
    va_hdr_at = HEADER + len(body) + (-(HEADER + len(body)) % 4)
    put("va", b"\0" * (20 * len(varrays)))
    va_hdr = bytearray()
    for vtype, fmt, size, data in varrays:
        put("vdata", data)
        va_hdr += struct.pack("<5I", vtype, 0, fmt, size, ofs["vdata"])
    body[va_hdr_at - HEADER:va_hdr_at - HEADER + len(va_hdr)] = va_hdr
    put("tris", tris)
    put("joints", joints)
    put("poses", poses)
    put("anims", anims)
    put("frames", frames)
    size = HEADER + len(body)
    hdr = b"INTERQUAKEMODEL\0" + struct.pack(
        "<27I", 2, size, 0, len(text), ofs["text"], nmeshes, ofs["meshes"], len(varrays), nvertexes,
        va_hdr_at if varrays else 0, ntris, ofs["tris"], 0, njoints, ofs["joints"], nposes,
        ofs["poses"], nanims, ofs["anims"], nframes, nchannels, ofs["frames"], 0, 0, 0, 0, 0)
    return hdr + bytes(body)


def joint(name, parent):
    return struct.pack("<2i10f", name, parent, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1)


def triangle(text):
    """One skinned triangle bound to joint 0, as (mesh, varrays) for iqm(): its name is the text's
    first string, its material the second."""
    mesh = struct.pack("<6I", 1, text.index(b"\0", 1) + 1, 0, 3, 0, 1)
    varrays = [(0, 7, 3, struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)),
               (1, 7, 2, struct.pack("<6f", 0, 0, 1, 0, 0, 1)),
               (2, 7, 3, struct.pack("<9f", 0, 0, 1, 0, 0, 1, 0, 0, 1)),
               (4, 1, 4, bytes(12)),
               (5, 1, 4, bytes([255, 0, 0, 0]) * 3)]
    return mesh, varrays


def bones():
    text, names = b"\0tri\0a_material_name_of_forty_bytes_long.png\0", []
    for i in range(257):
        names.append(len(text))
        text += b"j%d\0" % i if i < 256 else b"the_last_joint_has_a_name_of_forty_five_bytes\0"
    joints = b"".join(joint(names[i], i - 1) for i in range(257))
    mesh, varrays = triangle(text)
    return iqm(text, meshes=mesh, nmeshes=1, varrays=varrays, nvertexes=3,
               tris=struct.pack("<3I", 0, 1, 2), ntris=1, joints=joints, njoints=257)


def big():
    nv, nt = 1000, 2000
    # on a circle of radius 1000: no three vertices on a line, so no triangle has zero area
    pos = b"".join(struct.pack("<3f", 1000 * math.cos(i * 2 * math.pi / nv),
                               1000 * math.sin(i * 2 * math.pi / nv), 0) for i in range(nv))
    tris = b"".join(struct.pack("<3I", k % (nv - 2), k % (nv - 2) + 1, k % (nv - 2) + 2)
                    for k in range(nt))
    text = b"\0grid\0"
    mesh = struct.pack("<6I", 1, 1, 0, nv, 0, nt)
    return iqm(text, meshes=mesh, nmeshes=1, varrays=[(0, 7, 3, pos)], nvertexes=nv, tris=tris, ntris=nt)


os.makedirs(OUT, exist_ok=True)
for name, make in (("bones.iqm", bones), ("big.iqm", big)):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(make())
