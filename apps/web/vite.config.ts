import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { EARLY_REQUESTS_KEY, HOME_EARLY_PATHS, PUBLIC_EARLY_PAGES } from './src/api/early-requests.ts';

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

/** Where each value a Mantine package's index exports is defined: its module's file and name there. */
type IndexExports = Map<string, { local: string; file: string }>;

/** `a`, `a as b` in an import or export list: [the name in the module, the name given]. */
function specifiers(list: string): [string, string][] {
  return list
    .split(',')
    .map((specifier) => specifier.trim())
    .filter(Boolean)
    .map((specifier) => {
      const [name = '', alias = name] = specifier.split(/\s+as\s+/);
      return [name, alias];
    });
}

/** A Mantine index imports each value from its module, then exports them all in one list. */
async function readIndexExports(index: string): Promise<IndexExports> {
  const source = await readFile(index, 'utf8');
  const fileOf = new Map<string, string>();
  for (const [, list = '', file = ''] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    for (const [name] of specifiers(list)) fileOf.set(name, path.resolve(path.dirname(index), file));
  }
  const exports: IndexExports = new Map();
  for (const [, list = ''] of source.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const [local, exported] of specifiers(list)) {
      const file = fileOf.get(local);
      if (file) exports.set(exported, { local, file });
    }
  }
  return exports;
}

