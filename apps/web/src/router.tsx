import type { NavEntry } from '@rayo/shared';
import { type ReactNode, Suspense } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { DocumentTitle } from './components/DocumentTitle.tsx';
import { lazyPage, preloadLazyScreens } from './components/lazy-page.tsx';
import { NamedRoutes } from './components/NamedRoutes.tsx';
import { PageLoader, PageOutlet } from './components/PageOutlet.tsx';
import { AuthLayout } from './layouts/AuthLayout.tsx';
import { EmptyLayout } from './layouts/EmptyLayout.tsx';
import { PlainFrame } from './layouts/PlainFrame.tsx';
import { HomeSkeleton } from './pages/home/HomeSkeleton.tsx';
import { LoginPage } from './pages/login/LoginPage.tsx';
import { NotFoundPage } from './pages/not-found/NotFoundPage.tsx';
import { RedirectIfSignedIn, RequireSession } from './session/guards.tsx';

// The signed-in layout and the others a signed-out visitor on the login page does not see.
const MainLayout = lazyPage(() => import('./layouts/MainLayout.tsx').then((layout) => layout.MainLayout));
const PlainLayout = lazyPage(() => import('./layouts/PlainLayout.tsx').then((layout) => layout.PlainLayout));
const EcwidLayout = lazyPage(() => import('./layouts/EcwidLayout.tsx').then((layout) => layout.EcwidLayout));
const HomePage = lazyPage(() => import('./pages/home/HomePage.tsx').then((page) => page.HomePage));
const QueryRoutes = lazyPage(() => import('./components/QueryRoutes.tsx').then((routes) => routes.QueryRoutes));
const AccountsPage = lazyPage(() => import('./pages/accounts/AccountsPage.tsx').then((page) => page.AccountsPage));
const BptsPage = lazyPage(() => import('./pages/bpts/BptsPage.tsx').then((page) => page.BptsPage));
const ManagersPage = lazyPage(() => import('./pages/managers/ManagersPage.tsx').then((page) => page.ManagersPage));
const ClosePage = lazyPage(() => import('./pages/close/ClosePage.tsx').then((page) => page.ClosePage));
const SettingsPage = lazyPage(() => import('./pages/settings/SettingsPage.tsx').then((page) => page.SettingsPage));
const IntegrationsPage = lazyPage(() =>
  import('./pages/integrations/IntegrationsPage.tsx').then((page) => page.IntegrationsPage),
);
const PaymentLinksPage = lazyPage(() =>
  import('./pages/integrations/PaymentLinksPage.tsx').then((page) => page.PaymentLinksPage),
);
const AccountLinksPage = lazyPage(() =>
  import('./pages/accounts/AccountLinksPage.tsx').then((page) => page.AccountLinksPage),
);
const CheckoutPage = lazyPage(() => import('./pages/checkout/CheckoutPage.tsx').then((page) => page.CheckoutPage));
const BackOfficePage = lazyPage(() =>
  import('./pages/back-office/BackOfficePage.tsx').then((page) => page.BackOfficePage),
);
const OrganizationInfosPage = lazyPage(() =>
  import('./pages/back-office/OrganizationInfosPage.tsx').then((page) => page.OrganizationInfosPage),
);
const OrganizationTransactionsPage = lazyPage(() =>
  import('./pages/back-office/OrganizationTransactionsPage.tsx').then((page) => page.OrganizationTransactionsPage),
);
const ShopifyPage = lazyPage(() => import('./pages/ecommerce/ShopifyPage.tsx').then((page) => page.ShopifyPage));
const EcwidPage = lazyPage(() => import('./pages/ecommerce/EcwidPage.tsx').then((page) => page.EcwidPage));
const SignedInTerminalPage = lazyPage(() =>
  import('./pages/terminal/TerminalPage.tsx').then((page) => page.SignedInTerminalPage),
);
const SharedTerminalPage = lazyPage(() =>
  import('./pages/terminal/TerminalPage.tsx').then((page) => page.SharedTerminalPage),
);
const SignUpPage = lazyPage(() => import('./pages/signup/SignUpPage.tsx').then((page) => page.SignUpPage));
const CheckYourEmailPage = lazyPage(() =>
  import('./pages/signup/CheckYourEmailPage.tsx').then((page) => page.CheckYourEmailPage),
);
const OnboardPage = lazyPage(() => import('./pages/onboard/OnboardPage.tsx').then((page) => page.OnboardPage));
const ForgotPasswordPage = lazyPage(() =>
  import('./pages/password-reset/ForgotPasswordPage.tsx').then((page) => page.ForgotPasswordPage),
);
const ConfirmForgotPasswordPage = lazyPage(() =>
  import('./pages/password-reset/ConfirmForgotPasswordPage.tsx').then((page) => page.ConfirmForgotPasswordPage),
);
const CancelPayoutChangePage = lazyPage(() =>
  import('./pages/payout-change/CancelPayoutChangePage.tsx').then((page) => page.CancelPayoutChangePage),
);
const DonationPage = lazyPage(() => import('./pages/donation/DonationPage.tsx').then((page) => page.DonationPage));
const ReceiptPage = lazyPage(() => import('./pages/receipt/ReceiptPage.tsx').then((page) => page.ReceiptPage));
const DevnetOnly = lazyPage(() => import('./pages/devnet/DevnetWalletPage.tsx').then((page) => page.DevnetOnly));
const DevnetWalletPage = lazyPage(() =>
  import('./pages/devnet/DevnetWalletPage.tsx').then((page) => page.DevnetWalletPage),
);

