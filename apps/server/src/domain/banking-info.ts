import {
  ACCOUNT_TYPES,
  AppError,
  BANKING_FIELDS,
  type BankingFieldTemplate,
  type BankingFormat,
  type BankingInfoMetadata,
  type BankingInfoTemplate,
} from '@rayo/shared';

/** Bank accounts as each country writes them, and the check digits that catch a mistyped one. */

/** IBAN length by country (ISO 13616 registry) for the countries whose banks use IBANs. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  BR: 29,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IT: 27,
  LT: 20,
  LU: 20,
  LV: 21,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SV: 28,
};

/** The registry's example IBANs, shown as placeholders. */
const IBAN_EXAMPLES: Readonly<Record<string, string>> = {
  ES: 'ES9121000418450200051332',
  GT: 'GT82TRAJ01020000001210029690',
  SV: 'SV62CENR00000000000000700025',
};

/** ABA routing number: weights 3, 7, 1 over the nine digits, a multiple of ten. */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...value].reduce((total, digit, index) => total + Number(digit) * (weights[index] as number), 0);
  return sum % 10 === 0;
}

/** Mexico's CLABE: 17 digits weighted 3, 7, 1 (each product mod 10), then the check digit. */
export function isValidClabe(value: string): boolean {
  if (!/^\d{18}$/.test(value)) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let index = 0; index < 17; index += 1) sum += (Number(value[index]) * (weights[index % 3] as number)) % 10;
  return (10 - (sum % 10)) % 10 === Number(value[17]);
}

/** ISO 13616: the country's length, and the number read with the first four characters moved last is 1 mod 97. */
export function isValidIban(value: string, countryCode?: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(value)) return false;
  const country = value.slice(0, 2);
  if (countryCode !== undefined && country !== countryCode) return false;
  const length = IBAN_LENGTHS[country];
  if (length !== undefined && value.length !== length) return false;
  const rearranged = value.slice(4) + value.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const digits = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export function bankingFormatOf(countryCode: string | null): BankingFormat {
  if (countryCode === 'US') return 'aba';
  if (countryCode === 'MX') return 'clabe';
  if (countryCode !== null && IBAN_LENGTHS[countryCode] !== undefined) return 'iban';
  return 'generic';
}

function accountNumberField(format: BankingFormat, countryCode: string | null): BankingFieldTemplate {
  const base = { name: 'accountNumber', input: 'text', required: true } as const;
  switch (format) {
    case 'aba':
      return { ...base, label: 'accountNumber', maxLength: 17, pattern: '^\\d{4,17}$', example: '000123456789' };
    case 'clabe':
      return {
        ...base,
        label: 'clabe',
        maxLength: 18,
        pattern: '^\\d{18}$',
        check: 'clabe',
        example: '032180000118359719',
      };
    case 'iban': {
      const length = IBAN_LENGTHS[countryCode ?? ''] ?? 34;
      return {
        ...base,
        label: 'iban',
        // Typed IBANs come in groups of four; the check reads them without the spaces.
        maxLength: length + Math.ceil(length / 4),
        pattern: `^${countryCode}\\d{2}[A-Z0-9]{${length - 4}}$`,
        check: 'iban',
        example: IBAN_EXAMPLES[countryCode ?? ''],
      };
    }
    case 'generic':
      return { ...base, label: 'accountNumber', maxLength: 34, pattern: '^[A-Z0-9]{4,34}$' };
  }
}

function routingNumberField(format: BankingFormat): BankingFieldTemplate | undefined {
  const base = { name: 'routingNumber', input: 'text' } as const;
  switch (format) {
    case 'aba':
      return {
        ...base,
        label: 'routingNumberAba',
        required: true,
        maxLength: 9,
        pattern: '^\\d{9}$',
        check: 'aba',
        example: '011000015',
      };
    // The CLABE already names the bank and branch.
    case 'clabe':
      return undefined;
    case 'iban':
      return {
        ...base,
        label: 'swift',
        required: false,
        maxLength: 11,
        pattern: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$',
        example: 'CAIXESBBXXX',
      };
    case 'generic':
      return { ...base, label: 'routingCode', required: false, maxLength: 34, pattern: '^[A-Z0-9]{3,34}$' };
  }
}

