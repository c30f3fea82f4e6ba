import { KYB_MAX_BYTES, KYB_TYPES, LOGO_MAX_BYTES, LOGO_TYPES } from '@rayo/shared';
import { describe, expect, it } from 'vitest';
import { checkUpload, formatBytes } from './upload-check.ts';

const file = (size: number, type: string) => new File([new Uint8Array(size)], 'f', { type });
const logo = { maxBytes: LOGO_MAX_BYTES, types: LOGO_TYPES };
const kyb = { maxBytes: KYB_MAX_BYTES, types: KYB_TYPES };

describe('checkUpload', () => {
  it('takes files within the server limits', () => {
    expect(checkUpload(file(LOGO_MAX_BYTES, 'image/png'), logo)).toBeUndefined();
    expect(checkUpload(file(10, 'application/pdf'), kyb)).toBeUndefined();
  });

  it('refuses what the server would: too big, empty, or of another type', () => {
    expect(checkUpload(file(LOGO_MAX_BYTES + 1, 'image/png'), logo)).toEqual({
      key: 'settingsFiles.errors.tooLarge',
      values: { size: '512 KB' },
    });
    expect(checkUpload(file(0, 'image/png'), logo)?.key).toBe('settingsFiles.errors.empty');
    expect(checkUpload(file(10, 'image/svg+xml'), logo)?.key).toBe('settingsFiles.errors.wrongType');
    expect(checkUpload(file(10, 'application/pdf'), logo)?.key).toBe('settingsFiles.errors.wrongType');
    expect(checkUpload(file(10, 'text/html'), kyb)?.key).toBe('settingsFiles.errors.wrongType');
  });

  it('writes sizes as people read them', () => {
    expect([formatBytes(900), formatBytes(512 * 1024), formatBytes(KYB_MAX_BYTES), formatBytes(1_600_000)]).toEqual([
      '900 B',
      '512 KB',
      '10 MB',
      '1.5 MB',
    ]);
  });
});
