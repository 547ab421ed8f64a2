/** The admin token redacted in any text a request carries, as written or escaped (support/adminTokenText.ts). */
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_REDACTED, redactAdminTokenHeader, redactAdminTokens } from '../../../src/testing/support/adminTokenText.js';
import { replaceDecoded } from '../../../src/testing/support/decodedMatch.js';

const TOKEN = 'ozadm_RedaRedaRedaRedaRedaRedaRedaReda';
const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const jsonAll = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

// Each spelling a request may give the token, in the text around it: [what, text, expected].
const CASES: ReadonlyArray<readonly [string, string, string]> = [
  ['a path segment', `/v1/tools/${TOKEN}`, `/v1/tools/${ADMIN_TOKEN_REDACTED}`],
  ['a path segment, its _ escaped', `/v1/tools/${TOKEN.replace('_', '%5F')}`, `/v1/tools/${ADMIN_TOKEN_REDACTED}`],
  ['a path segment, lower-case escapes', `/v1/tools/${TOKEN.replace('_', '%5f')}/x`, `/v1/tools/${ADMIN_TOKEN_REDACTED}/x`],
  ['a query value', `token=${TOKEN}&limit=2`, `token=${ADMIN_TOKEN_REDACTED}&limit=2`],
  ['a query value, every character escaped', `token=${percentAll(TOKEN)}&limit=2`, `token=${ADMIN_TOKEN_REDACTED}&limit=2`],
  ['a query value, escaped and plain mixed', `a=%41&token=o%7Aadm_${TOKEN.slice(6, 20)}%52${TOKEN.slice(21)}`, `a=%41&token=${ADMIN_TOKEN_REDACTED}`],
  ['a JSON body', JSON.stringify({ note: `use ${TOKEN} here` }), JSON.stringify({ note: `use ${ADMIN_TOKEN_REDACTED} here` })],
  ['a JSON body, \\u escapes', `{"note":"${jsonAll(TOKEN)}"}`, `{"note":"${ADMIN_TOKEN_REDACTED}"}`],
  ['a form body', `a=1&secret=${encodeURIComponent(TOKEN)}`, `a=1&secret=${ADMIN_TOKEN_REDACTED}`],
  ['twice', `${TOKEN},${TOKEN}`, `${ADMIN_TOKEN_REDACTED},${ADMIN_TOKEN_REDACTED}`],
  ['a longer one', `${TOKEN}XYZ`, ADMIN_TOKEN_REDACTED],
  ['a cut one', TOKEN.slice(0, 12), ADMIN_TOKEN_REDACTED],
];

describe('redactAdminTokens', () => {
  it.each(CASES)('redacts the token in %s', (_, text, expected) => {
    expect(redactAdminTokens(text)).toBe(expected);
  });

  it('leaves text without a token as it was, escapes included', () => {
    for (const text of ['', '/v1/tools/echo', 'q=%41%zz&b=%', '{"a":"\\u0041\\u12"}', 'ozadm_', 'ozadm-Reda', ADMIN_TOKEN_REDACTED]) {
      expect(redactAdminTokens(text)).toBe(text);
    }
  });

  it('is idempotent: a redacted text stays as it is', () => {
    for (const [, text] of CASES) expect(redactAdminTokens(redactAdminTokens(text))).toBe(redactAdminTokens(text));
  });
});

describe('redactAdminTokenHeader', () => {
  it('redacts a bearer token and a token inside a Basic credential', () => {
    expect(redactAdminTokenHeader(`Bearer ${TOKEN}`)).toBe(`Bearer ${ADMIN_TOKEN_REDACTED}`);
    expect(redactAdminTokenHeader(`Basic ${btoa(`admin:${TOKEN}`)}`)).toBe(`Basic ${ADMIN_TOKEN_REDACTED}`);
    expect(redactAdminTokenHeader(`basic ${btoa(`${TOKEN}:`)}`)).toBe(`basic ${ADMIN_TOKEN_REDACTED}`);
  });

  it('leaves other Basic credentials and headers as they were', () => {
    const basic = `Basic ${btoa('user:password')}`;
    expect(redactAdminTokenHeader(basic)).toBe(basic);
    expect(redactAdminTokenHeader('Basic !!!')).toBe('Basic !!!');
    expect(redactAdminTokenHeader('application/json')).toBe('application/json');
  });
});

describe('replaceDecoded', () => {
  it('replaces the raw spelling of each match and keeps the text between', () => {
    expect(replaceDecoded('x=%61b%63&y=abc', /abc/g, '#')).toBe('x=#&y=#');
    expect(replaceDecoded('"\\u0061bc" abc', /abc/g, '#')).toBe('"#" #');
  });

  it('leaves text without a match exactly as it was', () => {
    expect(replaceDecoded('x=%61b&y=ab', /abc/g, '#')).toBe('x=%61b&y=ab');
  });
});
