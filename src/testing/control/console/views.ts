import { h, isoOf, table, type Child } from './dom.js';
import { unusedLines } from './unusedModel.js';

/** A journal entry as the control plane lists it (the fields the page shows). */
export interface EntryView {
  readonly requestId: string;
  readonly operationId: string | null;
  readonly method: string;
  readonly path: string;
  readonly status: number | null;
  readonly account: string | null;
  readonly fault: string | null;
  /** A proxy stub sent it on to this URL (`null`: the server answered). */
  readonly proxied?: string | null;
  readonly time: string;
}

/** One row of the journal's table. */
export function journalRow(entry: EntryView): HTMLTableRowElement {
  const cells: Child[] = [
    entry.time,
    entry.method,
    entry.path,
    entry.status ?? '–',
    entry.operationId ?? '–',
    entry.account ?? '–',
    entry.fault ?? '–',
    entry.proxied ?? '–',
  ];
  return h('tr', { 'data-request-id': entry.requestId }, ...cells.map((cell) => h('td', {}, cell)));
}

/** The journal table's column headings. */
export const JOURNAL_HEADINGS = ['Time', 'Method', 'Path', 'Status', 'Operation', 'Account', 'Fault', 'Proxied to'] as const;

interface StateDocument {
  readonly saved_at: string;
  readonly accounts: ReadonlyArray<{
    name: string;
    tier: string;
    companies: ReadonlyArray<{ slug: string; buildings: ReadonlyArray<{ slug: string; kind: string; pipeline: ReadonlyArray<{ id: string }> }> }>;
  }>;
  readonly keys: ReadonlyArray<{
    id: string;
    account: string;
    kind: string;
    name: string;
    preview: string;
    created_at: number;
    expires_at: number | null;
    revoked_at: number | null;
  }>;
  readonly items: ReadonlyArray<{
    id: string;
    account: string;
    campus: string;
    building: string;
    title: string;
    step: string;
    status: string;
    attempt: number;
  }>;
  readonly executions: ReadonlyArray<{ id: string; account: string; kind: string; target: string; status: string; created_at: number }>;
  readonly schedules: ReadonlyArray<{ id: string; account: string; name: string; cron: string; enabled: boolean; next_run_at: number | null }>;
}

/**
 * An item's walk through its building: intake, each pipeline step, done; the steps before the item's own are
 * walked (the walk goes in order), its own is where it is now.
 */
export function itemWalk(step: string, pipeline: ReadonlyArray<{ id: string }> | undefined): HTMLOListElement {
  const steps = ['intake', ...(pipeline ?? []).map((s) => s.id), 'done'];
  const here = steps.indexOf(step);
  const list = h('ol', { class: 'walk', 'aria-label': 'Walk' });
  if (here < 0) {
    list.append(h('li', { class: 'here', 'aria-current': 'step' }, step));
    return list;
  }
  steps.forEach((name, i) => {
    const mark = i < here ? 'walked' : i === here ? 'here' : 'ahead';
    list.append(h('li', { class: mark, ...(i === here ? { 'aria-current': 'step' } : {}) }, name, h('span', { class: 'visually-hidden' }, ` (${mark})`)));
  });
  return list;
}

/** The state view's content: companies and buildings, items with their walk, executions, schedules, keys. */
export function stateContent(doc: StateDocument): HTMLElement {
  const buildings = new Map<string, ReadonlyArray<{ id: string }>>();
  const companyRows: Child[][] = [];
  for (const account of doc.accounts) {
    for (const company of account.companies) {
      for (const building of company.buildings) {
        buildings.set(`${account.name}/${company.slug}/${building.slug}`, building.pipeline);
        companyRows.push([account.name, company.slug, building.slug, building.kind, building.pipeline.map((s) => s.id).join(' → ') || '–']);
      }
      if (company.buildings.length === 0) companyRows.push([account.name, company.slug, '–', '–', '–']);
    }
  }
  return h(
    'div',
    {},
    h('p', {}, `State at ${doc.saved_at}.`),
    h('h3', {}, 'Companies and buildings'),
    table('Companies and their buildings', ['Account', 'Company', 'Building', 'Kind', 'Pipeline'], companyRows),
    h('h3', {}, 'Items'),
    table(
      'Items with the steps they walked',
      ['Item', 'Title', 'Where', 'Status', 'Attempt', 'Walk'],
      doc.items.map((i) => [
        i.id,
        i.title,
        `${i.campus}/${i.building}`,
        i.status,
        i.attempt,
        itemWalk(i.step, buildings.get(`${i.account}/${i.campus}/${i.building}`)),
      ]),
    ),
    h('h3', {}, 'Executions'),
    table(
      'Executions and their status',
      ['Execution', 'Kind', 'Target', 'Status', 'Account', 'Created'],
      doc.executions.map((e) => [e.id, e.kind, e.target, e.status, e.account, isoOf(e.created_at)]),
    ),
    h('h3', {}, 'Schedules'),
    table(
      'Schedules',
      ['Schedule', 'Name', 'Cron', 'Enabled', 'Next run', 'Account'],
      doc.schedules.map((s) => [s.id, s.name, s.cron, s.enabled ? 'yes' : 'no', isoOf(s.next_run_at), s.account]),
    ),
    h('h3', {}, 'Keys'),
    table(
      'Keys (values are never shown: only their last characters)',
      ['Key', 'Name', 'Kind', 'Account', 'Value', 'Expires', 'Revoked'],
      doc.keys.map((k) => [
        k.id,
        k.name,
        k.kind,
        k.account,
        k.preview,
        k.expires_at === null ? 'never' : isoOf(k.expires_at),
        k.revoked_at === null ? 'no' : isoOf(k.revoked_at),
      ]),
    ),
  );
}

/**
 * What never fired, from `GET /_oz/unused` (`{ faults, stubs }`): each with where its sequence stands and its near
 * misses (the requests that came closest, with the fields that differed).
 */
export function unusedContent(unused: unknown): HTMLElement {
  const lines = unusedLines(unused);
  if (lines.length === 0) return h('p', {}, 'Every armed fault and stub fired.');
  return h(
    'ul',
    { class: 'unused' },
    ...lines.map((line) =>
      h(
        'li',
        { 'data-id': line.id },
        line.title,
        line.sequence === null ? null : ` (${line.sequence})`,
        line.nearMisses.length === 0
          ? h('p', {}, 'No request came close.')
          : h('ul', { 'aria-label': `Near misses of ${line.id}` }, ...line.nearMisses.map((miss) => h('li', { class: 'difference' }, `Near miss: ${miss}`))),
      ),
    ),
  );
}
