/** The row names of the results table, one per figure of issue 7 (the smoke test checks each is printed). */
export const FIGURE_NAMES = {
  toolsVsFetch: 'loopback tools.execute vs fetch',
  itemsVsFetch: 'loopback items.create vs fetch',
  chatVsOpenAI: 'chat.completions.create vs openai',
  toolsVsOpenapiFetch: 'tools.execute vs openapi-fetch',
  itemsVsOpenapiFetch: 'items.create vs openapi-fetch',
  inProcessMount: 'in-process mount overhead',
  sseVsParser: 'SSE parse+iterate vs eventsource-parser',
  sseVsOpenAI: 'SSE chat stream vs openai-node',
  streamMemory: 'stream memory 100 MB of deltas',
  coldImport: 'cold import vs openai',
  bundleSize: 'core bundle vs openai',
  serverItems: 'server req/s items.create vs hono',
  serverTools: 'server req/s tools.execute vs hono',
  executionWait: 'executions.wait latency vs interval',
  tracingOff: 'tracing off vs no tracing (tools.execute)',
} as const;
