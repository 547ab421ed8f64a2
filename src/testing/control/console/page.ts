import { ControlApi, ControlError } from './controlApi.js';
import { h, table } from './dom.js';
import { followFeed } from './liveFeed.js';
import { JOURNAL_HEADINGS, journalRow, stateContent, unusedContent, type EntryView } from './views.js';
import { sequenceOf } from './unusedModel.js';
import { coverageModel } from './coverageModel.js';

// The oz-mock console: the page `/_oz/ui` loads this script (its only one). It reads the admin token from the
// URL's fragment (never sent to the server as part of a URL), keeps it for this tab, and calls the control plane.

const VIEWS = [
  { id: 'journal', title: 'Journal' },
  { id: 'state', title: 'State' },
  { id: 'sessions', title: 'Sessions' },
  { id: 'faults', title: 'Faults and stubs' },
  { id: 'clock', title: 'Clock' },
  { id: 'coverage', title: 'Coverage' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

/** At most this many journal rows on the page (the newest): the page stays light however long it is open. */
const JOURNAL_ROWS = 500;
const TOKEN_KEY = 'oz-mock-admin-token';

function tokenFromFragment(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token !== null) {
    sessionStorage.setItem(TOKEN_KEY, token);
    // Out of the address bar (and so out of screenshots and shared links); the tab keeps it.
    history.replaceState(null, '', location.pathname);
  }
  return token ?? sessionStorage.getItem(TOKEN_KEY);
}

const root = document.getElementById('console')!;
const status = h('p', { id: 'status', role: 'status', 'aria-live': 'polite' });
const sessionSelect = h('select', { id: 'session-select' }, h('option', { value: '' }, 'default'));
const nav = h('nav', { 'aria-label': 'Views' });
const sections = new Map<ViewId, HTMLElement>();
let api: ControlApi | null = null;
let current: ViewId = 'journal';
let stopFeed: (() => void) | null = null;
const journalBody = h('tbody');

function say(text: string): void {
  status.textContent = text;
}

function failed(error: unknown): void {
  say(error instanceof ControlError ? `${error.status} ${error.code}: ${error.message}` : `Error: ${(error as Error).message}`);
}

function button(label: string, onClick: () => Promise<void> | void, attributes: Record<string, string> = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', ...attributes }, label);
  b.addEventListener('click', () => void Promise.resolve(onClick()).catch(failed));
  return b;
}

function sectionBody(view: ViewId): HTMLElement {
  const section = sections.get(view)!;
  const body = section.querySelector<HTMLElement>('.body')!;
  return body;
}

// ---- journal

function addEntry(entry: EntryView): void {
  const shown = journalBody.querySelector(`tr[data-request-id="${CSS.escape(entry.requestId)}"]`);
  // The journal lists a request still in flight too (no status, no proxy target yet): the feed's entry is the
  // finished one, and takes its row.
  if (shown) {
    shown.replaceWith(journalRow(entry));
    return;
  }
  journalBody.prepend(journalRow(entry));
  while (journalBody.rows.length > JOURNAL_ROWS) journalBody.lastElementChild?.remove();
}

/** The feed's entries that came while the journal was being read: its answer may predate them. */
let arrivedWhileLoading: EntryView[] | null = null;

async function loadJournal(): Promise<void> {
  const arrived: EntryView[] = [];
  arrivedWhileLoading = arrived;
  try {
    const { data } = await api!.call<{ data: EntryView[] }>('GET', `${api!.scoped('/journal')}?limit=${JOURNAL_ROWS}`);
    journalBody.replaceChildren();
    for (const entry of data) addEntry(entry);
    // Not lost to the reload: each takes its row, or comes on top as the newest.
    for (const entry of arrived) addEntry(entry);
  } finally {
    if (arrivedWhileLoading === arrived) arrivedWhileLoading = null;
  }
}

function journalView(): HTMLElement {
  const head = h('thead', {}, h('tr', {}, ...JOURNAL_HEADINGS.map((text) => h('th', { scope: 'col' }, text))));
  return h(
    'div',
    {},
    h('p', {}, 'Every request the server answered, newest first; new ones appear as they come.'),
    button('Clear the journal', async () => {
      await api!.call('DELETE', api!.scoped('/journal'));
      journalBody.replaceChildren();
      say('Journal cleared.');
    }),
    h('table', { id: 'journal-table' }, h('caption', {}, 'Requests'), head, journalBody),
  );
}

// ---- the other views, each read afresh when shown

async function renderState(): Promise<Node> {
  return stateContent(await api!.call('GET', api!.scoped('/state')));
}

interface SessionView {
  readonly id: string;
  readonly api_key: string | null;
  readonly keys: ReadonlyArray<{ account: string; name: string; kind: string }>;
}

async function renderSessions(): Promise<Node> {
  const { data } = await api!.call<{ data: SessionView[] }>('GET', api!.serverPath('/sessions'));
  fillSessionSelect(data);
  const rows = data.map((s) => [
    s.id,
    s.api_key === null ? '–' : `${s.api_key.slice(0, 8)}…`,
    s.keys.length,
    h(
      'span',
      {},
      button('Show this session', () => chooseSession(s.id), { 'aria-label': `Show session ${s.id}` }),
      ' ',
      button(
        'End',
        async () => {
          await api!.call('DELETE', api!.serverPath(`/sessions/${encodeURIComponent(s.id)}`));
          if (api!.session === s.id) await chooseSession(null);
          else await show('sessions');
        },
        { 'aria-label': `End session ${s.id}` },
      ),
    ),
  ]);
  return h(
    'div',
    {},
    h('p', {}, api!.session === null ? 'Showing the default session.' : `Showing session ${api!.session}.`),
    button('Show the default session', () => chooseSession(null)),
    ' ',
    button('New session', async () => {
      const created = await api!.call<SessionView>('POST', api!.serverPath('/sessions'), {});
      say(`Session ${created.id} created.`);
      await show('sessions');
    }),
    table('Live sessions', ['Session', 'API key', 'Keys', 'Actions'], rows),
  );
}

interface FaultView {
  readonly id: string;
  readonly operationId?: string;
  readonly path?: string;
  readonly pathPattern?: string;
  readonly type?: string;
  readonly code?: string;
  readonly status?: number;
  readonly remaining: number;
  readonly hits: number;
}
interface StubView {
  readonly id: string;
  readonly operationId: string;
  readonly match: unknown;
  readonly answer: unknown;
  readonly answers: readonly unknown[] | null;
  readonly position: number | null;
  readonly then: string | null;
  readonly remaining: number | null;
  readonly hits: number;
}

/** Where a sequence of answers stands (`answer 2 of 3, then repeat`), `proxy to URL`, or `one answer`. */
const sequenceText = (s: StubView): string => {
  const proxy = (s.answer as { proxy?: unknown } | null)?.proxy;
  return sequenceOf(s) ?? (typeof proxy === 'string' ? `proxy to ${proxy}` : 'one answer');
};

async function renderFaults(): Promise<Node> {
  const [faults, stubs] = await Promise.all([
    api!.call<{ data: FaultView[] }>('GET', api!.scoped('/faults')),
    api!.call<{ data: StubView[] }>('GET', api!.scoped('/stubs')),
  ]);
  const unused = await api!.call<unknown>('GET', api!.scoped('/unused')).catch(() => null);
  const withdraw = (kind: 'faults' | 'stubs', id: string) =>
    button(
      'Withdraw',
      async () => {
        await api!.call('DELETE', api!.scoped(`/${kind}/${encodeURIComponent(id)}`));
        await show('faults');
      },
      { 'aria-label': `Withdraw ${id}` },
    );
  return h(
    'div',
    {},
    h('h3', {}, 'Faults'),
    table(
      'Armed faults and their hits',
      ['Fault', 'Matches', 'Does', 'Hits', 'Remaining', 'Actions'],
      faults.data.map((f) => [
        f.id,
        f.operationId ?? f.path ?? f.pathPattern ?? 'any request',
        `${f.type ?? 'error'}${f.status ? ` ${f.status}` : ''}${f.code ? ` ${f.code}` : ''}`,
        f.hits,
        f.remaining,
        withdraw('faults', f.id),
      ]),
    ),
    h('h3', {}, 'Stubs'),
    table(
      'Armed stubs and their hits',
      ['Stub', 'Operation', 'Match', 'Next answer', 'Hits', 'Remaining', 'Actions'],
      stubs.data.map((s) => [s.id, s.operationId, JSON.stringify(s.match), sequenceText(s), s.hits, s.remaining ?? 'every time', withdraw('stubs', s.id)]),
    ),
    h('h3', {}, 'Never fired'),
    unused === null ? h('p', {}, 'The server does not report unused faults and stubs.') : unusedContent(unused),
  );
}

interface ClockView {
  readonly now: string;
  readonly frozen: boolean;
}

async function renderClock(): Promise<Node> {
  const clock = await api!.call<ClockView>('GET', api!.scoped('/clock'));
  const amount = h('input', { id: 'advance-ms', type: 'number', min: '0', step: '1', value: '60000', required: true, inputmode: 'numeric' });
  const form = h(
    'form',
    { id: 'advance-form' },
    h('label', { for: 'advance-ms' }, 'Advance by (milliseconds)'),
    ' ',
    amount,
    ' ',
    h('button', { type: 'submit' }, 'Advance'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const after = await api!.call<ClockView>('POST', api!.scoped('/clock/advance'), { ms: Number(amount.value) });
      say(`The clock is at ${after.now}.`);
      await show('clock');
    })().catch(failed);
  });
  return h(
    'div',
    {},
    h(
      'dl',
      {},
      h('dt', {}, 'Now'),
      h('dd', { id: 'clock-now' }, clock.now),
      h('dt', {}, 'Frozen'),
      h('dd', { id: 'clock-frozen' }, clock.frozen ? 'yes' : 'no'),
    ),
    button(clock.frozen ? 'Let the clock run' : 'Freeze the clock', async () => {
      await api!.call('POST', api!.scoped('/clock'), { frozen: !clock.frozen });
      await show('clock');
    }),
    form,
  );
}

