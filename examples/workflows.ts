/**
 * Workflows: run one inline, store one written in YAML and run it by name, and stream a workflow's steps.
 *
 *   node --import tsx examples/workflows.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import yaml from 'js-yaml';
import { Oz, type WorkflowDefinition } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region inline
// Each task calls an agent; `{input}` is the previous task's output (the workflow's `input` for the first).
const inline = await oz.workflows.execute({
  workflow: {
    name: 'draft-then-shorten',
    tasks: [
      { id: 'draft', type: 'task', agent: 'writer' },
      { id: 'shorten', type: 'task', agent: 'writer', user_request: 'Shorten this: {input}' },
    ],
  },
  input: 'an announcement of the new office',
});
console.log(inline.content); // Here is a draft for: Shorten this: Here is a draft for: an announcement of the new office
// #endregion

// #region inline-yaml
// The same request written in YAML and sent as YAML (Content-Type: text/yaml); the answer comes back in YAML.
const request = `
workflow:
  name: draft-then-shorten
  tasks:
    - id: draft
      type: task
      agent: writer
    - id: shorten
      type: task
      agent: writer
      user_request: "Shorten this: {input}"
input: a note for the team
`;
const body = yaml.load(request, { schema: yaml.JSON_SCHEMA }) as { workflow: WorkflowDefinition; input: string };
const fromYaml = await oz.workflows.execute(body, { bodyFormat: 'yaml', format: 'yaml' });
console.log(fromYaml.content);
// #endregion

// #region stored
// Store a workflow (here read from YAML, as you would from a file in your repository), then run it by name.
const definition = `
name: weekly-summary
description: Drafts the weekly summary, then reviews it.
tasks:
  - id: draft
    type: task
    agent: writer
    user_request: "A weekly summary of {inputs.team}'s work: {input}"
  - id: review
    type: task
    agent: writer
    user_request: "Review this: {input}"
`;
const stored = await oz.workflows.create(yaml.load(definition, { schema: yaml.JSON_SCHEMA }) as WorkflowDefinition, { bodyFormat: 'yaml' });
console.log(stored.id, stored.name); // wfl_... weekly-summary

const summary = await oz.workflows.executeStored('weekly-summary', { input: 'shipped v2', inputs: { team: 'platform' } });
console.log(summary.content);
// #endregion

// #region stream
// A workflow's stream tells each task's start and end (`step` events) between the tokens.
for await (const event of await oz.workflows.executeStoredStream('weekly-summary', { input: 'fixed the build', inputs: { team: 'web' } })) {
  if (event.event === 'step') console.log(`[${event.data.task_id}: ${event.data.status}]`);
  else if (event.event === 'result') console.log(`result: ${event.data.content}`);
}
// #endregion

// #region manage
for await (const workflow of oz.workflows.list()) console.log(workflow.name);
await oz.workflows.delete('weekly-summary');
// #endregion

await server?.close();
