import { describe, expect, it } from 'vitest';
import { decodedParams, routingPath } from '../../../src/testing/support/routingPath.js';

describe('routingPath', () => {
  it('leaves a path without escapes as it is', () => {
    expect(routingPath('/v1/tools/echo/execute')).toBe('/v1/tools/echo/execute');
  });

  it('decodes escapes of plain characters, keeps %2F, %3F, %23 and %25 escaped', () => {
    expect(routingPath('/v1/%74ools/a%20b/execute')).toBe('/v1/tools/a b/execute');
    expect(routingPath('/v1/items/a%2Fb%3Fc%23d')).toBe('/v1/items/a%2Fb%3Fc%23d');
    expect(routingPath('/v1/items/100%25')).toBe('/v1/items/100%25');
  });

  it('keeps a malformed escape as sent and decodes the rest', () => {
    expect(routingPath('/v1/items/%E0%A4%A/%41')).toBe('/v1/items/%E0%A4%A/A');
    expect(routingPath('/v1/items/%FF')).toBe('/v1/items/%FF');
  });
});

describe('decodedParams', () => {
  it('decodes each parameter, a slash included, and freezes the result', () => {
    const params = decodedParams({ id: 'a%2Fb', name: 'plain', pct: '100%25' });
    expect(params).toEqual({ id: 'a/b', name: 'plain', pct: '100%' });
    expect(Object.isFrozen(params)).toBe(true);
  });

  it('keeps a malformed escape as sent', () => {
    expect(decodedParams({ id: '%FFx%41' })).toEqual({ id: '%FFxA' });
  });
});
