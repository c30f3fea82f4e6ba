import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sourceDir = import.meta.dirname;
const operations = readFileSync(path.join(sourceDir, '../../../docs/operations.md'), 'utf8');

type LogCall = { where: string; file: string; level: string; message: string | undefined; expression: string };

/**
 * Every `…log.warn|error|fatal(…)` call of the server (the command-line tools print to a person
 * instead), with its message when it is written out.
 */
function logCalls(): LogCall[] {
  const calls: LogCall[] = [];
  const files = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith(`cli${path.sep}`),
  );
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(path.join(sourceDir, file), 'utf8'), ts.ScriptTarget.Latest);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ['warn', 'error', 'fatal'].includes(node.expression.name.text) &&
        /(^|\.)(log|logger)$/i.test(node.expression.expression.getText(source))
      ) {
        // pino's message is the last argument, after the fields.
        const last = node.arguments[node.arguments.length - 1];
        const literal = last && (ts.isStringLiteral(last) || ts.isNoSubstitutionTemplateLiteral(last));
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        calls.push({
          where: `${file}:${line}`,
          file: file.split(path.sep).join('/'),
          level: node.expression.name.text,
          message: literal ? last.text : undefined,
          expression: last?.getText(source) ?? '',
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

type Row = { message: string; levels: string[]; action: string };

/** The rows of docs/operations.md's "Warnings and errors" table. */
function documentedRows(): Row[] {
  const start = operations.indexOf('\n### Warnings and errors\n');
  expect(start).toBeGreaterThan(-1);
  const end = operations.slice(start + 1).search(/\n##/);
  const section = operations.slice(start, end === -1 ? undefined : start + 1 + end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [message = '', levels = '', action = ''] = line.slice(1, -1).split(' | ');
      return {
        message: message.trim().replace(/^`|`$/g, ''),
        levels: levels.trim().split(', '),
        action: action.trim(),
      };
    });
}

/**
 * Messages composed elsewhere, keyed by file and the expression logged: the rows that document
 * them, each made of fixed words around `…` that the named source files must hold. Any other
 * message that is not written out at its call fails.
 */
const COMPOSED: Record<string, { sources: string[]; rows: string[] }> = {
  // lnd's and Core Lightning's missing payout permissions, naming the command that grants them.
  'adapters/lightning/index.ts message': {
    sources: ['adapters/lightning/lnd.ts', 'adapters/lightning/cln.ts'],
    rows: [
      'The lnd macaroon lacks …: Lightning payouts cannot be sent. Bake one with: …',
      'The Core Lightning rune does not allow …: Lightning payouts cannot be sent. Create a rune with: …',
    ],
  },
  // graphile-worker's own words, followed by what comes next.
  'jobs/worker-logger.ts `${message}; ${whatFollows(meta)}`': {
    sources: ['jobs/worker-logger.ts'],
    rows: [
      '…; it is tried again later',
      '…; it is not tried again',
      '…; jobs go on: if this repeats, check PostgreSQL',
    ],
  },
};

describe('warnings and errors in the log', () => {
  const calls = logCalls();
  const rows = documentedRows();
  const rowOf = (message: string) => rows.find((row) => row.message === message);

  it('finds them, and a table of them in docs/operations.md', () => {
    expect(calls.length).toBeGreaterThan(25);
    expect(rows.length).toBeGreaterThan(25);
  });

  it.each(calls.map((call) => [call.where, call]))('%s says what follows, and its row what to do', (_where, call) => {
    if (call.message === undefined) {
      const composed = COMPOSED[`${call.file} ${call.expression}`];
      expect(composed, `${call.expression} is neither written out nor a known composed message`).toBeDefined();
      const levels = (composed?.rows ?? []).flatMap((message) => rowOf(message)?.levels ?? []);
      expect(levels).toContain(call.level);
      return;
    }
    // What happened; then what follows or what to do.
    expect(call.message).toMatch(/^[^;]+; \S.*$/);
    const row = rowOf(call.message);
    expect(row, `docs/operations.md lists \`${call.message}\``).toBeDefined();
    expect(row?.levels).toContain(call.level);
  });

  it('says what to do in every row, each about a message still logged', () => {
    const composed = Object.values(COMPOSED);
    for (const row of rows) {
      expect(row.action.length, row.message).toBeGreaterThan(10);
      const logged = calls.some((call) => call.message === row.message);
      const from = composed.find((entry) => entry.rows.includes(row.message));
      expect(logged || from !== undefined, `${row.message} is logged`).toBe(true);
      if (!from) continue;
      const source = from.sources.map((file) => readFileSync(path.join(sourceDir, file), 'utf8')).join('\n');
      // Sentence by sentence, as the source may build one message from several strings.
      for (const words of row.message.split(/…|[.:;]\s+/).map((part) => part.replace(/^[\s.:;]+|[\s.:;]+$/g, ''))) {
        if (words) expect(source, row.message).toContain(words);
      }
    }
  });
});
