// The slicer of a page's items (`oz --all`), the NDJSON line of a value as sent, and the copy of a stream's events.
import { describe, expect, it } from 'vitest';
import { pageItemBytes } from '../../src/cli/pageItemBytes.js';
import { jsonLineAsSent } from '../../src/cli/output.js';
import { EventCopy } from '../../src/cli/eventCopy.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const items = (text: string) => pageItemBytes(encoder.encode(text))?.map((b) => decoder.decode(b));

describe('pageItemBytes', () => {
  it('finds each item of data as written: scalars, nested values, strings holding brackets, quotes and commas', () => {
    expect(items('\ufeff {"meta":{"data":[9]},"data":[1.0, -2e-3 ,"a,]\\"}",[[],{}],{"k":"\u00e9","x":[{"y":null}]},true,null],"next_cursor":null} ')).toEqual([
      '1.0',
      '-2e-3',
      '"a,]\\"}"',
      '[[],{}]',
      '{"k":"\u00e9","x":[{"y":null}]}',
      'true',
      'null',
    ]);
  });

  it('reads an escaped key as JSON.parse does, and the last data key', () => {
    expect(items('{"d\\u0061ta":[1],"data":[2,3]}')).toEqual(['2', '3']);
    expect(items('{"data":[2,3],"d\\u0061ta":[ ]}')).toEqual([]);
  });

  it.each([
    ['not an object', '[1,2]'],
    ['no data', '{"next_cursor":null}'],
    ['data not an array', '{"data":{"a":1}}'],
    ['cut short in data', '{"data":[1,{"a":'],
    ['cut short after data', '{"data":[1],"next'],
    ['a key cut short', '{"data":[1],"ne'],
    ['no colon', '{"data" [1]}'],
  ])('answers undefined for a text it cannot slice: %s', (_, text) => {
    expect(items(text)).toBeUndefined();
  });
});

describe('jsonLineAsSent', () => {
  it('keeps every byte but line breaks, and ends the line', () => {
    expect(decoder.decode(jsonLineAsSent('{\r\n  "a": 1.0,\n  "b":"\\n"\r}'))).toBe('{  "a": 1.0,  "b":"\\n"}\n');
    expect(jsonLineAsSent(new Uint8Array([0x31, 0x0a]))).toEqual(new Uint8Array([0x31, 0x0a]));
  });
});

describe('EventCopy', () => {
  it('hands out the data of the event the client handed out, skipping what the client skipped', () => {
    const copy = new EventCopy();
    const bytes = encoder.encode(
      'event: progress\ndata: {"p":1}\n\nevent: token\ndata: {"delta":"a",  "n":1.0}\n\n: ping\n\nevent: result\ndata: {"ok":true}\n\n',
    );
    // Cut inside a line: the copy joins the pieces.
    copy.feed(bytes.subarray(0, 20));
    copy.feed(bytes.subarray(20));
    expect(copy.dataOf({ event: 'token', data: {} }, false)).toBe('{"delta":"a",  "n":1.0}');
    expect(copy.dataOf({ event: 'result', data: {} }, false)).toBe('{"ok":true}');
    expect(copy.dataOf({ event: 'result', data: {} }, false)).toBeUndefined();
  });

  it('on a chat stream, skips [DONE]', () => {
    const copy = new EventCopy();
    copy.feed(encoder.encode('data: [DONE]\n\ndata: {"id":"c\\u0031"}\n\n'));
    expect(copy.dataOf({}, true)).toBe('{"id":"c\\u0031"}');
    expect(copy.dataOf({}, true)).toBeUndefined();
  });
});
