import type { Metafile } from 'esbuild';

/**
 * The chunks of an esbuild build that load with its entry point: the entry's chunk and every chunk it reaches by
 * static imports (dynamic imports are the lazy ones). Returns the entry's output key and that set.
 */
export function initialChunks(outputs: Metafile['outputs']): { entryKey: string; initial: Set<string> } {
  // A lazy chunk has an entryPoint too (the module a dynamic import names): the entry is the one nothing imports.
  const imported = new Set(Object.values(outputs).flatMap((output) => output.imports.map((i) => i.path)));
  const entryKey = Object.keys(outputs).find((key) => outputs[key]!.entryPoint !== undefined && !imported.has(key))!;
  const initial = new Set<string>();
  const visit = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const imported of outputs[key]!.imports) if (imported.kind === 'import-statement' && outputs[imported.path]) visit(imported.path);
  };
  visit(entryKey);
  return { entryKey, initial };
}
