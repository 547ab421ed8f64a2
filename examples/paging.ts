/**
 * Paging: every list route answers pages of `{data, next_cursor}`. `for await` walks every item across pages;
 * or take one page at a time.
 *
 *   node --import tsx examples/paging.ts
 *
 * Uses the embedded Oz server unless OZ_BASE_URL is set.
 */
import { Oz } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';

const server = process.env.OZ_BASE_URL ? undefined : createOzServer();
const oz = server ? new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch }) : new Oz();

// Some executions to page through.
for (let a = 1; a <= 7; a++) await oz.tools.execute('sum', { a, b: 10 });

// #region for-await
// Every item, fetching the next page as the loop needs it (limit: items per page, 1 to 100, default 20).
let count = 0;
for await (const execution of oz.executions.list({ limit: 3 })) {
  if (execution.target === 'sum') count++;
}
console.log(`${count} sum executions`);
// #endregion

// #region pages
// One page at a time.
let page = await oz.executions.list({ limit: 3 });
console.log(page.data.map((execution) => execution.content)); // newest first: [ '17', '16', '15' ]
while (page.hasNextPage()) {
  page = await page.getNextPage();
  console.log(page.data.length, page.next_cursor ?? 'last page');
}
// #endregion

// #region iter-pages
for await (const each of oz.tools.list({ limit: 2 }).iterPages()) {
  console.log(each.data.map((tool) => tool.name).join(', '));
}
// #endregion

await server?.close();
