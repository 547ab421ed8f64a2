import { answer } from '../../lib/answer.js';

export const runtime = 'edge';
export const dynamic = 'force-dynamic';

export function GET() {
  return answer('edge');
}
