import { Navigate, useLocation } from 'react-router';
import { useMfaStatus } from '../api/mfa-status.ts';

/** Where MFA is turned on: Settings → Security. */
export const MFA_SETUP_PATH = '/settings/security';

/**
 * With BACKOFFICE_MFA_REQUIRED the server refuses a back-office user without MFA every call but
 * their own settings; every back-office page, an organization's opened directly included, sends
 * them to where MFA is turned on.
 */
export function MfaRequiredRedirect() {
  const status = useMfaStatus();
  const { pathname } = useLocation();
  const mustSetUp = status.data?.required === true && !status.data.hasMfa;
  if (mustSetUp && pathname !== MFA_SETUP_PATH) return <Navigate to={MFA_SETUP_PATH} replace />;
  return null;
}
