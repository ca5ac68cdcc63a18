// The service's whole API below /api/store: every method goes to the handler's Fetch form.
import { storeHandler } from '../../../store';

async function handle(request: Request): Promise<Response> {
  return (await storeHandler()).fetch(request);
}

export const dynamic = 'force-dynamic';
export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
