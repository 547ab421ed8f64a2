/**
 * Work items: create them in a company's building, watch a cloud building walk one through its pipeline, list
 * and filter them, and the errors item creation can give.
 *
 *   node --import tsx examples/items.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import { CompanyNotFoundError, InvalidParamsError, Oz, type Item } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

// The embedded server walks an item one step per 50 ms here (10 by default), slow enough to watch every step.
const server = process.env.OZ_BASE_URL ? undefined : createOzServer({ timing: { stepMs: 50 } });
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// #region create
// Path parameters come first (the company's slug), then the body.
const item = await oz.companies.items.create('acme', {
  building: 'hq',
  title: 'Write the launch post',
  body: 'Two paragraphs, friendly tone.',
  kind: 'content',
  priority: 2,
});
console.log(item.step, item.status, item.source); // intake active api
// #endregion

// #region walk
// A cloud building walks the item office to office: intake, plan, build, review, then done.
let current: Item = item;
const seen = [current.step];
while (current.status === 'active') {
  await new Promise((resolve) => setTimeout(resolve, 20));
  current = await oz.companies.items.get('acme', item.id);
  if (current.step !== seen.at(-1)) seen.push(current.step);
}
console.log(seen.join(' → ')); // intake → plan → build → review → done
console.log(current.last_output); // each office's output is the next one's input
// #endregion

// #region yaml
// Bodies can travel as YAML, and answers too.
const fromYaml = await oz.companies.items.create('acme', { building: 'lab', title: 'Calibrate the sensors' }, { bodyFormat: 'yaml' });
console.log(fromYaml.building, fromYaml.step); // lab intake: a local building's node picks it up
const asYaml = await oz.companies.items.get('acme', fromYaml.id, { format: 'yaml' });
console.log(asYaml.title); // parsed: the same Item as on json
// #endregion

// #region list
// Lists are paged; `for await` walks every page. Filters: building, status.
for await (const listed of oz.companies.items.list('acme', { building: 'lab', status: 'active' })) {
  console.log('active in lab:', listed.id, listed.title);
}
// #endregion

// #region errors
try {
  await oz.companies.items.create('globex', { building: 'hq', title: 'Not our company' });
} catch (error) {
  // Another account's slug answers the same as a slug that does not exist.
  if (error instanceof CompanyNotFoundError)
    console.log(error.status, error.code); // 404 company_not_found
  else throw error;
}
try {
  await oz.companies.items.create('acme', { building: 'hq', title: '' });
} catch (error) {
  if (error instanceof InvalidParamsError)
    console.log(error.message); // 422 invalid_params: title must be a string of 1 to 300 characters.
  else throw error;
}
// #endregion

await server?.close();
