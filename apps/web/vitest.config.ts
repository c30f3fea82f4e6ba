import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Screens render in jsdom beside the server project's PostgreSQL work on two cores; user-event
    // journeys of a few seconds then pass 5 s without anything being wrong.
    testTimeout: 20_000,
  },
});
