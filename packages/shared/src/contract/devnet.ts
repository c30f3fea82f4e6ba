import {
  DevnetChainTipSchema,
  DevnetMineRequestSchema,
  DevnetMineResponseSchema,
  DevnetSendRequestSchema,
  DevnetSendResponseSchema,
} from '../onchain.ts';
import {
  DevnetPayRequestSchema,
  DevnetPayResponseSchema,
  DevnetWithdrawLinkRequestSchema,
  DevnetWithdrawLinkSchema,
  DevnetWithdrawRequestSchema,
  DevnetWithdrawResponseSchema,
} from '../payments.ts';
import { defineCalls } from './call.ts';

const tags = ['devnet'];

/**
 * The devnet wallet (docs/architecture.md): registered only with the devnet Lightning backend
 * (the chain's calls only with the devnet chain too), whose money is not real. Without a session,
 * but a caller not on the machine Rayo runs on is refused with `Forbidden` unless
 * `DEVNET_PUBLIC` is set. Its Bolt Card service answers as LNURL does, so it is registered by hand.
 */
export const devnetCalls = defineCalls({
  'POST /api/devnet/pay': {
    operationId: 'payFromDevnetWallet',
    tags,
    summary: 'The devnet wallet pays a devnet invoice',
    description:
      "An invoice of this devnet node only: another node's, an unknown or an expired one is refused with `InvalidInput`, a paid one with `InvoiceNotPending`.",
    body: DevnetPayRequestSchema,
    answer: DevnetPayResponseSchema,
    who: 'public',
    refusals: ['Forbidden', 'InvoiceNotPending'],
  },
  'POST /api/devnet/expire': {
    operationId: 'expireDevnetInvoice',
    tags,
    summary: 'The devnet node lets an unpaid invoice run out now, and Rayo records it expired',
    body: DevnetPayRequestSchema,
    who: 'public',
    refusals: ['Forbidden', 'InvoiceNotPending'],
  },
  'POST /api/devnet/lnurl-withdraw': {
    operationId: 'createDevnetWithdrawLink',
    tags,
    summary: "A one-time withdraw link of the devnet wallet, in a Bolt Card's `lnurlw://` form",
    body: DevnetWithdrawLinkRequestSchema,
    answer: DevnetWithdrawLinkSchema,
    who: 'public',
    refusals: ['Forbidden'],
  },
  'POST /api/devnet/withdraw': {
    operationId: 'withdrawToDevnetWallet',
    tags,
    summary: "The devnet wallet withdraws amountMsat from an LNURL-withdraw link, such as a refund's",
    description:
      'A link its service refuses, or that does not pay that amount, is refused with `InvalidLnurlWithdraw`.',
    body: DevnetWithdrawRequestSchema,
    answer: DevnetWithdrawResponseSchema,
    who: 'public',
    refusals: ['Forbidden', 'InvalidLnurlWithdraw'],
  },
  'GET /api/devnet/chain': {
    operationId: 'getDevnetChainTip',
    tags,
    summary: "The devnet chain's height",
    answer: DevnetChainTipSchema,
    who: 'public',
    refusals: ['Forbidden'],
  },
  'POST /api/devnet/mine': {
    operationId: 'mineDevnetBlocks',
    tags,
    summary: 'Mines blocks on the devnet chain',
    body: DevnetMineRequestSchema,
    answer: DevnetMineResponseSchema,
    who: 'public',
    refusals: ['Forbidden'],
  },
  'POST /api/devnet/send-onchain': {
    operationId: 'sendOnchainFromDevnetWallet',
    tags,
    summary: 'The devnet wallet pays a devnet Bitcoin address; the payment waits in the mempool for a block',
    description: 'Not a devnet (`bcrt1…`) address: `InvalidInput`; between 1 sat and 21 BTC, else `InvalidAmount`.',
    body: DevnetSendRequestSchema,
    answer: DevnetSendResponseSchema,
    who: 'public',
    refusals: ['Forbidden', 'InvalidAmount'],
  },
});
