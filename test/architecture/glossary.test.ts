/**
 * One word per idea, one idea per word. The glossaries (ARCHITECTURE.md's and the `Glossary` section of every
 * README.md under src/) define each term once; the names retired for a clearer one are no longer exported from
 * src/ (but as an alias marked `@deprecated`, where the old name was public); and "port" means a TCP port: no
 * exported type of src/ (src/generated aside) ends in `Port` unless a glossary entry says it is a TCP port.
 * Exports are read with TypeScript's own parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

function filesUnder(folder: string, accept: (name: string) => boolean): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path, accept);
    return accept(name) ? [path] : [];
  });
}

interface GlossaryEntry {
  readonly term: string;
  readonly definition: string;
  /** Where it is defined: the file and the line. */
  readonly at: string;
}

/** The lines of a `Glossary` heading's section (up to the next heading of the same or a higher level), numbered. */
function glossaryLines(text: string): { line: string; number: number }[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^#{2,4} Glossary\s*$/.test(line));
  if (start === -1) return [];
  const level = lines[start]!.indexOf(' ');
  const section: { line: string; number: number }[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const heading = /^(#+) /.exec(lines[i]!);
    if (heading && heading[1]!.length <= level) break;
    section.push({ line: lines[i]!, number: i + 1 });
  }
  return section;
}

/** A term as written, compared without case, code marks or surrounding space. */
const normalTerm = (term: string): string => term.replace(/`/g, '').trim().toLowerCase();

/** A glossary's entries: the rows of a table (`| term, other term | what it is | ... |`) or a list's `- **term**: ...`. */
function entriesOf(file: string): GlossaryEntry[] {
  const entries: GlossaryEntry[] = [];
  for (const { line, number } of glossaryLines(readFileSync(file, 'utf8'))) {
    const at = `${relative(ROOT, file)}:${number}`;
    const listItem = /^- \*\*(.+?)\*\*:?\s*(.*)$/.exec(line);
    if (listItem) {
      for (const term of listItem[1]!.split(',')) entries.push({ term: normalTerm(term), definition: listItem[2]!, at });
      continue;
    }
    const cells = line.startsWith('|')
      ? line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : [];
    if (cells.length < 2 || /^-+$/.test(cells[0]!) || cells[0] === 'term') continue;
    for (const term of cells[0]!.split(',')) entries.push({ term: normalTerm(term), definition: cells.slice(1).join(' | '), at });
  }
  return entries;
}

const GLOSSARY_FILES = [join(ROOT, 'ARCHITECTURE.md'), ...filesUnder(SRC, (name) => name === 'README.md')].filter(
  (file) => glossaryLines(readFileSync(file, 'utf8')).length > 0,
);
const ENTRIES = GLOSSARY_FILES.flatMap(entriesOf);

interface ExportedName {
  readonly name: string;
  readonly kind: 'type' | 'value';
  readonly deprecated: boolean;
  /** Declared in the file (not a re-export of another file's name). */
  readonly declared: boolean;
  readonly file: string;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** Whether a statement's own doc comment carries `@deprecated`. */
function isDeprecated(statement: ts.Statement, text: string): boolean {
  return (ts.getLeadingCommentRanges(text, statement.pos) ?? []).some((range) => text.slice(range.pos, range.end).includes('@deprecated'));
}

/** The names a file of src/ exports: its exported declarations and its `export { ... }` lists. */
function exportsOf(file: string): ExportedName[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const rel = relative(ROOT, file);
  const names: ExportedName[] = [];
  for (const statement of source.statements) {
    const deprecated = isDeprecated(statement, text);
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const kind = statement.isTypeOnly || element.isTypeOnly ? 'type' : 'value';
        names.push({ name: element.name.text, kind, deprecated, declared: false, file: rel });
      }
      continue;
    }
    if (!hasModifier(statement, ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      names.push({ name: statement.name.text, kind: 'type', deprecated, declared: true, file: rel });
    } else if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.push({ name: statement.name.text, kind: 'value', deprecated, declared: true, file: rel });
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push({ name: declaration.name.text, kind: 'value', deprecated, declared: true, file: rel });
      }
    }
  }
  return names;
}

const EXPORTS = filesUnder(SRC, (name) => name.endsWith('.ts')).flatMap(exportsOf);

/** A name retired for a clearer one: it is exported from no file under `under` (but an alias marked `@deprecated`). */
interface Retired {
  readonly old: string;
  readonly under: string;
  readonly now: string;
}

const PORT_INTERFACES: readonly Retired[] = [
  ['FixturesPort', 'FixturesNeeds'],
  ['StepPort', 'StepNeeds'],
  ['ReplayPort', 'ReplayNeeds'],
  ['PipelinePort', 'PipelineNeeds'],
  ['DispatchPort', 'DispatchNeeds'],
  ['HandlerPort', 'HandlerNeeds'],
  ['RoutingPort', 'RoutingNeeds'],
  ['KeysTabPort', 'KeysTabNeeds'],
  ['SettingsPort', 'SettingsNeeds'],
  ['EventFeedPort', 'EventFeedNeeds'],
  ['ControlPort', 'ControlNeeds'],
  ['SessionsPort', 'SessionDirectory'],
  ['ResumePort', 'ResumeNeeds'],
  ['SchedulerPort', 'SchedulerNeeds'],
  ['ItemWalkerPort', 'RunsNeeds'],
  ['RunnerPort', 'RunsNeeds'],
  ['SyncRunPort', 'SyncRunNeeds'],
].map(([old, now]) => ({ old: old!, under: 'src/testing/', now: now! }));

const RETIRED: readonly Retired[] = [
  { old: 'Answer', under: 'src/testing/', now: 'RequestOutcome (the client keeps `Answer`)' },
  { old: 'ResolvedOptions', under: 'src/', now: 'ResolvedClientOptions, ResolvedServerOptions' },
  { old: 'resolveOptions', under: 'src/', now: 'resolveClientOptions, resolveServerOptions' },
  { old: 'OPERATIONS', under: 'src/testing/', now: 'SERVER_OPERATIONS (the generated table keeps `OPERATIONS`)' },
  { old: 'OPERATIONS_BY_ID', under: 'src/testing/', now: 'SERVER_OPERATIONS_BY_ID' },
  { old: 'CallPort', under: 'src/', now: 'the chain: a step reads what it needs from the call, or hands it to `next`' },
  { old: 'Sent', under: 'src/core/', now: '`Answer` (a lost answer is its `lost`)' },
  { old: 'newTraceId', under: 'src/', now: "newIdempotencyKey (the trace is OpenTelemetry's word)" },
  { old: 'retryLoop', under: 'src/core/', now: 'retryAttempts (the retry step)' },
  { old: 'recoverCall', under: 'src/core/', now: 'recoverLostAnswer (the recovery step)' },
  { old: 'tracedAnswer', under: 'src/core/', now: 'traceSpan (the span step)' },
  ...PORT_INTERFACES,
];

describe('the glossaries', () => {
  it('are found: ARCHITECTURE.md and the folder READMEs that have one, each with entries', () => {
    const files = GLOSSARY_FILES.map((file) => relative(ROOT, file));
    expect(files).toContain('ARCHITECTURE.md');
    expect(files).toContain('src/core/README.md');
    for (const file of files) expect(ENTRIES.filter((entry) => entry.at.startsWith(`${file}:`)).length, file).toBeGreaterThan(3);
  });

  it('define each term once across all of them', () => {
    const places = new Map<string, string[]>();
    for (const entry of ENTRIES) places.set(entry.term, [...(places.get(entry.term) ?? []), entry.at]);
    const twice = [...places].filter(([, at]) => at.length > 1).map(([term, at]) => `${term}: ${at.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('use "port" only for a TCP port', () => {
    const other = ENTRIES.filter((entry) => /\bports?\b/.test(entry.term) && !/\bTCP\b/.test(entry.definition));
    expect(other.map((entry) => `${entry.at.replace(/:\d+$/, '')}: ${entry.term}`)).toEqual([]);
  });
});

describe('the names of src/', () => {
  it('export no retired name but as an alias marked @deprecated', () => {
    const found = EXPORTS.filter((e) => !e.deprecated && RETIRED.some((r) => r.old === e.name && e.file.startsWith(r.under)));
    expect(found.map((e) => `${e.file}: ${e.name} (now ${RETIRED.find((r) => r.old === e.name)!.now})`)).toEqual([]);
  });

  it('have no exported type ending in Port (src/generated and @deprecated aliases aside) unless a glossary entry says it is a TCP port', () => {
    const tcp = (name: string) => ENTRIES.some((entry) => entry.definition.includes(`\`${name}\``) && /\bTCP\b/.test(entry.definition));
    const ports = EXPORTS.filter((e) => e.kind === 'type' && !e.deprecated && e.name.endsWith('Port') && !e.file.startsWith('src/generated/') && !tcp(e.name));
    expect(ports.map((e) => `${e.file}: ${e.name}`).sort()).toEqual([]);
  });

  it('declare each retired name in one file at most', () => {
    const names = new Set([...RETIRED.map((r) => r.old), 'Executions']);
    const declared = new Map<string, string[]>();
    for (const e of EXPORTS) if (e.declared && !e.deprecated && names.has(e.name)) declared.set(e.name, [...(declared.get(e.name) ?? []), e.file]);
    const twice = [...declared].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.sort().join(', ')}`);
    expect(twice).toEqual([]);
  });
});
