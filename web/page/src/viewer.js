// viewer.js - the 3D view: mesh (skinned on the CPU), skeleton as bones and joint markers,
// animation frames from the validator's poses, and the highlighted element of a diagnostic.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const HIGHLIGHT = 0xff2d55;

function trsMatrix(p) {
  const m = new THREE.Matrix4();
  const q = new THREE.Quaternion(p.r[0], p.r[1], p.r[2], p.r[3]);
  if (q.lengthSq() > 0 && Number.isFinite(q.lengthSq())) q.normalize(); else q.identity();
  const s = p.s || [1, 1, 1];
  return m.compose(new THREE.Vector3(...p.t.map((x) => (Number.isFinite(x) ? x : 0))), q,
    new THREE.Vector3(...s.map((x) => (Number.isFinite(x) ? x : 1))));
}

// World matrices of joints from parent-relative ones; a parent out of range or on a cycle makes
// the joint a root here (the report says what is wrong with it).
function globals(joints, locals) {
  const out = new Array(joints.length);
  const visiting = new Set();
  function world(j) {
    if (out[j]) return out[j];
    const parent = joints[j].parent;
    visiting.add(j);
    const ok = Number.isInteger(parent) && parent >= 0 && parent < joints.length && !visiting.has(parent);
    out[j] = ok ? world(parent).clone().multiply(locals[j]) : locals[j].clone();
    visiting.delete(j);
    return out[j];
  }
  joints.forEach((_, j) => world(j));
  return out;
}

