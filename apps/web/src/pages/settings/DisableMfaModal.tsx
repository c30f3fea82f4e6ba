import { useTranslation } from '../../i18n/index.ts';
import { MfaCodeModal } from './MfaCodeModal.tsx';

/** Asks for the code that turning MFA off needs (SPEC §7 `mfa-code`); a recovery code works too. */
export function DisableMfaModal({
  loading,
  onSubmit,
  onClose,
}: {
  loading: boolean;
  onSubmit: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <MfaCodeModal
      title={t('mfa.settings.disableTitle')}
      submitLabel={t('mfa.settings.turnOff')}
      submitColor="red"
      loading={loading}
      onSubmit={onSubmit}
      onClose={onClose}
    />
  );
}
