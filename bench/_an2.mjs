import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
import { initialChunks } from './initialChunks.ts';
const arg = process.argv[2];
const input = arg.includes(':') ? { stdin: { contents: `export { ${arg.split(':')[1]} } from ${JSON.stringify(process.cwd()+'/'+arg.split(':')[0])};`, resolveDir: process.cwd(), sourcefile: 'e.js', loader: 'js' } } : { entryPoints: { entry: arg } };
const r = await esbuild.build({ ...input, bundle: true, minify: true, format: 'esm', platform: 'node', target: 'es2022', splitting: true, outdir: '/bo', write: false, metafile: true, logLevel: 'silent' });
const { initial } = initialChunks(r.metafile.outputs);
let ig=0, tg=0;
for (const f of r.outputFiles) { if (!f.path.endsWith('.js')) continue; const g = gzipSync(f.contents,{level:9}).length; const key = Object.keys(r.metafile.outputs).find(k => f.path.endsWith(k.replace(/^.*bo/, '')));
 const ini = initial.has(key); tg += g; if (ini) ig += g;
 const top = Object.entries(r.metafile.outputs[key].inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,4).map(([k,v])=>k.replace(/.*\//,'')+':'+v.bytesInOutput).join(' ');
 console.log(ini?'INIT':'lazy', f.contents.length, g, key, top); }
console.log('initial gz', ig, 'total gz', tg);
