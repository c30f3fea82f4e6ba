import { defineProject } from 'vitest/config';

export default defineProject({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: { name: 'shopify-app', environment: 'node', include: ['extensions/**/*.test.{ts,tsx}'] },
});