const require = createRequire(import.meta.url);
const MANTINE_INDEXES: Record<string, string> = {
  '@mantine/core': require.resolve('@mantine/core').replace(/cjs[\\/]index\.cjs$/, 'esm/index.mjs'),
  '@mantine/hooks': require.resolve('@mantine/hooks').replace(/cjs[\\/]index\.cjs$/, 'esm/index.mjs'),
};
const IMPORT_FROM_MANTINE = /import\s*\{([^}]*)\}\s*from\s*["'](@mantine\/(?:core|hooks))["'];?/g;

/**
 * `import { Tabs } from '@mantine/core'`, in the app and in Mantine's own components (which take
 * their hooks from @mantine/hooks' index), becomes an import of each value's own module. Through
 * an index every component is imported by every screen, so the bundler could not tell which
 * screens use which: it cut a small chunk for each set of lazy screens sharing one, and
 * firstPaintChunkName could not put a public page's components in the page's own chunk
 * (docs/benchmarks.md). A name the index does not list plainly still comes from the index.
 */
function importMantineFromEachModule(): Plugin {
  const exportsOf = new Map<string, Promise<IndexExports>>();
  return {
    name: 'rayo:import-mantine-from-each-module',
    apply: 'build',
    async transform(code, id) {
      if (!/[\\/](apps[\\/]web[\\/]src|@mantine[\\/]core[\\/]esm)[\\/]/.test(id)) return null;
      const imports = [...code.matchAll(IMPORT_FROM_MANTINE)];
      if (imports.length === 0) return null;
      const indexes = new Map<string, IndexExports>();
      for (const [, , pkg = ''] of imports) {
        const read = exportsOf.get(pkg) ?? readIndexExports(MANTINE_INDEXES[pkg] ?? '');
        exportsOf.set(pkg, read);
        indexes.set(pkg, await read);
      }
      const rewritten = code.replace(IMPORT_FROM_MANTINE, (whole, list: string, pkg: string) => {
        const direct: string[] = [];
        const rest: string[] = [];
        for (const [name, alias] of specifiers(list)) {
          const module = indexes.get(pkg)?.get(name);
          if (module) direct.push(`import { ${module.local} as ${alias} } from ${JSON.stringify(module.file)};`);
          else rest.push(`${name} as ${alias}`);
        }
        if (direct.length === 0) return whole;
        // On one line, so that the lines after it keep their numbers.
        return [...direct, ...(rest.length > 0 ? [`import { ${rest.join(', ')} } from '${pkg}';`] : [])].join(' ');
      });
      return { code: rewritten, map: null };
    },
  };
}

const TABLER_ICONS = path.join(path.dirname(require.resolve('@tabler/icons-react')), '../esm/icons');
const IMPORT_FROM_TABLER = /import\s*\{([^}]*)\}\s*from\s*["']@tabler\/icons-react["'];?/g;

/**
 * `import { IconBolt } from '@tabler/icons-react'` becomes an import of the icon's own module,
 * for the reason importMantineFromEachModule gives: through the package's index, which every
 * screen imports, each icon of the app was awaited by every public page's first paint, and
 * firstPaintChunkName put all of them (some fifty) into the chunk the public pages share with
 * home. Each icon is a module of its own named after it, exported as its default.
 */
function importIconsFromEachModule(): Plugin {
  return {
    name: 'rayo:import-icons-from-each-module',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]apps[\\/]web[\\/]src[\\/]/.test(id) || !code.includes('@tabler/icons-react')) return null;
      const rewritten = code.replace(IMPORT_FROM_TABLER, (_whole, list: string) =>
        specifiers(list)
          .map(([name, alias]) => `import ${alias} from ${JSON.stringify(path.join(TABLER_ICONS, `${name}.mjs`))};`)
          // On one line, so that the lines after it keep their numbers.
          .join(' '),
      );
      return { code: rewritten, map: null };
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

const HOME =
  /src[\\/](pages[\\/]home[\\/](HomePage\.tsx|home-prefetch\.ts)|layouts[\\/]MainLayout\.tsx|components[\\/]QueryRoutes\.tsx)$/;

/**
 * The lazy modules each public page's first paint waits on, besides the entry: the page, the
 * layout and query provider around it. `home` is the signed-in home's own (HOME).
 */
const FIRST_PAINT_ROOTS: [RegExp, string[]][] = [
  [/src[\\/]pages[\\/]checkout[\\/]CheckoutPage\.tsx$/, ['checkout']],
  [/src[\\/]pages[\\/]donation[\\/]DonationPage\.tsx$/, ['donation']],
  [/src[\\/]pages[\\/]terminal[\\/]TerminalPage\.tsx$/, ['terminal']],
  [/src[\\/](layouts[\\/]PlainLayout\.tsx|components[\\/]QueryRoutes\.tsx)$/, ['checkout', 'donation', 'terminal']],
  [HOME, ['home']],
];

const SHARED_MODULE = /packages[\\/]shared[\\/]src[\\/][^\\/]+\.ts$/;
const SHARED_INDEX = /packages[\\/]shared[\\/]src[\\/]index\.ts$/;
const STYLE_SHEET = /\.css$/;
const ZOD = /node_modules[\\/]zod[\\/]/;
const FROM_SHARED = /(?:import|export)\s*(\{[^}]*\}|\*\s*as\s+\w+)\s*from\s*["']@rayo\/shared["']/g;

/** Whether a module's code takes one of `names` (a module's exports) from `@rayo/shared`'s index. */
function takesFromShared(code: string | null, names: string[]): boolean {
  for (const [, list = ''] of (code ?? '').matchAll(FROM_SHARED)) {
    if (!list.startsWith('{')) return true;
    for (const [name] of specifiers(list.slice(1, -1))) if (names.includes(name.replace(/^type\s+/, ''))) return true;
  }
  return false;
}

/**
 * Chunks by first paint: a module that a public page's first paint waits on goes into one chunk
 * with every other module awaited by the same public pages and home. Left to itself the bundler
 * cuts a chunk for every set of lazy pages that share a module, and with some forty screens
 * sharing components that made each public page some 35 requests before its first paint, which
 * a phone on slow 4G makes six at a time over HTTP/1.1, a round trip each (docs/benchmarks.md).
 * Home still loads exactly the modules it awaits, so its bytes do not grow; other signed-in
 * screens may load a little code they do not run.
 *
 * `@rayo/shared`'s modules are reached through its index, which every screen imports: from a
 * module of the package, the walk goes on only to the index's importers that take one of the
 * module's exports by name, so that the small helpers a page uses (money, dates, statuses) join
 * its chunk instead of each being a file of its own. Its dependencies (zod) are not followed by
 * name, and stay out of the pages' chunks.
 */
function firstPaintChunkName(moduleId: string, ctx: { getModuleInfo(id: string): Rolldown.ModuleInfo | null }) {
  const byName = SHARED_MODULE.test(moduleId);
  // A module with schemas is used whole by the screens that validate, and would take zod along.
  if (byName && ctx.getModuleInfo(moduleId)?.importedIds.some((id) => ZOD.test(id))) return null;
  const seen = new Set<string>();
  const pages = new Set<string>();
  const stack = [moduleId];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    // The entry's modules are the framework chunk's.
    if (!info || info.isEntry) return null;
    for (const [root, names] of FIRST_PAINT_ROOTS) if (root.test(id)) for (const name of names) pages.add(name);
    for (const importer of info.importers) {
      if (!(byName && SHARED_INDEX.test(importer))) stack.push(importer);
      else {
        const users = ctx.getModuleInfo(importer)?.importers ?? [];
        stack.push(...users.filter((user) => takesFromShared(ctx.getModuleInfo(user)?.code ?? null, info.exports)));
      }
    }
  }
  const publicPages = [...pages].filter((page) => page !== 'home').sort();
  if (publicPages.length === 0) return null;
  // What two of the pages share is a few KiB: the third page downloads it too, rather than
  // each page waiting on one more file.
  // So does a page's own style sheet (a KiB or two), rather than each page's chunk having one.
  const sharing =
    publicPages.length > 1 || (STYLE_SHEET.test(moduleId) && !pages.has('home'))
      ? ['checkout', 'donation', 'terminal']
      : publicPages;
  return [...sharing, ...(pages.has('home') ? ['home'] : [])].join('-');
}
const SPANISH = /src[\\/]i18n[\\/]es\.json$/;
/** The public pages a buyer or donor opens from a link, and the lazy routes around them. */
const PUBLIC_PAGES = {
  checkout:
    /src[\\/](pages[\\/]checkout[\\/]CheckoutPage\.tsx|layouts[\\/]PlainLayout\.tsx|components[\\/]QueryRoutes\.tsx)$/,
  donation:
    /src[\\/](pages[\\/]donation[\\/]DonationPage\.tsx|layouts[\\/]PlainLayout\.tsx|components[\\/]QueryRoutes\.tsx)$/,
  terminal:
    /src[\\/](pages[\\/]terminal[\\/]TerminalPage\.tsx|layouts[\\/]PlainLayout\.tsx|components[\\/]QueryRoutes\.tsx)$/,
} satisfies Record<keyof typeof PUBLIC_EARLY_PAGES, RegExp>;

