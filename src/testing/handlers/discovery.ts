import type { DiscoveryKind, DiscoveryResult } from '../../generated/types.js';
import type { OperationHandler } from '../pipeline/operationHandler.js';
import { paginate } from './shared/pagination.js';
import { fenceAdmits } from './shared/toolFence.js';

const KIND_ORDER: Readonly<Record<DiscoveryKind, number>> = { agent: 0, tool: 1, workflow: 2 };

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * How well an entry matches the query words, from 0 to 1: a word equal to the name counts 1, a word in the
 * name 0.8, a word in the description 0.5; the mean over the query's words. An empty query scores 1.
 */
export function score(query: readonly string[], name: string, description: string): number {
  if (query.length === 0) return 1;
  const nameWords = words(name);
  const descriptionWords = new Set(words(description));
  let total = 0;
  for (const q of query) {
    if (name.toLowerCase() === q || nameWords.includes(q)) total += 1;
    else if (name.toLowerCase().includes(q)) total += 0.8;
    else if (descriptionWords.has(q) || [...descriptionWords].some((w) => w.startsWith(q))) total += 0.5;
  }
  return Math.round((total / query.length) * 1000) / 1000;
}

/** `GET /v1/discovery`: agents, tools and the account's workflows, best match first. */
export const searchDiscovery: OperationHandler = (ctx) => {
  const q = ctx.query('q') ?? '';
  const kind = ctx.query('kind');
  const { catalog, data } = ctx.parts.store;
  const entries: Array<{ kind: DiscoveryKind; name: string; description: string }> = [
    ...[...catalog.agents.values()].filter((a) => fenceAdmits(ctx, a.name)).map((a) => ({ kind: 'agent' as const, name: a.name, description: a.description })),
    ...[...catalog.tools.values()].filter((t) => fenceAdmits(ctx, t.name)).map((t) => ({ kind: 'tool' as const, name: t.name, description: t.description })),
    ...[...data.workflows.values()]
      .filter((w) => w.account === ctx.account.name)
      .map((w) => ({ kind: 'workflow' as const, name: w.name, description: w.description ?? '' })),
  ];
  const query = words(q);
  const ranked: DiscoveryResult[] = entries
    .filter((e) => kind === undefined || e.kind === kind)
    .map((e) => ({ ...e, score: score(query, e.name, e.description) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name));
  return ctx.reply(200, {
    kind: 'record',
    value: paginate(
      ctx,
      ranked,
      (r) => `${r.kind}:${r.name}`,
      (r) => r,
    ),
  });
};
