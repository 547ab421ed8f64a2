/**
 * openapi.json read by @apidevtools/swagger-parser, the validator behind orval and swagger-cli: both forms of the
 * document (as it is, and `content=all`) pass its OpenAPI 3.1 schema check and its own checks. Its 3.1 schema
 * spells the server variable's field `descriptions` (a typo of an early official schema: APIDevTools/swagger-cli#83),
 * so openapi.json keeps that explanation in the server's own description.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import openapi from '../../openapi.json' with { type: 'json' };
import { withAllContent } from '../../src/testing/contract/documentContent.js';

type Json = Record<string, unknown>;

async function problems(doc: Json): Promise<string | null> {
  try {
    await SwaggerParser.validate(structuredClone(doc) as never);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('openapi.json read by @apidevtools/swagger-parser', () => {
  it('is valid as it is', async () => {
    expect(await problems(openapi as unknown as Json)).toBeNull();
  });

  it('is valid with content=all', async () => {
    expect(await problems(withAllContent(openapi as unknown as Json))).toBeNull();
  });

  it('reports a broken document (the check can fail)', async () => {
    const broken = structuredClone(openapi) as unknown as { paths: Record<string, Record<string, Json>> };
    broken.paths['/health']!.get!.responses = 'none';
    expect(await problems(broken as unknown as Json)).toMatch(/responses/);
  });
});
