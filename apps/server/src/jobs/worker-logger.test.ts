import { describe, expect, it } from 'vitest';
import { workerLogger } from './worker-logger.ts';

function recordingLog() {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (_fields: object, message: string) => lines.push([level, message]);
  return { lines, log: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } };
}

describe('workerLogger', () => {
  it('logs a failed attempt that will be retried as a warning, and the last one as an error, saying what follows', () => {
    const { lines, log } = recordingLog();
    const logger = workerLogger(log);
    logger.error('Failed task 1', { failure: true, job: { attempts: 1, max_attempts: 12 } } as never);
    logger.error('Failed task 2', { failure: true, job: { attempts: 12, max_attempts: 12 } } as never);
    logger.error('Worker lost its connection');
    logger.warn('Slow poll');
    logger.info('Worker connected');
    expect(lines).toEqual([
      ['warn', 'Failed task 1; it is tried again later'],
      ['error', 'Failed task 2; it is not tried again'],
      ['error', 'Worker lost its connection; jobs go on: if this repeats, check PostgreSQL'],
      ['warn', 'Slow poll; jobs go on: if this repeats, check PostgreSQL'],
      ['info', 'Worker connected'],
    ]);
  });

  it('logs a job that completed at debug, so the periodic passes do not fill the log', () => {
    const { lines, log } = recordingLog();
    const logger = workerLogger(log);
    logger.info('Completed task 54 (watch-checkout-payments, 3.10ms) with success', {
      job: { attempts: 1, max_attempts: 25 },
      duration: 3.1,
      success: true,
    } as never);
    logger.info("Worker connected and looking for jobs... (task names: 'deliver-webhook')");
    expect(lines).toEqual([
      ['debug', 'Completed task 54 (watch-checkout-payments, 3.10ms) with success'],
      ['info', "Worker connected and looking for jobs... (task names: 'deliver-webhook')"],
    ]);
  });
});
