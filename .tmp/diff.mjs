import { readFileSync, readdirSync } from 'node:fs';
function load(dir) {
  const file = readdirSync(dir).map((f) => `${dir}/${f}`).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0];
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n])); const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map(); for (let i = 0; i < p.samples.length; i++) hits.set(p.samples[i], (hits.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/.*node_modules\//, 'nm/').replace(/.*wt-routes\//, '')}:${n.callFrame.lineNumber}`;
  const total = new Map(); const self = new Map();
  for (const [id, t] of hits) { const k0 = key(byId.get(id)); self.set(k0, (self.get(k0) ?? 0) + t);
    const seen = new Set(); let cur = id; while (cur !== undefined) { const k = key(byId.get(cur)); if (!seen.has(k)) { seen.add(k); total.set(k, (total.get(k) ?? 0) + t); } cur = parent.get(cur); } }
  return { total, self };
}
const m = load('.tmp/prof-mount'), h = load('.tmp/prof-hand');
const which = process.argv[2] ?? 'total';
const keys = new Set([...m[which].keys(), ...h[which].keys()]);
const rows = [...keys].map((k) => [k, ((m[which].get(k) ?? 0) - (h[which].get(k) ?? 0)) / 1000 / 3000 * 1000]).sort((a, b) => b[1] - a[1]);
console.log('µs per call, mount minus hand ('+which+')');
rows.slice(0, Number(process.argv[3] ?? 45)).forEach(([k, d]) => console.log(d.toFixed(1).padStart(7), k));
