// usage.ts - every export of mdlcheck.mjs used as web/API.md describes it, type-checked by
// web/test/types.test.mjs with `tsc --noEmit --strict` against the declarations the package ships;
// each @ts-expect-error is a misuse the declarations must refuse.
import mdlcheck, { compare, convert, fix, poses, rules, validate, version } from './mdlcheck.js';
import type { Conversion, Entry, MdlcheckError, Poses, Repair, Report, Rule } from './mdlcheck.js';

export async function use(bytes: Uint8Array, buffer: ArrayBuffer): Promise<void> {
  const entry: Entry = await validate(bytes, { name: 'walk.iqm', profile: 'engine', failOn: 'warning' });
  const verdict: 'valid' | 'invalid' = entry.verdict;
  await validate(buffer, { resources: { files: { 'skin.png': bytes }, dirs: ['maps'] }, ignore: ['IQM-*'] });
  const p: Poses = await poses(bytes, { name: 'walk.iqm', maxInputSize: '512M' });
  const r: Report = await compare(bytes, buffer, { aName: 'a.iqm', bName: 'b.egg', severity: { 'MDL-CMP-*': 'warning' } });
  const c: Conversion = await convert(bytes, { to: 'egg', name: 'walk.iqm', acceptLoss: ['MDL-CNV-002'], targetVersion: 2 });
  const out: Uint8Array | null = c.bytes;
  const second: string = c.report.files[1].verdict;
  const fixed: Repair = await fix(bytes, { name: 'walk.iqm', profile: 'engine' });
  const repaired: Uint8Array | null = fixed.bytes;
  await mdlcheck.fix(buffer);
  // @ts-expect-error fix writes IN's own format: no target
  await fix(bytes, { to: 'iqe' });
  const all: Rule[] = await rules();
  const v: string = version();
  await mdlcheck.convert(new DataView(buffer), { to: 'iqe', acceptLoss: 'MDL-CNV-008', strict: true });
  try {
    await mdlcheck.poses(bytes);
  } catch (e) {
    const code: MdlcheckError['code'] = (e as MdlcheckError).code;
    void code;
  }
  // @ts-expect-error convert needs its target
  await convert(bytes, { name: 'walk.iqm' });
  // @ts-expect-error a target is a format's name, not a number (the names are the registry's)
  await convert(bytes, { to: 42 });
  // @ts-expect-error compare names its inputs aName and bName, not name
  await compare(bytes, bytes, { name: 'x.iqm' });
  // @ts-expect-error not a severity
  await validate(bytes, { failOn: 'severe' });
  // @ts-expect-error bytes, not a file name
  await validate('walk.iqm');
  void [verdict, p, r, out, second, repaired, all, v];
}

// the classic script's global, as mdlcheck.single.d.ts declares it
export async function useGlobal(bytes: Uint8Array): Promise<Conversion> {
  return globalThis.mdlcheck.convert(bytes, { to: 'x42' });
}
