import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
const entry = process.argv[2];
const r = await esbuild.build({ entryPoints: { entry }, bundle: true, minify: true, format: 'esm', platform: 'node', target: 'es2022', splitting: true, outdir: '/bo', write: false, metafile: true, logLevel: 'silent' });
const byInput = new Map();
let tot=0, gz=0;
for (const f of r.outputFiles) { if (!f.path.endsWith('.js')) continue; tot += f.contents.length; gz += gzipSync(f.contents,{level:9}).length; }
for (const [k, o] of Object.entries(r.metafile.outputs)) for (const [i, v] of Object.entries(o.inputs)) {
  const key = i.replace(/^node_modules\/([^/]+(\/[^/]+)?).*/, (m, p) => 'nm:' + (p.startsWith('@') ? p : p.split('/')[0]));
  byInput.set(key, (byInput.get(key) ?? 0) + v.bytesInOutput);
}
console.log('total min', tot, 'gz', gz);
for (const [k, v] of [...byInput].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(v, k);
