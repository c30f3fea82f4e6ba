import type { ErrorCode } from '@rayo/shared';
import type { TFunction } from '../i18n/index.ts';
import { ApiError } from './client.ts';

/**
 * The i18n key of the message a user sees for each error code (SPEC §8). Total, so a new
 * code without a message does not compile.
 */
const messageKeys: Record<ErrorCode | 'Network', string> = {
  Default: 'errors.default',
  InvalidInput: 'errors.invalidInput',
  Unauthorized: 'errors.sessionEnded',
  MissingRefreshToken: 'errors.sessionEnded',
  NotFound: 'errors.notFound',
  LightningAddressTaken: 'errors.lightningAddressTaken',
  OrderIdConflict: 'errors.orderIdConflict',
  CheckoutProtected: 'errors.checkoutProtected',
  ShopOrderNotPayable: 'errors.orderAlreadyPaid',
  InvalidShopPayload: 'errors.invalidShopPayload',
  WrongAuth: 'errors.wrongAuth',
  WrongCurrentPassword: 'errors.wrongCurrentPassword',
  MissingEmail: 'errors.missingEmail',
  MissingPassword: 'errors.missingPassword',
  InvalidEmail: 'errors.invalidEmail',
  InvalidPassword: 'errors.invalidPassword',
  UserAlreadyExist: 'errors.userAlreadyExist',
  TooManyRequests: 'errors.tooManyRequests',
  Network: 'errors.network',
  OrganizationDisabled: 'errors.organizationDisabled',
  OrganizationBlocked: 'errors.organizationBlocked',
  NothingToVerify: 'errors.nothingToVerify',
  PayoutNotCancellable: 'errors.payoutNotCancellable',
  PayoutInFlight: 'errors.payoutInFlight',
  PayoutDestinationHeld: 'errors.payoutDestinationHeld',
  DestinationChangeNotCancellable: 'errors.destinationChangeNotCancellable',
  InvalidWebhookSignature: 'errors.invalidWebhookSignature',
  BatchNotAwaitingSignature: 'errors.batchNotAwaitingSignature',
  BatchNotReplaceable: 'errors.batchNotReplaceable',
  BatchFeeNotCovered: 'errors.batchFeeNotCovered',
  SplitNeedsValidation: 'errors.splitNeedsValidation',
  DeveloperTokenLimit: 'errors.developerTokenLimit',
  InvalidWebhookUrl: 'errors.invalidWebhookUrl',
  WebhookEndpointLimit: 'errors.webhookEndpointLimit',
  ShopConnectionFailed: 'shops.errors.connectionFailed',
  ShopTaken: 'shops.errors.taken',
  InvoiceFailed: 'errors.invoiceFailed',
  LightningUnavailable: 'errors.maintenance',
  RateUnavailable: 'errors.maintenance',
  InvalidLnurlWithdraw: 'errors.invalidLnurlWithdraw',
  AccountRequired: 'errors.accountRequired',
  BptRequired: 'errors.bptRequired',
  LinkAlreadyExists: 'errors.linkExists',
  TransactionNotFound: 'errors.transactionMissing',
  BankAccountMissing: 'errors.bankAccountMissing',
  SaleNotPaid: 'errors.saleNotPaid',
  RefundExceedsSale: 'errors.refundExceedsSale',
  InvalidRefundInvoice: 'errors.invalidRefundInvoice',
  RefundBelowDust: 'errors.refundBelowDust',
  OnchainRefundUnavailable: 'errors.onchainRefundUnavailable',
  AccountInUse: 'errors.accountInUse',
  InvoiceNotPending: 'errors.invoiceNotPending',
  MissingName: 'errors.missingName',
  MissingAmount: 'errors.missingAmount',
  InvalidAmount: 'errors.invalidAmount',
  InvalidTip: 'errors.invalidTip',
  InvalidCurrency: 'errors.invalidCurrency',
  InvalidTaxPercentage: 'errors.invalidTaxPercentage',
  Forbidden: 'errors.forbidden',
  MissingMfaCode: 'mfa.errors.missingCode',
  WrongMfaCode: 'mfa.errors.wrongCode',
  MfaCodeReused: 'mfa.errors.codeReused',
  MfaRequired: 'mfa.settings.turnOn',
  MfaCannotBeTurnedOff: 'mfa.errors.cannotTurnOff',
  WrongRecoveryCode: 'mfa.errors.wrongRecoveryCode',
  MfaChallengeExpired: 'mfa.errors.challengeExpired',
  MfaAlreadyEnabled: 'mfa.errors.alreadyEnabled',
  MfaNotEnabled: 'mfa.errors.notEnabled',
  MfaEnrollmentMissing: 'mfa.errors.enrollmentMissing',
  EmailNotFound: 'errors.emailUnknown',
  EmailNotConfirmed: 'errors.emailNotConfirmed',
  InvalidCode: 'errors.invalidCode',
  MissingCode: 'errors.invalidCode',
  OnboardingRequired: 'errors.onboardingRequired',
  AlreadyOnboarded: 'errors.alreadyOnboarded',
  ServiceUnavailable: 'errors.maintenance',
  MissingBankingField: 'payoutDestinations.errors.missingBankingField',
  InvalidBankingField: 'payoutDestinations.errors.invalidBankingField',
  InvalidAccountNumber: 'payoutDestinations.errors.invalidAccountNumber',
  InvalidRoutingNumber: 'payoutDestinations.errors.invalidRoutingNumber',
  BankingInfoExists: 'payoutDestinations.errors.bankingInfoExists',
  MissingOnchainAddress: 'payoutDestinations.errors.missingOnchainAddress',
  InvalidOnchainAddress: 'payoutDestinations.errors.invalidOnchainAddress',
  OnchainAddressWrongNetwork: 'payoutDestinations.errors.onchainAddressWrongNetwork',
  MissingLightningAddress: 'payoutDestinations.errors.missingLightningAddress',
  InvalidLightningAddress: 'payoutDestinations.errors.invalidLightningAddress',
  LightningAddressUnreachable: 'payoutDestinations.errors.lightningAddressUnreachable',
  LightningAddressNotPayable: 'payoutDestinations.errors.lightningAddressNotPayable',
  InvalidAccentColor: 'branding.invalidColor',
  FileTooLarge: 'settingsFiles.errors.fileTooLarge',
  InvalidFileType: 'settingsFiles.errors.invalidFileType',
  TooManyFiles: 'settingsFiles.errors.tooManyFiles',
  MissingFile: 'settingsFiles.errors.missingFile',
};

export function errorMessageKey(code: ErrorCode | 'Network'): string {
  return messageKeys[code];
}

/** The translated message for any failure a call can throw. */
export function errorMessage(t: TFunction, error: unknown): string {
  return t(error instanceof ApiError ? errorMessageKey(error.code) : 'errors.default');
}

/** Whether a refusal says the organization may not take payments, whatever back office blocked it for. */
export function isOrganizationBlocked(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'OrganizationBlocked' || error.code === 'OrganizationDisabled');
}

/**
 * The message for a page the public uses (donations, checkouts, a shared terminal): why a
 * merchant was blocked is the merchant's business, so a blocked one reads neutrally.
 */
export function publicErrorMessage(t: TFunction, error: unknown): string {
  return isOrganizationBlocked(error) ? t('errors.merchantUnavailable') : errorMessage(t, error);
}
