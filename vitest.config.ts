import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/web', 'integrations/shopify'],
    // Vitest's default (CPUs − 1) is one worker on a two-core machine, and a server file spends
    // much of its time waiting on PostgreSQL, child processes and stand-ins, so one core sat idle.
    // Each file has its own database and ports, so two files at once share nothing. Set here, not
    // per project: a project's own maxWorkers puts the projects in separate sequence groups.
    maxWorkers: 2,
    env: {
      // Node's compile cache: each worker and each server process a test starts (`src/main.ts`,
      // the backup CLI) compiles the same node_modules and the same stripped TypeScript again;
      // with the cache, V8 reads the code it compiled before, in this run or the last one.
      NODE_COMPILE_CACHE:
        process.env.NODE_COMPILE_CACHE ?? path.join(import.meta.dirname, 'node_modules/.cache/node-compile'),
    },
  },
});
