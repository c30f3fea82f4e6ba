import { describe, expect, it } from 'vitest';
import { AppError, errorCodes, errorStatus, isErrorCode } from './errors.ts';

describe('error codes', () => {
  it('gives every code an HTTP error status', () => {
    expect(errorCodes.length).toBeGreaterThan(0);
    for (const code of errorCodes) {
      const status = errorStatus[code];
      expect(Number.isInteger(status), code).toBe(true);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
    }
  });

  it('holds the codes of the SPEC §8 mapping with fitting statuses', () => {
    expect(errorStatus).toMatchObject({
      MissingEmail: 400,
      MissingPassword: 400,
      InvalidEmail: 400,
      InvalidPassword: 400,
      WrongAuth: 401,
      UserAlreadyExist: 409,
      Default: 500,
    });
  });

  it('recognises its own codes only', () => {
    for (const code of errorCodes) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('MissingFoo')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(401)).toBe(false);
  });
});

describe('AppError', () => {
  it('carries its code, the status of that code and a message', () => {
    const error = new AppError('WrongAuth', 'Invalid email or password');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AppError);
    expect(error.name).toBe('AppError');
    expect(error.code).toBe('WrongAuth');
    expect(error.status).toBe(401);
    expect(error.message).toBe('Invalid email or password');
  });

  it('uses the code as the message when none is given', () => {
    const error = new AppError('Forbidden');
    expect(error.message).toBe('Forbidden');
    expect(error.status).toBe(403);
  });
});