/**
 * SPEC §7 banking-info template, for the organization's country: which fields, how each looks,
 * and the currencies the bank account may hold.
 */
export function bankingTemplateFor(countryCode: string | null, fiatCurrencies: readonly string[]): BankingInfoTemplate {
  const format = bankingFormatOf(countryCode);
  const routing = routingNumberField(format);
  return {
    countryCode,
    format,
    fields: [
      { name: 'bank', input: 'text', label: 'bank', required: true, maxLength: 100 },
      { name: 'accountName', input: 'text', label: 'accountName', required: true, maxLength: 100 },
      accountNumberField(format, countryCode),
      ...(routing ? [routing] : []),
      {
        name: 'accountType',
        input: 'select',
        label: 'accountType',
        required: true,
        maxLength: 20,
        options: [...ACCOUNT_TYPES],
      },
      {
        name: 'currency',
        input: 'select',
        label: 'currency',
        required: true,
        maxLength: 3,
        options: [...fiatCurrencies],
      },
    ],
  };
}

/** Numbers and codes are compared without the spaces and dashes people type them with. */
function normalize(field: BankingFieldTemplate, value: string): string {
  if (field.pattern === undefined) return value.trim().replace(/\s+/g, ' ');
  return value.replace(/[\s-]/g, '').toUpperCase();
}

function passesCheck(field: BankingFieldTemplate, value: string, countryCode: string | null): boolean {
  switch (field.check) {
    case 'aba':
      return isValidAbaRoutingNumber(value);
    case 'clabe':
      return isValidClabe(value);
    case 'iban':
      return isValidIban(value, countryCode ?? undefined);
    case undefined:
      return true;
  }
}

function refusal(field: BankingFieldTemplate, message: string): AppError {
  if (field.name === 'accountNumber') return new AppError('InvalidAccountNumber', message);
  if (field.name === 'routingNumber') return new AppError('InvalidRoutingNumber', message);
  return new AppError('InvalidBankingField', message);
}

/**
 * The values as they are kept: normalized, every required field present, each matching its
 * pattern, check digits and options. Fields the template does not have are refused, not dropped,
 * so nobody believes a value was saved.
 */
export function validateBankingInfo(template: BankingInfoTemplate, input: BankingInfoMetadata): BankingInfoMetadata {
  const known = new Set(template.fields.map((field) => field.name));
  for (const [name, value] of Object.entries(input)) {
    if (!known.has(name as BankingFieldTemplate['name']) && value !== undefined && value.trim() !== '') {
      throw new AppError('InvalidBankingField', `${name} is not a field of bank accounts in this country`);
    }
  }
  const result: BankingInfoMetadata = {};
  for (const field of template.fields) {
    const raw = input[field.name] ?? '';
    const value = normalize(field, raw);
    if (value === '') {
      if (field.required) throw new AppError('MissingBankingField', `${field.name} is required`);
      continue;
    }
    if (value.length > field.maxLength)
      throw refusal(field, `${field.name} has more than ${field.maxLength} characters`);
    if (field.pattern !== undefined && !new RegExp(field.pattern).test(value)) {
      throw refusal(field, `${field.name} does not have the form of a ${field.label}`);
    }
    if (!passesCheck(field, value, template.countryCode)) {
      throw refusal(field, `${field.name} fails its check digits: look for a mistyped digit`);
    }
    if (field.options !== undefined && !field.options.includes(value)) {
      throw refusal(field, `${field.name} must be one of ${field.options.join(', ')}`);
    }
    result[field.name] = value;
  }
  return result;
}

/** For the audit log and back office's notice: enough of the account number to tell two apart. */
export function maskBankingInfo(metadata: BankingInfoMetadata): BankingInfoMetadata {
  const number = metadata.accountNumber;
  if (number === undefined) return metadata;
  return { ...metadata, accountNumber: `••••${number.slice(-4)}` };
}

/** Whether two accounts have the same values, whatever order their fields were stored in. */
export function sameBankingInfo(a: BankingInfoMetadata, b: BankingInfoMetadata): boolean {
  return BANKING_FIELDS.every((field) => a[field] === b[field]);
}
