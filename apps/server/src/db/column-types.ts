import type { BankingInfoMetadata } from '@rayo/shared';

/**
 * The values that a column's check constraint allows, where no API schema in `@rayo/shared` names
 * them already. `schema-codegen.ts` gives these types to the generated columns.
 */
export type CheckoutKind = 'payment_link' | 'store';
export type CheckoutStatusColumn = 'awaiting_payment' | 'processing' | 'paid' | 'expired';
export type CheckoutPaidVia = 'lightning' | 'onchain';
export type EmailCodePurpose = 'confirm_email' | 'reset_password';
export type OnchainState = 'awaiting_payment' | 'confirming' | 'underpaid' | 'confirmed';
export type PayoutKind = 'lightning' | 'onchain';
export type OnchainBatchState = 'awaiting_signature' | 'signed' | 'broadcast' | 'confirmed';
/** Why an organization's on-chain shares wait (migration 0037). */
export type OnchainWaitReason =
  | 'wallet_funds'
  | 'below_minimum'
  | 'destination_hold'
  | 'batch_pending'
  | 'no_address'
  | 'blocked'
  | 'no_wallet';
/** An address, or a bank account's fields. */
export type PayoutDestinationValue = string | BankingInfoMetadata;
