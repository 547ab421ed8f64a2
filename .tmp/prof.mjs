import { readFileSync, readdirSync } from 'node:fs';
const dir = '.tmp/prof';
const file = readdirSync(dir).map((f) => `${dir}/${f}`).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas; const samples = p.samples;
const hits = new Map();
for (let i = 0; i < samples.length; i++) hits.set(samples[i], (hits.get(samples[i]) ?? 0) + (dt[i] ?? 0));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const total = new Map(); const selfT = new Map();
const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, 'nm/').replace(/.*wt-routes\//, '')}:${n.callFrame.lineNumber}`;
let sum = 0;
for (const [id, t] of hits) {
  sum += t;
  const n = byId.get(id); selfT.set(key(n), (selfT.get(key(n)) ?? 0) + t);
  const seen = new Set(); let cur = id;
  while (cur !== undefined) { const k = key(byId.get(cur)); if (!seen.has(k)) { seen.add(k); total.set(k, (total.get(k) ?? 0) + t); } cur = parent.get(cur); }
}
const show = (m, label) => { console.log(label); [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[2] ?? 40)).forEach(([k, t]) => console.log((100 * t / sum).toFixed(1).padStart(6), k)); };
show(total, 'TOTAL'); show(selfT, 'SELF');
const target = process.argv[3];
if (target) {
  const stacks = new Map();
  for (const [id, t] of hits) {
    const n = byId.get(id); if (!key(n).startsWith(target)) continue;
    let cur = parent.get(id); const chain = [];
    while (cur !== undefined && chain.length < 6) { chain.push(key(byId.get(cur))); cur = parent.get(cur); }
    const k = chain.join(' <- '); stacks.set(k, (stacks.get(k) ?? 0) + t);
  }
  [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 6).forEach(([k, t]) => console.log((100 * t / sum).toFixed(1), k));
}
