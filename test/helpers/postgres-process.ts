import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The pid and port of the postmaster serving `clusterDir`, from its pid file (lines 1 and 4). */
export async function postmasterOf(clusterDir: string): Promise<{ pid: number; port: number }> {
  const lines = (await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/**
 * Listen on 127.0.0.1:`port` as soon as it is free (its server was just killed), so nothing
 * else can: a restart there fails to bind, and a client connecting is cut at once.
 */
export async function holdPort(port: number): Promise<net.Server> {
  for (const deadline = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 5))) {
    const server = net.createServer((socket) => socket.destroy());
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return server;
    if (Date.now() > deadline) throw new Error(`port ${port} is still taken`);
  }
}

/** Stop listening; resolves once the port is free. */
export const release = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));
