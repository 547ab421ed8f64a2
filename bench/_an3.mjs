import * as esbuild from 'esbuild';
const [file, names] = process.argv[2].split(':');
const r = await esbuild.build({ stdin: { contents: `export { ${names} } from ${JSON.stringify(process.cwd()+'/'+file)};`, resolveDir: process.cwd(), sourcefile: 'e.ts', loader: 'ts' }, bundle: true, minify: true, format: 'esm', platform: 'node', target: 'es2022', splitting: true, outdir: '/bo', write: false, metafile: true, logLevel: 'silent', tsconfig: 'tsconfig.json' });
const rows = [];
for (const [k, o] of Object.entries(r.metafile.outputs)) { if (!k.endsWith('.js')) continue; for (const [i, v] of Object.entries(o.inputs)) rows.push([v.bytesInOutput, k.includes('stdin') ? 'I' : 'L', i]); }
rows.sort((a,b)=>b[0]-a[0]);
let I=0; for (const r of rows) if (r[1]==='I') I+=r[0];
console.log('initial min', I);
for (const r of rows.filter(r=>r[1]==='I').slice(0, +process.argv[3] || 60)) console.log(r.join(' '));
