/** The keys of the terminal's keypad. */
export type KeypadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | '.' | 'backspace' | 'clear';

/** The API takes at most 15 whole digits (DecimalStringSchema). */
export const MAX_WHOLE_DIGITS = 15;

function typeDigit(value: string, digit: string, exponent: number): string {
  const [whole = '', fraction] = value.split('.');
  if (fraction !== undefined) return fraction.length < exponent ? value + digit : value;
  // No leading zeros: "0" then "5" is "5", and "0" then "0" stays "0".
  if (whole === '0') return digit;
  return whole.length < MAX_WHOLE_DIGITS ? value + digit : value;
}

/**
 * The amount after one key press, as a decimal string in a currency with `exponent` decimals.
 * An empty string is nothing typed yet (shown as zero). Presses that would make the amount
 * invalid for the currency (a point in SAT, a third decimal in USD) change nothing.
 */
export function pressKey(value: string, key: KeypadKey, exponent: number): string {
  switch (key) {
    case 'clear':
      return '';
    case 'backspace':
      return value.slice(0, -1);
    case '.':
      if (exponent === 0 || value.includes('.')) return value;
      return `${value || '0'}.`;
    case '00':
      return typeDigit(typeDigit(value, '0', exponent), '0', exponent);
    default:
      return typeDigit(value, key, exponent);
  }
}

/** Whether `value` is a decimal string the keypad could have typed for the currency. */
export function isTypedAmount(value: string, exponent: number): boolean {
  const pattern = exponent === 0 ? /^\d*$/ : new RegExp(`^\\d*(\\.\\d{0,${exponent}})?$`);
  const whole = value.split('.')[0] ?? '';
  return pattern.test(value) && whole.length <= MAX_WHOLE_DIGITS;
}
