import type { RequestContext } from '../../pipeline/requestContext.js';

/**
 * Whether the request's key may see a tool or agent by name. A key's tool fence (`tools` of a key) names the
 * tools and agents it may use; on every surface (REST lists, gets and execute routes, discovery, MCP) what is
 * outside it answers as if it did not exist. No fence: every one.
 */
export function fenceAdmits(ctx: RequestContext, name: string): boolean {
  const fence = ctx.principalOrThrow.key.fence_tools;
  return fence === null || fence.includes(name);
}
