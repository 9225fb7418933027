import { createServer } from 'node:net';

// Ports handed out by this process so far. The kernel may give the same ephemeral port
// twice when we close the probe socket before the real owner binds it; remembering them
// keeps two stacks in one process from being handed the same port.
const portsHandedOut = new Set<number>();

async function probeFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A loopback TCP port nobody listens on right now and this process has not handed out before. */
export async function freeLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await probeFreePort();
    if (port > 0 && !portsHandedOut.has(port)) {
      portsHandedOut.add(port);
      return port;
    }
  }
  throw new Error('could not find a free loopback port after 50 attempts');
}
