// Biome ships one optional package per platform. Where the npm registry in use serves only the
// Linux ones, `npm install` leaves the others out of package-lock.json and `npm ci` then refuses
// the lock. This adds their entries (with os/cpu/libc, so npm skips them off their platform).
// Run after upgrading Biome: `node scripts/lock-biome-platforms.mjs`.
import fs from 'node:fs';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
const platforms = {
  'cli-android-arm64': { os: ['android'], cpu: ['arm64'] },
  'cli-android-x64': { os: ['android'], cpu: ['x64'] },
  'cli-darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'cli-darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'cli-linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'cli-linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'cli-win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'cli-win32-x64': { os: ['win32'], cpu: ['x64'] },
};
for (const [name, platform] of Object.entries(platforms)) {
  const key = `node_modules/@biomejs/${name}`;
  if (!biome.optionalDependencies[`@biomejs/${name}`]) throw new Error(name);
  lock.packages[key] ??= {
    version: biome.version,
    ...platform,
    dev: true,
    license: biome.license,
    optional: true,
    engines: biome.engines,
  };
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
