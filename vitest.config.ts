import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,control-api,builder,site-template,dashboard,testkit,scripts,tools}/src/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    env: { NODE_ENV: 'test' },
  },
});
