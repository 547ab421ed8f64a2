/**
 * What the package's declarations cost a consumer's type-check: `tsc --extendedDiagnostics` (the TypeScript this
 * repository pins) over a file that imports oz-sdk and makes a few typed calls, with `skipLibCheck: false` (so
 * the declarations are checked too), against the same for openai-node. Each project is a temporary folder whose
 * node_modules links the built package (this repository: its `exports` and `dist/`) or openai, and @types/node.
 * The judged figure is the whole check's instantiations (deterministic; what the consumer's `tsc` does, @types/node
 * and the default libraries included, as issue 35 measured it); what each package adds over a project with an
 * empty file and the same settings, and the check times, are printed beside.
 *
 * The smoke run (it only proves the figure runs) checks both files in one project with `skipLibCheck: true`:
 * one tsc of seconds, not three of a minute; openai's alone where dist/ has no declarations (it never builds).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FigureContext } from '../figureContext.js';
import { FIGURE_NAMES } from '../figureNames.js';
import { formatRatio, judged, type FigureRow } from '../figureRow.js';

/** Issue 35: at most twice openai-node's instantiations. */
const LIMIT = 2;

const CONSUMERS = {
  empty: 'export {};\n',
  oz: `import { Oz, ToolNotFoundError } from 'oz-sdk';
const oz = new Oz({ baseURL: 'http://127.0.0.1:4010', apiKey: 'ozk_test' });
export async function main() {
  const result = await oz.tools.execute('echo', { text: 'hi' });
  const text = await oz.tools.execute('echo', { text: 'hi' }, { format: 'text' });
  const tool = await oz.tools.get('echo');
  const page = await oz.tools.list({ limit: 2 });
  const { data, error } = await oz.tools.get('echo').result();
  const { response } = await oz.tools.get('echo').withResponse();
  const missing = error instanceof ToolNotFoundError ? error.code : undefined;
  return [result.content, text.length, tool.name, page.data.length, data?.name, response.status, missing] as const;
}
`,
  openai: `import OpenAI, { NotFoundError } from 'openai';
const openai = new OpenAI({ baseURL: 'http://127.0.0.1:4010/v1', apiKey: 'sk-test' });
export async function main() {
  const completion = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
  const embedding = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' });
  const model = await openai.models.retrieve('gpt-4o');
  const page = await openai.models.list();
  const { data, response } = await openai.models.retrieve('gpt-4o').withResponse();
  const missing = await openai.models.retrieve('nope').catch((error: unknown) => (error instanceof NotFoundError ? error.status : undefined));
  return [completion.choices[0]?.message.content, embedding.data.length, model.id, page.data.length, data.id, response.status, missing] as const;
}
`,
} as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Diagnostics {
  readonly instantiations: number;
  readonly checkMs: number;
}

/** Type-checks consumer files in a project of their own and reads tsc's figures. */
function typeCheck(ctx: FigureContext, ...sources: string[]): Diagnostics {
  const skipLibCheck = ctx.mode.smoke;
  const dir = mkdtempSync(join(tmpdir(), 'oz-bench-types-'));
  try {
    const link = (name: string, target: string) => {
      mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
      symlinkSync(target, join(dir, 'node_modules', name), 'dir');
    };
    link('oz-sdk', ctx.root);
    link('openai', join(ctx.root, 'node_modules/openai'));
    link('@types/node', join(ctx.root, 'node_modules/@types/node'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const files = sources.map((source, index) => {
      writeFileSync(join(dir, `consumer${index}.ts`), source);
      return `consumer${index}.ts`;
    });
    const compilerOptions = { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck, types: ['node'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = spawnSync(process.execPath, [join(ctx.root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--extendedDiagnostics'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (tsc.status !== 0) throw new Error(`tsc failed (${tsc.status}): ${tsc.stdout.slice(0, 2000)}${tsc.stderr}`);
    const figure = (label: string) => {
      const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(tsc.stdout);
      if (!match) throw new Error(`tsc printed no "${label}": ${tsc.stdout}`);
      return Number(match[1]);
    };
    return { instantiations: figure('Instantiations'), checkMs: figure('Check time') * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function consumerTypeCheckRows(ctx: FigureContext): Promise<FigureRow[]> {
  ctx.log(`consumer type-check: tsc --extendedDiagnostics (skipLibCheck ${ctx.mode.smoke}) of a file using oz-sdk, one using openai, an empty one`);
  const declared = existsSync(join(ctx.root, 'dist/index.d.ts'));
  if (ctx.mode.smoke) {
    // The smoke run never builds: without dist/'s declarations (a fresh clone) only openai's file is checked.
    const files = declared ? [CONSUMERS.oz, CONSUMERS.openai] : [CONSUMERS.openai];
    const { instantiations } = typeCheck(ctx, ...files);
    const ours = `${declared ? 'oz and openai' : 'openai only (no dist/ declarations)'} in one check: ${instantiations.toLocaleString('en')} instantiations`;
    return [
      {
        name: FIGURE_NAMES.consumerTypeCheck,
        ours,
        anchor: '-',
        result: '-',
        target: `<= ${LIMIT.toFixed(2)}`,
        met: undefined,
        how: 'smoke run: one tsc, skipLibCheck true',
      },
    ];
  }
  if (!declared) throw new Error('no dist/index.d.ts: run `npm run build` first');
  const empty = typeCheck(ctx, CONSUMERS.empty);
  const oz = typeCheck(ctx, CONSUMERS.oz);
  const openai = typeCheck(ctx, CONSUMERS.openai);
  const ratio = oz.instantiations / openai.instantiations;
  const figures = (d: Diagnostics) =>
    `${d.instantiations.toLocaleString('en')} instantiations (+${(d.instantiations - empty.instantiations).toLocaleString('en')}), check ${seconds(d.checkMs)}`;
  const { version } = JSON.parse(readFileSync(join(ctx.root, 'node_modules/typescript/package.json'), 'utf8')) as { version: string };
  return [
    {
      name: FIGURE_NAMES.consumerTypeCheck,
      ours: figures(oz),
      anchor: `openai ${figures(openai)}`,
      result: formatRatio(ratio),
      target: `<= ${LIMIT.toFixed(2)}`,
      met: judged(ctx.mode.smoke, ratio <= LIMIT),
      how: `tsc ${version} --extendedDiagnostics, skipLibCheck false, strict, NodeNext, of a file making typed calls (execute on two wires, get, list, result(), withResponse(), an error class) against the same for openai-node (chat completion, embedding, models retrieve and list, withResponse(), an error class); (+...: over an empty file's check, ${empty.instantiations.toLocaleString('en')} instantiations, ${seconds(empty.checkMs)}: @types/node and the default libraries; check times move with the machine's load, instantiations do not); ${ctx.pkg.note}`,
    },
  ];
}
