import type { BankingInfoMetadata, BankingInfoTemplate } from '@rayo/shared';

export type BankAccountValues = Record<string, string>;
export type BankAccountErrors = Record<string, 'required' | 'wrongFormat'>;

/** The form's starting values: the saved account, or the first option of each choice. */
export function initialBankAccountValues(
  template: BankingInfoTemplate,
  saved: BankingInfoMetadata | undefined,
): BankAccountValues {
  const values: BankAccountValues = {};
  for (const field of template.fields) {
    values[field.name] = saved?.[field.name] ?? (field.input === 'select' ? (field.options?.[0] ?? '') : '');
  }
  return values;
}

/**
 * What can be told before sending: a required field left empty, or a value without the form the
 * template gives (compared as the server does, without spaces and dashes). Check digits are the
 * server's to verify.
 */
export function checkBankAccount(template: BankingInfoTemplate, values: BankAccountValues): BankAccountErrors {
  const errors: BankAccountErrors = {};
  for (const field of template.fields) {
    const value = values[field.name] ?? '';
    if (value.trim() === '') {
      if (field.required) errors[field.name] = 'required';
      continue;
    }
    if (field.pattern && !new RegExp(field.pattern).test(value.replace(/[\s-]/g, '').toUpperCase())) {
      errors[field.name] = 'wrongFormat';
    }
  }
  return errors;
}

/** Only the template's fields, empty optional ones left out. */
export function bankAccountMetadata(template: BankingInfoTemplate, values: BankAccountValues): BankingInfoMetadata {
  const metadata: BankingInfoMetadata = {};
  for (const field of template.fields) {
    const value = (values[field.name] ?? '').trim();
    if (value !== '') metadata[field.name] = value;
  }
  return metadata;
}
