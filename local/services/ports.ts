import { createServer } from 'node:net';

/**
 * Fails fast with a clear message when a port is taken, before a slow service (a JVM) is
 * started on it. Without a host it binds every interface, so any listener on the port counts.
 */
export function assertPortFree(port: number, variable: string, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const taken = error.code === 'EADDRINUSE' || error.code === 'EACCES';
      reject(
        taken
          ? new Error(
              `port ${port} is not available (${error.code}); set ${variable} to another port`,
            )
          : error,
      );
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
