import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = import.meta.dirname;

type ImportMap = {
  runtime: Map<string, Set<string>>;
  typeOnly: Map<string, Set<string>>;
  /** The npm packages each file loads at run time (`@scope/name` or `name`; `node:` left out). */
  packages: Map<string, Set<string>>;
};

function sourceFiles(): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/**
 * Every static `import` and `export … from` between files of this folder, read by the TypeScript
 * parser. Under `verbatimModuleSyntax` only `import type` / `export type` vanish at run time: an
 * import whose names are all marked `type` inline still loads its module, so it counts as a
 * runtime import. Dynamic `import()` is left out: it loads when called, not when the file does.
 */
function buildImportMap(): ImportMap {
  const files = sourceFiles();
  const known = new Set(files);
  const map: ImportMap = { runtime: new Map(), typeOnly: new Map(), packages: new Map() };
  for (const file of files) {
    map.runtime.set(file, new Set());
    map.typeOnly.set(file, new Set());
    map.packages.set(file, new Set());
    const source = ts.createSourceFile(file, readFileSync(path.join(srcDir, file), 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      let specifier: ts.Expression | undefined;
      let typeOnly = false;
      if (ts.isImportDeclaration(statement)) {
        specifier = statement.moduleSpecifier;
        typeOnly = statement.importClause?.isTypeOnly ?? false;
      } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
        specifier = statement.moduleSpecifier;
        typeOnly = statement.isTypeOnly;
      }
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      if (!specifier.text.startsWith('.')) {
        const name = specifier.text
          .split('/')
          .slice(0, specifier.text.startsWith('@') ? 2 : 1)
          .join('/');
        if (!typeOnly && !name.startsWith('node:')) map.packages.get(file)?.add(name);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.text));
      // Imports that leave this folder (test helpers, other workspaces) cannot close a cycle in it.
      if (!known.has(target)) {
        expect(existsSync(path.join(srcDir, target)) || target.startsWith('..')).toBe(true);
        continue;
      }
      (typeOnly ? map.typeOnly : map.runtime).get(file)?.add(target);
    }
  }
  return map;
}

/** The strongly connected groups of more than one file (or a file importing itself): Tarjan's algorithm. */
function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || graph.get(file)?.has(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

function withTypeImports(map: ImportMap): Map<string, Set<string>> {
  return new Map(
    [...map.runtime].map(([file, targets]) => [file, new Set([...targets, ...(map.typeOnly.get(file) ?? [])])]),
  );
}

/** The module folder a file of `modules/` belongs to, e.g. `modules/refunds`. */
function moduleOf(file: string): string | undefined {
  return /^modules\/[^/]+/.exec(file)?.[0];
}

describe('import map of the server', () => {
  const map = buildImportMap();

  it('reads every file and its imports', () => {
    expect(map.runtime.size).toBeGreaterThan(200);
    expect(map.runtime.get('app.ts')).toContain('modules/invoices/invoices.routes.ts');
    expect(map.typeOnly.get('app.ts')).toContain('config.ts');
  });

  it('has no runtime import cycle', () => {
    expect(cyclesOf(map.runtime)).toEqual([]);
  });

  it('has no cycle through type imports either', () => {
    expect(cyclesOf(withTypeImports(map))).toEqual([]);
  });

  it('keeps the ledger and invoicing out of every cycle, type imports included', () => {
    const tangled = cyclesOf(withTypeImports(map))
      .flat()
      .filter((file) => file.startsWith('modules/ledger/') || file.startsWith('modules/invoices/'));
    expect(tangled).toEqual([]);
  });

  it('lets no route file import app.ts, type imports included: routes take `App` from http/app-type.ts', () => {
    const importers = [...withTypeImports(map)].filter(([, targets]) => targets.has('app.ts')).map(([file]) => file);
    expect(importers).toEqual(['runtime.ts']);
  });

  it('lets the ledger and invoicing import no selling module', () => {
    const selling = ['modules/checkouts/', 'modules/donations/', 'modules/shops/', 'modules/store-checkouts/'];
    const reachesSelling = [...map.runtime]
      .filter(([file]) => file.startsWith('modules/ledger/') || file.startsWith('modules/invoices/'))
      .flatMap(([file, targets]) => [...targets].map((target) => `${file} -> ${target}`))
      .filter((edge) => selling.some((folder) => edge.split(' -> ')[1]?.startsWith(folder)));
    expect(reachesSelling).toEqual([]);
  });

  it("lets no module import another module's repository, type imports included: it calls that module's service", () => {
    const reachesRepository = [...withTypeImports(map)]
      .flatMap(([file, targets]) => [...targets].map((target) => ({ file, target })))
      .filter(
        ({ file, target }) =>
          moduleOf(file) !== undefined &&
          moduleOf(target) !== undefined &&
          target.endsWith('.repo.ts') &&
          moduleOf(target) !== moduleOf(file),
      )
      .map(({ file, target }) => `${file} -> ${target}`)
      .sort();
    expect(reachesRepository).toEqual([]);
  });
});

describe('packages the server loads', () => {
  const map = buildImportMap();
  const dependenciesOf = (manifest: string) =>
    Object.keys(
      (JSON.parse(readFileSync(path.join(srcDir, manifest), 'utf8')) as { dependencies: object }).dependencies,
    );
  const server = dependenciesOf('../package.json');
  // What a production install brings: the server's dependencies and those of the shared workspace.
  const installed = new Set([...server, ...dependenciesOf('../../../packages/shared/package.json')]);
  // `npm run db:schema` and its drift test generate the table types; nothing the server runs loads it.
  const devTools = new Set(['db/schema-codegen.ts', 'cli/db-schema.ts']);

  it('are installed without dev dependencies, so a production install runs', () => {
    const loaded = [...map.packages]
      .filter(([file]) => !devTools.has(file))
      .flatMap(([file, names]) => [...names].map((name) => `${file} -> ${name}`));
    expect(loaded).toContain('domain/bolt11.ts -> @noble/curves');
    expect(loaded.filter((edge) => !installed.has(edge.split(' -> ')[1] ?? ''))).toEqual([]);
  });

  it('hold secp256k1 only in pure JavaScript: no native or WebAssembly build (decision 0065)', () => {
    const builds = ['secp256k1', 'tiny-secp256k1', '@bitcoinerlab/secp256k1', 'elliptic'];
    expect(server.filter((name) => builds.includes(name))).toEqual([]);
  });
});
