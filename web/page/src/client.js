// client.js - the page's side of the worker: one validation at a time, in order, with progress.
/* global __WORKER_SOURCE__ */

export class ValidatorClient {
  constructor() {
    // A worker from a Blob URL: a file:// page may not start a worker from a file or a module.
    const url = URL.createObjectURL(new Blob([__WORKER_SOURCE__], { type: 'text/javascript' }));
    this.worker = new Worker(url);
    this.pending = new Map();
    this.next = 1;
    this.chain = Promise.resolve();
    this.sent = new Set(); // groups of files the worker holds
    this.worker.onmessage = (event) => {
      const msg = event.data;
      const job = this.pending.get(msg.id);
      if (!job) return;
      if (msg.type === 'progress') { job.onProgress(msg.stage, msg.fraction); return; }
      this.pending.delete(msg.id);
      if (msg.type === 'done') job.resolve(msg);
      else job.reject(new Error(msg.message));
    };
    this.worker.onerror = (event) => {
      for (const job of this.pending.values()) job.reject(new Error(event.message || 'worker failed'));
      this.pending.clear();
    };
  }

  // Resolves with the formats the library knows (name, extensions, up_axis: its registry).
  formats() {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve: (msg) => resolve(msg.formats), reject, onProgress: () => {} });
      this.worker.postMessage({ id, type: 'formats' });
    });
  }

  // Resolves with { report, poses, posesError, model, modelError, version }; bytes is copied, the caller keeps it.
  // group: null, or { id, files: Map(name -> bytes), dirs } for a model dropped with other files
  // (the files are copied to the worker once per group id).
  validate(name, bytes, opts, onProgress = () => {}, group = null) {
    const run = () => new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject, onProgress });
      const copy = bytes.slice().buffer;
      let g = null;
      if (group) {
        g = { id: group.id, dirs: group.dirs };
        if (!this.sent.has(group.id)) { g.files = group.files; this.sent.add(group.id); }
      }
      this.worker.postMessage({ id, name, bytes: copy, opts, group: g }, [copy]);
    });
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => {});
    return result;
  }
}