/**
 * What a visitor needs beyond the entry would only be asked for once the framework has loaded and
 * run: the Spanish texts for a Spanish reader (the language is stored under SPEC §3's key), and
 * for a signed-in visitor on `/` (an access token is stored) the chunks of home and its layout. A small
 * script in the page's head asks for them at once, beside the framework: `modulepreload` for
 * code, `preload` for style sheets (the app applies them in its own order); and it starts the
 * calls home's first figures wait on (src/api/early-requests.ts). The public checkout, donation
 * and shareable terminal pages get the same: their chunks, and the one call they show nothing
 * without. It is a file, written from the bundle at build time, because the
 * Content-Security-Policy allows only `'self'` scripts.
 */
function preloadWhatTheVisitorNeeds(): Plugin {
  return {
    name: 'rayo:preload-what-the-visitor-needs',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const collect = (fileName: string, into: Set<string>) => {
        const chunk = byName.get(fileName);
        if (!chunk || into.has(fileName)) return;
        into.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
        for (const imported of chunk.imports) collect(imported, into);
      };
      const loaded = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) collect(chunk.fileName, loaded);
      const filesOf = (modules: RegExp) => {
        const files = new Set<string>();
        for (const chunk of chunks) {
          if (chunk.facadeModuleId && modules.test(chunk.facadeModuleId)) collect(chunk.fileName, files);
        }
        return [...files].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
      };
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      // A block, so that its names stay out of the page's global scope.
      const source = `{
  const preload = (files) => {
    for (const href of files) {
      const link = document.createElement('link');
      if (href.endsWith('.css')) Object.assign(link, { rel: 'preload', as: 'style' });
      else link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
  };
  if (localStorage.getItem('language') === 'es') preload(${JSON.stringify(filesOf(SPANISH))});
  const token = localStorage.getItem('accessToken');
  if (location.pathname === '/' && token) {
    preload(${JSON.stringify(filesOf(HOME))});
    const requests = {};
    for (const path of ${JSON.stringify(HOME_EARLY_PATHS)}) {
      requests[path] = { token, response: fetch('/api' + path, { headers: { authorization: 'Bearer ' + token } }) };
    }
    window[${JSON.stringify(EARLY_REQUESTS_KEY)}] = requests;
  }
  for (const [page, api, files] of ${JSON.stringify(
    Object.entries(PUBLIC_EARLY_PAGES).map(([name, { page, api }]) => [
      page,
      api,
      filesOf(PUBLIC_PAGES[name as keyof typeof PUBLIC_PAGES]),
    ]),
  )}) {
    const id = location.pathname.startsWith(page) ? location.pathname.slice(page.length) : '';
    if (!id || id.includes('/')) continue;
    let path;
    try {
      path = api + encodeURIComponent(decodeURIComponent(id));
    } catch {
      continue;
    }
    preload(files);
    window[${JSON.stringify(EARLY_REQUESTS_KEY)}] = { [path]: { token: '', response: fetch('/api' + path) } };
  }
}
`;
      const script = this.getFileName(this.emitFile({ type: 'asset', name: 'preload.js', source }));
      // Async: it must not hold up the parser, and nothing waits for it.
      html.source = String(html.source).replace('</title>', `</title>\n    <script async src="/${script}"></script>`);
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    importMantineFromEachModule(),
    importIconsFromEachModule(),
    mantineStylesWithComponents(),
    preloadWhatTheVisitorNeeds(),
    precompressAssets(),
  ],
  // The manifest lets the build-size test follow each route's chunks and style sheets.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    // The framework is one chunk on purpose (see codeSplitting); its size is held by build-size.test.ts.
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry needs, in one file beside the entry: the login page is three
            // requests, and gzip compresses the framework as a whole instead of file by file.
            {
              name: 'framework',
              test: (id) => !/index\.html|src[\\/]main\.tsx$/.test(id),
              tags: ['$initial'],
              priority: 2,
            },
            {
              name: firstPaintChunkName,
              priority: 1,
              // A group's module pulls nothing in: what it imports has its own group already.
              includeDependenciesRecursively: false,
            },
            // The signed-in screens' icons, in one file rather than one each (importIconsFromEachModule).
            { name: 'icons', test: /@tabler[\\/]icons-react[\\/]/, priority: 0 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
