// A loopback port free now, for a server a test starts (or has a child process start): one the
// system hands out to a listener on port 0, closed at once. A random pick from a range collided with
// ports other tests' servers and connections held (`port … is already in use`).
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
