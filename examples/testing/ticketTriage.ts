/**
 * The code under test in this folder's two test files: an ordinary function of your application that takes an
 * `Oz` client. The tests give it a client of the embedded Oz server, in process (vitest.test.ts) or through msw
 * (msw.test.ts).
 */
import { ConnectionRequiredError, type Oz } from 'oz-sdk';

/** A support ticket to triage. */
export interface Ticket {
  readonly email: string;
  readonly subject: string;
}

/** What triage did: the work item it opened, and the CRM's answer about the customer (null without a CRM). */
export interface Triage {
  readonly itemId: string;
  readonly customer: string | null;
}

/** Opens a bugfix item in acme/hq for the ticket and looks the customer up in the CRM when it is connected. */
export async function triageTicket(oz: Oz, ticket: Ticket): Promise<Triage> {
  const item = await oz.companies.items.create('acme', { building: 'hq', title: ticket.subject, kind: 'bugfix' });
  try {
    const lookup = await oz.tools.execute('crm_lookup', { query: ticket.email });
    return { itemId: item.id, customer: lookup.content };
  } catch (error) {
    // No CRM connection on the account: triage goes on without it.
    if (error instanceof ConnectionRequiredError) return { itemId: item.id, customer: null };
    throw error;
  }
}
