import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const modulesDir = path.join(import.meta.dirname, 'modules');

function routeFiles(): string[] {
  return readdirSync(modulesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.routes.ts'))
    .map((file) => path.join(modulesDir, file));
}

/** Value imports only: a route may name a row type, but every query goes through a service. */
function valueImportsOf(source: string): string[] {
  return [...source.matchAll(/^import\s+(?!type\s)[\s\S]*?from\s+'([^']+)';/gm)].map((match) => match[1] ?? '');
}

describe('layering (DESIGN §2)', () => {
  it('finds the route files', () => {
    expect(routeFiles().length).toBeGreaterThan(20);
  });

  it.each(routeFiles().map((file) => [path.relative(modulesDir, file), file]))(
    '%s reaches the database only through services',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const reachesDatabase = valueImportsOf(source).filter(
        (from) => from.endsWith('.repo.ts') || from.endsWith('/db/database.ts'),
      );
      expect(reachesDatabase).toEqual([]);
      expect(source).not.toMatch(/\.(selectFrom|insertInto|updateTable|deleteFrom)\(/);
    },
  );
});

describe('app.ts builds the application', () => {
  const srcDir = import.meta.dirname;
  const appImports = [...readFileSync(path.join(srcDir, 'app.ts'), 'utf8').matchAll(/from\s+'(\.[^']+)';/g)].map(
    (match) => path.join(srcDir, match[1] ?? ''),
  );

  it('from route files and the metrics route', () => {
    expect(appImports.filter((file) => file.endsWith('.routes.ts')).length).toBeGreaterThan(20);
    expect(appImports).toContain(path.join(srcDir, 'metrics.ts'));
  });

  const registeredFiles = [...new Set([...appImports, ...routeFiles()])];

  it.each(registeredFiles.map((file) => [path.relative(srcDir, file), file]))(
    '%s does not import app.ts back',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const importsApp = [...source.matchAll(/from\s+'(\.[^']+)';/g)].some(
        (match) => path.join(path.dirname(file), match[1] ?? '') === path.join(srcDir, 'app.ts'),
      );
      expect(importsApp).toBe(false);
    },
  );
});

describe('the dashboard module reads sales', () => {
  const repo = readFileSync(path.join(modulesDir, 'dashboard', 'dashboard.repo.ts'), 'utf8');

  it('and asks other modules for organizations, accounts and managers', () => {
    expect(repo).not.toMatch(/\b(selectFrom|innerJoin|leftJoin)\('(organizations|accounts|manager_accounts)'/);
  });

  it('and no other module reads through its repo', () => {
    const importers = readdirSync(modulesDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith(`dashboard${path.sep}`))
      .filter((file) => readFileSync(path.join(modulesDir, file), 'utf8').includes('/dashboard/dashboard.repo.ts'));
    expect(importers).toEqual([]);
  });
});
