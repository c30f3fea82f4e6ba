import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Each file gets its own database, so files may run side by side. The worker count is set by the
    // root config: a per-project maxWorkers would force the projects into separate sequence groups.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
