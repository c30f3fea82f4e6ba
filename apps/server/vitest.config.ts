import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each file gets its own database, so files may run side by side. The worker count is left to the
    // root run (CPUs − 1): a per-project maxWorkers would force the projects into separate sequence groups.
    // Files share their worker's loaded modules instead of each loading the whole server again:
    // every file has its own database and app, and no test replaces a module or a global.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
