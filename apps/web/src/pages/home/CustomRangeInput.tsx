import 'dayjs/locale/es';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { useTranslation } from '../../i18n/index.ts';

type Props = { value: DatesRangeValue; onChange: (next: DatesRangeValue) => void };

/** The Custom period's date range; its own chunk, since the calendar and dayjs load only when Custom is chosen. */
export function CustomRangeInput({ value, onChange }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <DatePickerInput
      type="range"
      label={t('home.customRange')}
      placeholder={t('home.customRangePlaceholder')}
      locale={i18n.language}
      ariaLabels={{
        previousMonth: t('home.calendar.previousMonth'),
        nextMonth: t('home.calendar.nextMonth'),
        previousYear: t('home.calendar.previousYear'),
        nextYear: t('home.calendar.nextYear'),
        previousDecade: t('home.calendar.previousDecade'),
        nextDecade: t('home.calendar.nextDecade'),
      }}
      value={value}
      onChange={onChange}
      maxDate={new Date()}
      clearable
      maw={320}
    />
  );
}
