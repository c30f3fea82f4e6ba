import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const MANTINE_STYLES = /@mantine\/(core|dates|charts|notifications)\/esm\/(?:.*\/)?([A-Za-z]+)\.module\.mjs$/;

/**
 * Each Mantine component's CSS travels with its code: the chunk that holds a component's class
 * names also imports its style sheet, so the login page downloads the styles of the components
 * it shows instead of all of Mantine's (41 KiB gzipped for the core alone). A component's module
 * imports the components it builds on first, so their styles still come first, in Mantine's order.
 */
function mantineStylesWithComponents(): Plugin {
  return {
    name: 'rayo:mantine-styles-with-components',
    transform(code, id) {
      const match = MANTINE_STYLES.exec(id);
      if (!match) return null;
      const [, pkg, component] = match;
      // Only the core ships a style sheet per component; the other packages ship one each.
      const sheet = pkg === 'core' ? `@mantine/core/styles/${component}.css` : `@mantine/${pkg}/styles.css`;
      return { code: `import '${sheet}';\n${code}`, map: null };
    },
  };
}

const COMPRESSIBLE = /^assets\/.*\.(js|css|svg)$/;

/** Writes a brotli and a gzip copy beside every built asset, which the server sends as they are. */
function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'rayo:precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(path.join(outDir, file));
          const [br, gz] = await Promise.all([
            promisify(brotliCompress)(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
            promisify(gzip)(content, { level: 9 }),
          ]);
          await writeFile(path.join(outDir, `${file}.br`), br);
          await writeFile(path.join(outDir, `${file}.gz`), gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), mantineStylesWithComponents(), precompressAssets()],
  // The manifest lets the build-size test follow each route's chunks and style sheets.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