/** What the run exercised of openapi.json: the summary, every response of the operations called, the others. */
async function renderCoverage(): Promise<Node> {
  const model = coverageModel(await api!.call<unknown>('GET', api!.scoped('/coverage')));
  const rows = model.rows.map((r) => [r.operationId, r.response, r.count, r.by, r.state]);
  return h(
    'div',
    {},
    h('p', { id: 'coverage-summary' }, model.summary),
    table('Responses of the operations called', ['Operation', 'Response', 'Count', 'By', 'Covered'], rows, 'No operation was called yet.'),
    h('h3', {}, 'Not called'),
    h('p', { id: 'coverage-not-called' }, model.notCalled.join(', ') || 'None.'),
  );
}

const RENDER: Readonly<Record<Exclude<ViewId, 'journal'>, () => Promise<Node>>> = {
  state: renderState,
  sessions: renderSessions,
  faults: renderFaults,
  clock: renderClock,
  coverage: renderCoverage,
};

let rendering: Promise<void> = Promise.resolve();

/** Shows a view (read afresh from the server); the navigation marks it. */
async function show(view: ViewId): Promise<void> {
  current = view;
  for (const [id, section] of sections) section.hidden = id !== view;
  for (const b of nav.querySelectorAll('button')) b.setAttribute('aria-current', String(b.dataset.view === view));
  if (view === 'journal') return;
  const render = RENDER[view];
  rendering = rendering.then(async () => {
    try {
      const content = await render();
      // Keyboard focus inside the view stays where it was when the content is the same control (by its label).
      const focused =
        document.activeElement instanceof HTMLElement && sectionBody(view).contains(document.activeElement) ? document.activeElement.textContent : null;
      sectionBody(view).replaceChildren(content);
      if (focused !== null) [...sectionBody(view).querySelectorAll<HTMLElement>('button')].find((b) => b.textContent === focused)?.focus();
    } catch (error) {
      failed(error);
    }
  });
  await rendering;
}

