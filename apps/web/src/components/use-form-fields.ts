import { useState } from 'react';
import { useTranslation } from '../i18n/index.ts';

/**
 * The values of a small text form and the i18n keys of what is wrong with them; `field(name)`
 * gives an input its value, change handler and translated error.
 */
export function useFormFields<Form extends Record<string, string>>(initial: Form) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string | undefined>>>({});
  const field = (name: keyof Form) => ({
    value: values[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
    error: errors[name] ? t(errors[name]) : undefined,
  });
  /** Shows `found` and tells whether the form may be sent. */
  const check = (found: Partial<Record<keyof Form, string | undefined>>) => {
    setErrors(found);
    return !Object.values(found).some(Boolean);
  };
  return { values, setValues, errors, field, check };
}
