/**
 * A regular expression run in time linear in the text (a Thompson NFA, every state advanced together), for
 * patterns that come over the wire: a fault's `pathPattern`. V8's engine backtracks, and a pattern such as
 * `^/v1/tools/(a+)+$` takes seconds (then minutes) on a path of 30 characters while the whole process waits.
 *
 * The syntax is JavaScript's, without flags, less what needs backtracking: literals and escapes (`\/`, `\.`,
 * `\d \w \s` and their negations, `\n \t \r`, `\xHH`, `\uHHHH`), `.`, classes (`[a-z_]`, `[^/]`), groups
 * (`(...)`, `(?:...)`, `(?<name>...)`), alternation, the quantifiers `* + ? {n} {n,} {n,m}` (lazy or not: the same
 * for a yes/no match) and the anchors `^ $`. Backreferences, lookarounds and `\b` are refused, as is a pattern
 * that compiles to more than {@link MAX_STATES} states (`{n,m}` copies its atom).
 */

/** The most NFA states a pattern may compile to. */
export const MAX_STATES = 10_000;

/** Why a pattern is refused: a message that names what in it is not supported. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

type CharTest = (c: number) => boolean;

type Node =
  | { readonly kind: 'char'; readonly test: CharTest }
  | { readonly kind: 'start' | 'end' }
  | { readonly kind: 'seq'; readonly items: readonly Node[] }
  | { readonly kind: 'alt'; readonly options: readonly Node[] }
  | { readonly kind: 'repeat'; readonly item: Node; readonly min: number; readonly max: number };

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) =>
  (c >= 9 && c <= 13) ||
  c === 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const isLineEnd: CharTest = (c) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
const not =
  (t: CharTest): CharTest =>
  (c) =>
    !t(c);

class Parser {
  #at = 0;
  constructor(readonly source: string) {}

  parse(): Node {
    const node = this.#alternation();
    if (this.#at < this.source.length) throw new PatternError(`unmatched ) at ${this.#at}`);
    return node;
  }

  #peek(): string | undefined {
    return this.source[this.#at];
  }

  #alternation(): Node {
    const options = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#at++;
      options.push(this.#sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== '|' && c !== ')'; c = this.#peek()) items.push(this.#quantified(this.#atom()));
    return { kind: 'seq', items };
  }

  #quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = this.#peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.#at))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#at))!;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (max < min) throw new PatternError(`numbers out of order in quantifier ${m[0]}`);
        this.#at += m[0].length - 1;
      } else return node;
      this.#at++;
      if (node.kind === 'start' || node.kind === 'end') throw new PatternError('nothing to repeat');
      if (this.#peek() === '?') this.#at++;
      node = { kind: 'repeat', item: node, min, max };
    }
  }

  #atom(): Node {
    const c = this.source[this.#at++]!;
    if (c === '^') return { kind: 'start' };
    if (c === '$') return { kind: 'end' };
    if (c === '.') return { kind: 'char', test: not(isLineEnd) };
    if (c === '[') return { kind: 'char', test: this.#class() };
    if (c === '\\') return this.#escape(false);
    if (c === '(') {
      if (this.source.startsWith('?:', this.#at)) this.#at += 2;
      else if (this.source.startsWith('?<', this.#at) && /^\?<[A-Za-z_$][\w$]*>/.test(this.source.slice(this.#at)))
        this.#at = this.source.indexOf('>', this.#at) + 1;
      else if (this.#peek() === '?') throw new PatternError('lookarounds ((?=, (?!, (?<=, (?<!) are not supported');
      const inner = this.#alternation();
      if (this.source[this.#at++] !== ')') throw new PatternError('unterminated group');
      return inner;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') throw new PatternError(`nothing to repeat at ${this.#at - 1}`);
    if (c === ')' || c === ']' || c === '}') throw new PatternError(`unmatched ${c} at ${this.#at - 1}`);
    const code = c.charCodeAt(0);
    return { kind: 'char', test: (x) => x === code };
  }

  /** An escape after `\`: a character test (in a class, `inClass` turns `\b` into backspace). */
  #escape(inClass: boolean): Node & { kind: 'char' } {
    const c = this.source[this.#at++];
    if (c === undefined) throw new PatternError('\\ at the end of the pattern');
    const single = (code: number) => ({ kind: 'char' as const, test: (x: number) => x === code });
    switch (c) {
      case 'd':
        return { kind: 'char', test: isDigit };
      case 'D':
        return { kind: 'char', test: not(isDigit) };
      case 'w':
        return { kind: 'char', test: isWord };
      case 'W':
        return { kind: 'char', test: not(isWord) };
      case 's':
        return { kind: 'char', test: isSpace };
      case 'S':
        return { kind: 'char', test: not(isSpace) };
      case 'n':
        return single(10);
      case 't':
        return single(9);
      case 'r':
        return single(13);
      case 'f':
        return single(12);
      case 'v':
        return single(11);
      case '0':
        return single(0);
      case 'x':
      case 'u': {
        const digits = c === 'x' ? 2 : 4;
        const hex = this.source.slice(this.#at, this.#at + digits);
        if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex)) throw new PatternError(`bad \\${c} escape`);
        this.#at += digits;
        return single(parseInt(hex, 16));
      }
      default:
        if (c === 'b' && inClass) return single(8);
        if (/[1-9]/.test(c)) throw new PatternError('backreferences (\\1) are not supported');
        if (c === 'b' || c === 'B') throw new PatternError('word boundaries (\\b, \\B) are not supported');
        if (/[A-Za-z]/.test(c)) throw new PatternError(`unknown escape \\${c}`);
        return single(c.charCodeAt(0));
    }
  }

  #class(): CharTest {
    const negated = this.#peek() === '^';
    if (negated) this.#at++;
    const tests: CharTest[] = [];
    const unit = (): { code: number | null; test: CharTest } => {
      const c = this.source[this.#at++];
      if (c === undefined) throw new PatternError('unterminated character class');
      if (c !== '\\') {
        const code = c.charCodeAt(0);
        return { code, test: (x) => x === code };
      }
      const escaped = this.#escape(true);
      const probe = this.source[this.#at - 1]!;
      return { code: /[dDwWsS]/.test(probe) ? null : codeOf(escaped.test), test: escaped.test };
    };
    while (this.#peek() !== ']') {
      const from = unit();
      if (this.#peek() === '-' && this.source[this.#at + 1] !== ']' && this.source[this.#at + 1] !== undefined) {
        this.#at++;
        const to = unit();
        if (from.code === null || to.code === null) throw new PatternError('a range of a class escape (\\d-z) is not supported');
        if (to.code < from.code) throw new PatternError('range out of order in character class');
        const [lo, hi] = [from.code, to.code];
        tests.push((x) => x >= lo && x <= hi);
      } else tests.push(from.test);
    }
    this.#at++;
    const any: CharTest = (x) => tests.some((t) => t(x));
    return negated ? not(any) : any;
  }
}

