import { answer } from '../../lib/answer.js';

export const dynamic = 'force-dynamic';

export function GET() {
  return answer('node');
}