function fillSessionSelect(sessions: readonly SessionView[]): void {
  const chosen = api?.session ?? '';
  sessionSelect.replaceChildren(h('option', { value: '' }, 'default'), ...sessions.map((s) => h('option', { value: s.id }, s.id)));
  sessionSelect.value = sessions.some((s) => s.id === chosen) ? chosen : '';
}

/** Every view then shows that session's world alone (`null`: the default session). */
async function chooseSession(id: string | null): Promise<void> {
  api = new ControlApi(api!.token, id);
  sessionSelect.value = id ?? '';
  say(id === null ? 'Showing the default session.' : `Showing session ${id}.`);
  startFeed();
  await show(current);
}

let refreshTimer: ReturnType<typeof setTimeout> | null = null;

/** A request came: the shown view (if not the journal) is read again, at most about three times a second. */
function refreshSoon(): void {
  if (current === 'journal' || refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void show(current);
  }, 300);
}

function startFeed(): void {
  stopFeed?.();
  journalBody.replaceChildren();
  stopFeed = followFeed(api!, {
    ready: () => {
      // "Live" once the journal is shown: from then on every answered request appears.
      loadJournal().then(() => say(api!.session === null ? 'Live: the default session.' : `Live: session ${api!.session}.`), failed);
    },
    entry: (entry) => {
      arrivedWhileLoading?.push(entry as EntryView);
      addEntry(entry as EntryView);
      refreshSoon();
    },
    down: say,
  });
}

