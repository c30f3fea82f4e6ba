import { Navigate } from 'react-router';
import { ApiError } from '../api/client.ts';
import { useCurrentOrganization } from '../api/dashboard.ts';

/**
 * An admin who signed up but has not set up an organization has nothing to see yet; the main
 * layout sends them to onboarding. The organization query is the one the dashboard reads.
 */
export function OnboardingRedirect() {
  const organization = useCurrentOrganization();
  if (organization.error instanceof ApiError && organization.error.code === 'OnboardingRequired') {
    return <Navigate to="/onboard" replace />;
  }
  return null;
}
