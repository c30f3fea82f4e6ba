/**
 * The closed set of error codes the API answers with, and the HTTP status of each.
 * Typed as a Record so that adding a code without a status does not compile.
 */
export const errorStatus = {
  Default: 500,
  InvalidInput: 400,
  MissingName: 400,
  MissingAmount: 400,
  InvalidAmount: 400,
  InvalidTip: 400,
  InvalidCurrency: 400,
  InvalidTaxPercentage: 400,
  InvalidLnurlWithdraw: 400,
  InvalidAccentColor: 400,
  // Uploads (logo, KYB): the type is sniffed from the bytes, whatever the client says it is.
  MissingFile: 400,
  InvalidFileType: 400,
  FileTooLarge: 413,
  TooManyFiles: 409,
  // Payout destinations: each names what is wrong, and nothing is kept.
  MissingBankingField: 400,
  InvalidBankingField: 400,
  InvalidAccountNumber: 400,
  InvalidRoutingNumber: 400,
  BankingInfoExists: 409,
  MissingOnchainAddress: 400,
  InvalidOnchainAddress: 400,
  OnchainAddressWrongNetwork: 400,
  MissingLightningAddress: 400,
  InvalidLightningAddress: 400,
  LightningAddressUnreachable: 400,
  LightningAddressNotPayable: 400,
  // Donations: an organization's Lightning address name is unique across organizations (LUD-16).
  LightningAddressTaken: 409,
  AccountRequired: 409,
  // SPEC §5: a virtual BPT needs a BPT first.
  BptRequired: 409,
  // SPEC §8 'Link already exists': a live payment link of the virtual BPT has that description and amount.
  LinkAlreadyExists: 409,
  AccountInUse: 409,
  InvoiceNotPending: 409,
  // A store's order id names one checkout: the same order with another amount is refused.
  OrderIdConflict: 409,
  // DESIGN §9: with checkout protection on, only the store's server (developer token) creates checkouts.
  CheckoutProtected: 403,
  // SPEC §8 'Your organization is disabled, missing info in Settings': blocked for missing information.
  OrganizationDisabled: 403,
  // Blocked by back office for another reason, which the merchant takes up with support.
  OrganizationBlocked: 403,
  // An organization holds at most DEVELOPER_TOKEN_LIMIT active developer tokens.
  DeveloperTokenLimit: 409,
  // Webhooks: the endpoint URL is merchant-chosen, so only https to public hosts (docs/security.md).
  InvalidWebhookUrl: 400,
  // An organization holds at most WEBHOOK_ENDPOINT_LIMIT active webhook endpoints.
  WebhookEndpointLimit: 409,
  // Shops: the store did not take the token (or did not answer) when it was checked before saving.
  ShopConnectionFailed: 400,
  // A store belongs to one organization.
  ShopTaken: 409,
  // The order has nothing left to pay (already paid, or unknown to the store).
  ShopOrderNotPayable: 409,
  // An Ecwid payment request that does not open with the store's client secret.
  InvalidShopPayload: 400,
  // SPEC §4: the payout split changes only once back office has verified every field.
  SplitNeedsValidation: 409,
  // Back office verifies what the merchant entered: a field with nothing in it cannot be verified.
  NothingToVerify: 409,
  // A payout can be cancelled only while pending or failed and while no payment of it may still complete.
  PayoutNotCancellable: 409,
  PayoutInFlight: 409,
  // A changed payout destination is paid only once back office verified it or its cool-down ended.
  PayoutDestinationHeld: 409,
  // A destination change can be cancelled until its cool-down ends, and once.
  DestinationChangeNotCancellable: 409,
  // An on-chain payout batch takes the operator's signature once, while it waits for it.
  BatchNotAwaitingSignature: 409,
  // A batch's fee can be raised only while no block has its transaction.
  BatchNotReplaceable: 409,
  // The platform wallet cannot pay the higher fee of a batch's replacement.
  BatchFeeNotCovered: 409,
  // Shopify webhooks: the body is not signed with the store's API secret key.
  InvalidWebhookSignature: 401,
  InvoiceFailed: 502,
  LightningUnavailable: 503,
  RateUnavailable: 503,
  MissingEmail: 400,
  MissingPassword: 400,
  MissingRefreshToken: 400,
  InvalidEmail: 400,
  InvalidPassword: 400,
  WrongAuth: 401,
  // Not 401: the caller's session is fine, and a 401 would make the web app refresh and log out.
  WrongCurrentPassword: 400,
  // MFA. Wrong codes are 400 for the same reason; only a lapsed sign-in challenge is 401, and
  // the web app sends that call without a session, so it does not log anyone out.
  MissingMfaCode: 400,
  WrongMfaCode: 400,
  // A right code whose 30-second step was already used: each code works once, so the user waits
  // for the next one rather than reading that the code is wrong.
  MfaCodeReused: 400,
  WrongRecoveryCode: 400,
  MfaChallengeExpired: 401,
  MfaAlreadyEnabled: 409,
  MfaNotEnabled: 409,
  MfaEnrollmentMissing: 409,
  // BACKOFFICE_MFA_REQUIRED: a back-office user without MFA may only reach Settings until it is on.
  MfaRequired: 403,
  // ...and, once on, may not turn it off while the platform requires it.
  MfaCannotBeTurnedOff: 403,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  // SPEC §8 'Transaction doesn't exists': an id back office marks paid that is unknown, already
  // paid or without a fiat part; the whole request is refused.
  TransactionNotFound: 404,
  // Fiat marked paid to an organization without a bank account, which back office did not confirm.
  BankAccountMissing: 409,
  // A refund of a sale that was never paid (an open or expired invoice).
  SaleNotPaid: 409,
  // A refund above what the sale received less its earlier refunds.
  RefundExceedsSale: 409,
  // A Lightning invoice given for a refund that Rayo cannot pay as it is: unreadable, for another
  // network or amount, expired or about to, or already given for another refund.
  InvalidRefundInvoice: 400,
  // An on-chain refund below the dust limit: no node relays such an output.
  RefundBelowDust: 400,
  // The platform wallet cannot send an on-chain refund now (no wallet, or not enough confirmed coins).
  OnchainRefundUnavailable: 409,
  UserAlreadyExist: 409,
  // SPEC §8 names this answer for a password reset, so the email is revealed there on purpose.
  EmailNotFound: 404,
  EmailNotConfirmed: 403,
  MissingCode: 400,
  InvalidCode: 400,
  OnboardingRequired: 409,
  AlreadyOnboarded: 409,
  TooManyRequests: 429,
  ServiceUnavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

/** A failure a service reports on purpose; the HTTP layer turns it into `{ code, message }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message?: string) {
    super(message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
  }
}