function askForToken(): void {
  const input = h('input', { id: 'token-input', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
  const form = h('form', {}, h('label', { for: 'token-input' }, 'Admin token'), ' ', input, ' ', h('button', { type: 'submit' }, 'Open the console'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    location.reload();
  });
  root.append(h('p', {}, 'No admin token: open the link oz-mock printed at start (it ends with #token=ozadm_...), or give the token here.'), form);
}

async function start(): Promise<void> {
  root.append(h('h1', {}, 'oz-mock console'), status);
  const token = tokenFromFragment();
  if (token === null || token === '') {
    askForToken();
    return;
  }
  api = new ControlApi(token, null);
  try {
    // The token is checked before anything is shown: a wrong one shows the error and no data.
    await api.call('GET', api.scoped('/clock'));
  } catch (error) {
    failed(error);
    sessionStorage.removeItem(TOKEN_KEY);
    askForToken();
    return;
  }
  const sessionLabel = h('label', { for: 'session-select' }, 'Session');
  sessionSelect.addEventListener('change', () => void chooseSession(sessionSelect.value === '' ? null : sessionSelect.value).catch(failed));
  nav.append(
    h(
      'ul',
      {},
      ...VIEWS.map((v) =>
        h(
          'li',
          {},
          button(v.title, () => show(v.id).then(() => document.getElementById(`heading-${v.id}`)?.focus()), {
            'data-view': v.id,
            'aria-controls': `view-${v.id}`,
          }),
        ),
      ),
    ),
  );
  const main = h('main', {});
  for (const v of VIEWS) {
    const section = h(
      'section',
      { id: `view-${v.id}`, 'aria-labelledby': `heading-${v.id}` },
      h('h2', { id: `heading-${v.id}`, tabindex: '-1' }, v.title),
      h('div', { class: 'body' }, v.id === 'journal' ? journalView() : null),
    );
    sections.set(v.id, section);
    main.append(section);
  }
  root.append(
    h(
      'div',
      { class: 'toolbar' },
      sessionLabel,
      ' ',
      sessionSelect,
      ' ',
      button('Refresh', () => show(current)),
    ),
    nav,
    main,
  );
  startFeed();
  await show('journal');
  void api.call<{ data: SessionView[] }>('GET', api.serverPath('/sessions')).then(({ data }) => fillSessionSelect(data), failed);
}

void start().catch(failed);
