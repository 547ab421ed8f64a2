// An Edge route that imports nothing of oz-sdk: what Next's own Edge code loads, for run.mjs to compare with.
export const runtime = 'edge';
export const dynamic = 'force-dynamic';

export function GET() {
  return new Response('baseline');
}