/** The one code a single-character test accepts (found by asking: escapes of one character only). */
function codeOf(test: CharTest): number {
  for (let c = 0; c <= 0xffff; c++) if (test(c)) return c;
  return 0;
}

/** An NFA state: a character step, an assertion, a fork, or the match. */
interface State {
  kind: 'char' | 'start' | 'end' | 'split' | 'match';
  test?: CharTest;
  out: State | null;
  out2: State | null;
}

interface Fragment {
  readonly first: State;
  /** The states whose `out` (or `out2`) is still to be joined to what follows. */
  readonly ends: Array<{ state: State; slot: 'out' | 'out2' }>;
}

class Compiler {
  count = 0;

  #state(kind: State['kind'], test?: CharTest): State {
    if (++this.count > MAX_STATES) throw new PatternError(`the pattern is too large (more than ${MAX_STATES} states; {n,m} copies what it repeats)`);
    return { kind, ...(test ? { test } : {}), out: null, out2: null };
  }

  compile(node: Node): Fragment {
    switch (node.kind) {
      case 'char':
      case 'start':
      case 'end': {
        const s = this.#state(node.kind, node.kind === 'char' ? node.test : undefined);
        return { first: s, ends: [{ state: s, slot: 'out' }] };
      }
      case 'seq': {
        if (node.items.length === 0) return this.#empty();
        let frag = this.compile(node.items[0]!);
        for (const item of node.items.slice(1)) frag = join(frag, this.compile(item));
        return frag;
      }
      case 'alt': {
        const frags = node.options.map((o) => this.compile(o));
        let first = frags[frags.length - 1]!.first;
        for (let i = frags.length - 2; i >= 0; i--) {
          const split = this.#state('split');
          split.out = frags[i]!.first;
          split.out2 = first;
          first = split;
        }
        return { first, ends: frags.flatMap((f) => f.ends) };
      }
      case 'repeat': {
        const parts: Fragment[] = [];
        for (let i = 0; i < node.min; i++) parts.push(this.compile(node.item));
        if (node.max === Infinity) {
          const loop = this.#state('split');
          const body = this.compile(node.item);
          loop.out = body.first;
          patch(body, loop);
          parts.push({ first: loop, ends: [{ state: loop, slot: 'out2' }] });
        } else {
          for (let i = node.min; i < node.max; i++) {
            const split = this.#state('split');
            const body = this.compile(node.item);
            split.out = body.first;
            parts.push({ first: split, ends: [...body.ends, { state: split, slot: 'out2' }] });
          }
        }
        if (parts.length === 0) return this.#empty();
        return parts.reduce(join);
      }
    }
  }

  #empty(): Fragment {
    const s = this.#state('split');
    return { first: s, ends: [{ state: s, slot: 'out' }] };
  }
}

