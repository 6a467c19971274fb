/**
 * The dashboard's default port, apart from the server (server.ts) so that
 * `inferbench serve` checks `--port` before it loads the dashboard.
 */
export const DEFAULT_PORT = 8765;