export class Viewer {
  constructor(container) {
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    container.appendChild(this.renderer.domElement);
    this.renderer.domElement.setAttribute('aria-hidden', 'true');
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xf4f4f0);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(3, -4, 6);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => this.render());
    container.addEventListener('keydown', (e) => this.onKey(e));
    this.root = new THREE.Group();
    this.scene.add(this.root);
    this.selection = { kind: 'none' };
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  resize() {
    const w = this.container.clientWidth || 400;
    const h = this.container.clientHeight || 300;
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  render() { this.renderer.render(this.scene, this.camera); }

  // model: the library's decoded model (model.js; or null); poses: the validator's poses (or
  // null). Up is the axis the format's description gives.
  show(model, poses) {
    this.root.clear();
    this.upAxis = model && model.upAxis === 'y' ? 'y' : 'z';
    this.model = model;
    this.poses = poses;
    this.joints = model && model.joints.length ? model.joints : (poses ? poses.joints : []);
    this.vertices = model ? model.vertices : [];
    this.triangles = model ? model.triangles.filter((t) => t.every((i) => i >= 0 && i < this.vertices.length)) : [];
    this.triangleIndex = model ? model.triangles : [];
    const locals = this.joints.map(trsMatrix);
    this.bind = globals(this.joints, locals);
    this.bindInverse = this.bind.map((m) => m.clone().invert());

    this.positions = new Float32Array(this.vertices.length * 3);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    geometry.setIndex(this.triangles.flat());
    this.mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0xb8c4d6,
      side: THREE.DoubleSide, flatShading: true, transparent: true, opacity: 0.85 }));
    this.wire = new THREE.LineSegments(new THREE.WireframeGeometry(geometry),
      new THREE.LineBasicMaterial({ color: 0x334455 }));
    const points = new THREE.BufferGeometry(); // not indexed: every vertex, used or not
    points.setAttribute('position', geometry.attributes.position);
    this.vertexMarkers = new THREE.Points(points, new THREE.PointsMaterial({ color: 0x334455, size: 4,
      sizeAttenuation: false }));
    this.root.add(this.mesh, this.wire, this.vertexMarkers);

    this.bones = new THREE.LineSegments(new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: 0x1a7f37, depthTest: false, transparent: true }));
    this.bones.renderOrder = 2;
    this.jointMarkers = new THREE.Points(new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0x1a7f37, size: 8, sizeAttenuation: false, depthTest: false,
        transparent: true }));
    this.jointMarkers.renderOrder = 2;
    this.highlight = new THREE.Group();
    this.highlight.renderOrder = 3;
    this.root.add(this.bones, this.jointMarkers, this.highlight);
    // without animation a joint holds its base pose
    this.rest = this.bind;
    this.world = this.rest;
    this.update();
    this.select(this.selection.kind === 'none' ? { kind: 'none' } : this.selection);
  }

  // Poses of one animation frame (parent-relative, or relative to the base pose: frame_space).
  setFrame(anim, frame) {
    const a = this.poses && this.poses.anims[anim];
    const f = a && a.frames && a.frames[frame];
    if (!f) { this.world = this.rest; this.update(); return; }
    const locals = this.joints.map(trsMatrix);
    for (const p of f.joints) {
      if (p.joint >= locals.length) continue;
      const m = trsMatrix(p);
      locals[p.joint] = this.poses.frame_space === 'base-pose' ? locals[p.joint].multiply(m) : m;
    }
    this.world = globals(this.joints, locals);
    this.update();
  }

  // Skins the mesh with the current joint matrices and redraws bones and highlight.
  update() {
    const skin = this.world.map((m, j) => m.clone().multiply(this.bindInverse[j]));
    const v = new THREE.Vector3();
    const acc = new THREE.Vector3();
    this.vertices.forEach((vert, i) => {
      const base = new THREE.Vector3(...vert.p.map((x) => (Number.isFinite(x) ? x : 0)));
      acc.set(0, 0, 0);
      let total = 0;
      for (const [j, w] of vert.blend) {
        const m = skin[j];
        if (!m || !Number.isFinite(w) || w <= 0) continue;
        acc.addScaledVector(v.copy(base).applyMatrix4(m), w);
        total += w;
      }
      const p = total > 0 ? acc.multiplyScalar(1 / total) : base;
      this.positions.set([p.x, p.y, p.z], i * 3);
    });
    this.mesh.geometry.attributes.position.needsUpdate = true;
    this.mesh.geometry.computeVertexNormals();
    this.mesh.geometry.computeBoundingSphere();
    this.vertexMarkers.geometry.computeBoundingSphere();
    this.wire.geometry.dispose();
    this.wire.geometry = new THREE.WireframeGeometry(this.mesh.geometry);
    const heads = this.world.map((m) => new THREE.Vector3().setFromMatrixPosition(m));
    const segs = [];
    this.joints.forEach((j, k) => {
      if (j.parent >= 0 && j.parent < heads.length) segs.push(...heads[j.parent].toArray(), ...heads[k].toArray());
    });
    this.bones.geometry.dispose();
    this.bones.geometry = new THREE.BufferGeometry();
    this.bones.geometry.setAttribute('position', new THREE.Float32BufferAttribute(segs, 3));
    this.jointMarkers.geometry.dispose();
    this.jointMarkers.geometry = new THREE.BufferGeometry().setFromPoints(heads);
    this.heads = heads;
    this.drawHighlight();
    this.render();
  }

  frame() {
    const yUp = this.upAxis === 'y';
    this.camera.up.set(0, yUp ? 1 : 0, yUp ? 0 : 1);
    const box = new THREE.Box3();
    for (let i = 0; i < this.positions.length; i += 3) box.expandByPoint(new THREE.Vector3().fromArray(this.positions, i));
    for (const h of this.heads || []) box.expandByPoint(h);
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
    const centre = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.5);
    const eye = yUp ? new THREE.Vector3(1.2, 1.4, 2.2) : new THREE.Vector3(1.2, -2.2, 1.4);
    this.camera.position.copy(centre).add(eye.multiplyScalar(radius * 1.3));
    this.camera.near = radius / 100;
    this.camera.far = radius * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
  }

  // The keyboard's view: arrows turn the model 15 degrees, + and - zoom, Home frames it again.
  onKey(event) {
    const step = Math.PI / 12;
    const turns = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const zoom = { '+': 0.8, '=': 0.8, '-': 1.25, _: 1.25 };
    if (event.key === 'Home') this.frame();
    else if (turns[event.key]) this.orbit(...turns[event.key], 1);
    else if (zoom[event.key]) this.orbit(0, 0, zoom[event.key]);
    else return;
    event.preventDefault();
    this.render();
  }

  // Turns the camera about the target (azimuth about the up axis, then elevation) and scales
  // its distance, as a mouse drag and wheel would.
  orbit(azimuth, polar, scale) {
    const target = this.controls.target;
    const toYUp = new THREE.Quaternion().setFromUnitVectors(this.camera.up, new THREE.Vector3(0, 1, 0));
    const offset = this.camera.position.clone().sub(target).applyQuaternion(toYUp);
    const sph = new THREE.Spherical().setFromVector3(offset);
    sph.theta -= azimuth;
    sph.phi = Math.min(Math.PI - 0.01, Math.max(0.01, sph.phi + polar));
    sph.radius *= scale;
    offset.setFromSpherical(sph).applyQuaternion(toYUp.invert());
    this.camera.position.copy(target).add(offset);
    this.camera.lookAt(target);
    this.controls.update();
  }

  // selection: { kind: 'joint'|'triangle'|'vertex'|'file'|'none', index }
  select(selection) {
    this.selection = selection;
    this.drawHighlight();
    this.render();
  }

  drawHighlight() {
    if (!this.highlight) return;
    this.highlight.clear();
    const s = this.selection;
    // transparent (opacity 1) so that they draw after the see-through mesh, on top of it
    const mat = new THREE.LineBasicMaterial({ color: HIGHLIGHT, depthTest: false, transparent: true });
    const pointMat = new THREE.PointsMaterial({ color: HIGHLIGHT, size: 16, sizeAttenuation: false,
      depthTest: false, transparent: true });
    const pos = (i) => new THREE.Vector3().fromArray(this.positions, i * 3);
    if (s.kind === 'joint' && this.heads && s.index < this.heads.length) {
      const head = this.heads[s.index];
      this.highlight.add(new THREE.Points(new THREE.BufferGeometry().setFromPoints([head]), pointMat));
      const p = this.joints[s.index].parent;
      if (p >= 0 && p < this.heads.length)
        this.highlight.add(new THREE.Line(new THREE.BufferGeometry().setFromPoints([this.heads[p], head]), mat));
    } else if (s.kind === 'triangle' && !s.dropped && s.index < this.triangleIndex.length) {
      const t = this.triangleIndex[s.index].filter((i) => i >= 0 && i < this.vertices.length);
      const pts = t.map(pos);
      if (pts.length === 3) {
        const g = new THREE.BufferGeometry().setFromPoints(pts);
        this.highlight.add(new THREE.Mesh(g, new THREE.MeshBasicMaterial({ color: HIGHLIGHT,
          side: THREE.DoubleSide, depthTest: false, transparent: true, opacity: 0.6 })));
      }
      this.highlight.add(new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(pts), mat));
      this.highlight.add(new THREE.Points(new THREE.BufferGeometry().setFromPoints(pts), pointMat));
    } else if (s.kind === 'vertex' && s.index < this.vertices.length) {
      this.highlight.add(new THREE.Points(new THREE.BufferGeometry().setFromPoints([pos(s.index)]), pointMat));
    }
    this.highlight.children.forEach((c) => { c.renderOrder = 3; });
  }
}