function patch(frag: Fragment, to: State): void {
  for (const { state, slot } of frag.ends) state[slot] = to;
}

function join(a: Fragment, b: Fragment): Fragment {
  patch(a, b.first);
  return { first: a.first, ends: b.ends };
}

/** The states reachable from `state` without reading a character, at position `at` of a text of `length`. */
function addState(list: Set<State>, state: State | null, at: number, length: number): void {
  if (state === null || list.has(state)) return;
  list.add(state);
  if (state.kind === 'split') {
    addState(list, state.out, at, length);
    addState(list, state.out2, at, length);
  } else if (state.kind === 'start') {
    if (at === 0) addState(list, state.out, at, length);
  } else if (state.kind === 'end') {
    if (at === length) addState(list, state.out, at, length);
  }
}

/** A compiled pattern: `test(text)` searches anywhere in the text, as `RegExp.prototype.test` does. */
function compileMatcher(source: string): (text: string) => boolean {
  const compiler = new Compiler();
  const frag = compiler.compile(new Parser(source).parse());
  const match: State = { kind: 'match', out: null, out2: null };
  patch(frag, match);
  return (text) => {
    let current = new Set<State>();
    for (let at = 0; ; at++) {
      // Unanchored: a match may begin at every position.
      addState(current, frag.first, at, text.length);
      if (current.has(match)) return true;
      if (at === text.length) return false;
      const code = text.charCodeAt(at);
      const next = new Set<State>();
      for (const s of current) if (s.kind === 'char' && s.test!(code)) addState(next, s.out, at + 1, text.length);
      current = next;
    }
  };
}

/**
 * A `RegExp` whose `test` runs in linear time (see above): it still is a `RegExp` (its `source` lists it, a
 * fault's scope takes it), but only `test` is meant to be called. Throws {@link PatternError} for a pattern
 * outside the supported syntax, or a `SyntaxError` for one JavaScript would refuse too.
 */
export class LinearPattern extends RegExp {
  readonly #matches: (text: string) => boolean;

  constructor(source: string) {
    super(source);
    this.#matches = compileMatcher(source);
  }

  override test(text: string): boolean {
    return this.#matches(String(text));
  }
}
