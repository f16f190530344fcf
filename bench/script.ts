import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script node was started with,
 * not a module a test or another script imports.
 */
export const isScript = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(resolve(process.argv[1])).href;