/** A route of the main layout; `entry` is the sidebar entry whose roles may open it. */
function mainRoute(path: string, name: string, entry: NavEntry, element: ReactNode): RouteObject {
  return { path, handle: { name }, element: <RequireSession entry={entry}>{element}</RequireSession> };
}

/** Every route of SPEC §2. Route `handle.name`s are SPEC's route names. */
export const routes: RouteObject[] = [
  {
    element: <AuthLayout />,
    children: [
      {
        path: '/login',
        handle: { name: 'login' },
        element: (
          <RedirectIfSignedIn>
            <LoginPage preloadScreensAt={preloadRouteAt} />
          </RedirectIfSignedIn>
        ),
      },
      {
        path: '/signup',
        handle: { name: 'signup' },
        element: (
          <RedirectIfSignedIn>
            <SignUpPage />
          </RedirectIfSignedIn>
        ),
      },
      { path: '/forgot-password', handle: { name: 'forgot-password' }, element: <ForgotPasswordPage /> },
      {
        path: '/confirm-forgot-password',
        handle: { name: 'confirm-forgot-password' },
        element: <ConfirmForgotPasswordPage />,
      },
      { path: '/check-your-email', handle: { name: 'check-your-email' }, element: <CheckYourEmailPage /> },
      {
        path: '/cancel-payout-change',
        handle: { name: 'cancel-payout-change' },
        element: <CancelPayoutChangePage />,
      },
      {
        element: <QueryRoutes />,
        children: [{ path: '/onboard', handle: { name: 'onboard' }, element: <OnboardPage /> }],
      },
    ],
  },
  {
    // A customer opening a link sees the page's frame at once, not a spinner alone, while the
    // code of the routes around the page arrives.
    element: (
      <Suspense
        fallback={
          <PlainFrame>
            <PageLoader />
          </PlainFrame>
        }
      >
        <QueryRoutes />
      </Suspense>
    ),
    children: [
      {
        element: <PlainLayout />,
        children: [
          {
            path: '/ecommerce/shopify',
            handle: { name: 'ecommerce-shopify' },
            element: (
              <RequireSession>
                <ShopifyPage />
              </RequireSession>
            ),
          },
          { path: '/ecommerce/checkout/:id', handle: { name: 'ecommerce-checkout-id' }, element: <CheckoutPage /> },
          { path: '/donation/:id', handle: { name: 'donation-id' }, element: <DonationPage /> },
          // A paid sale's receipt: the random token in its link is all a reader needs.
          { path: '/receipts/:token', handle: { name: 'receipt' }, element: <ReceiptPage /> },
          // The bpt route parameter (SPEC §2): a shareable terminal opens without signing in.
          { path: '/bpts/:bptToken', handle: { name: 'bpt-terminal' }, element: <SharedTerminalPage /> },
        ],
      },
    ],
  },
  {
    element: <QueryRoutes />,
    children: [
      {
        // Public, and only on a devnet server; elsewhere the path is a 404.
        element: <DevnetOnly />,
        children: [
          {
            element: <PlainLayout />,
            children: [{ path: '/devnet/wallet', handle: { name: 'devnet-wallet' }, element: <DevnetWalletPage /> }],
          },
        ],
      },
      {
        element: <EcwidLayout />,
        children: [
          {
            path: '/ecommerce/ecwid',
            handle: { name: 'ecommerce-ecwid' },
            element: (
              <RequireSession>
                <EcwidPage />
              </RequireSession>
            ),
          },
        ],
      },
      {
        element: (
          <RequireSession>
            <MainLayout />
          </RequireSession>
        ),
        children: [
          mainRoute(
            '/',
            'index',
            'index',
            <Suspense fallback={<HomeSkeleton />}>
              <HomePage />
            </Suspense>,
          ),
          mainRoute('/close', 'close', 'index', <ClosePage />),
          mainRoute('/settings/:section?', 'settings', 'settings', <SettingsPage />),
          mainRoute('/accounts', 'accounts', 'accounts', <AccountsPage />),
          mainRoute('/accounts/:id/links', 'account-links', 'accounts', <AccountLinksPage />),
          mainRoute('/bpts', 'bpts', 'bpts', <BptsPage />),
          mainRoute('/bpts/:id/terminal', 'bpt-terminal-signed-in', 'bpts', <SignedInTerminalPage />),
          mainRoute('/integrations', 'integrations', 'integrations', <IntegrationsPage />),
          mainRoute('/integrations/payment-links/:vbpt', 'payment-link-vbpt', 'integrations', <PaymentLinksPage />),
          mainRoute('/managers', 'managers', 'managers', <ManagersPage />),
          mainRoute('/back-office/:section?', 'back-office', 'back-office', <BackOfficePage />),
          mainRoute('/back-office/:id/infos', 'back-office-id-infos', 'back-office', <OrganizationInfosPage />),
          mainRoute(
            '/back-office/:id/transactions',
            'back-office-id-transactions',
            'back-office',
            <OrganizationTransactionsPage />,
          ),
        ],
      },
    ],
  },
  {
    element: <EmptyLayout />,
    children: [{ path: '*', handle: { name: 'not-found' }, element: <NotFoundPage /> }],
  },
];

const appRoutes: RouteObject[] = [
  { element: <DocumentTitle />, children: [{ element: <PageOutlet />, children: routes }] },
];

/** The code of every lazily loaded screen on the route at a path, which a first render there waits for. */
export function preloadRouteAt(path: string): Promise<unknown> {
  return Promise.all((matchRoutes(appRoutes, path) ?? []).map(({ route }) => preloadLazyScreens(route.element)));
}

/** The app's screens for the browser's location (inside `BrowserRouter`). */
export function AppRoutes() {
  return <NamedRoutes routes={appRoutes} />;
}
