import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext } from './api-routes.js';

/** Routes the view and comparison endpoints; null when the path is not one of them. */
export function viewRoute(_ctx: ApiContext, _req: IncomingMessage, _res: ServerResponse, _parts: readonly string[], _url: URL): Promise<void> | null {
  return null;
}
