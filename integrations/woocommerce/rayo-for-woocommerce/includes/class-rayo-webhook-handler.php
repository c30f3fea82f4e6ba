<?php
/**
 * The endpoint Rayo's webhooks are sent to: POST /wp-json/rayo/v1/webhook.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Moves orders on signed checkout events. A delivery that arrives twice (a retry, a redelivery)
 * changes nothing the second time: the order remembers the ids of the events it applied, and a
 * payment is completed only for an order never paid. Deliveries about unknown orders are
 * answered 200 so that Rayo does not retry them for hours.
 */
final class Rayo_Webhook_Handler {

	/** Order meta: the ids of the events applied to the order, newest last, space-separated. */
	const META_EVENTS = '_rayo_events';

	/** Meta of a WooCommerce refund the plugin made: the id of the Rayo refund it records. */
	const META_REFUND_ID = '_rayo_refund_id';

	/** How many event ids an order keeps: far more than the few events one checkout sends. */
	const EVENTS_KEPT = 50;

	/** Registers the route on rest_api_init. */
	public static function register_route() {
		register_rest_route(
			'rayo/v1',
			'/webhook',
			array(
				'methods'             => 'POST',
				'callback'            => array( __CLASS__, 'handle_request' ),
				// The caller is Rayo, not a WordPress user: the signature check in handle() is the authentication.
				'permission_callback' => '__return_true',
			)
		);
	}

	/**
	 * The REST callback.
	 *
	 * @param WP_REST_Request $request The request; its body is read raw, as signed.
	 * @return WP_REST_Response
	 */
	public static function handle_request( $request ) {
		$settings = get_option( 'woocommerce_' . WC_Gateway_Rayo::ID . '_settings', array() );
		$secret   = is_array( $settings ) && isset( $settings['webhook_secret'] ) ? trim( (string) $settings['webhook_secret'] ) : '';
		list( $status, $body ) = self::handle( $request->get_body(), (string) $request->get_header( 'rayo-signature' ), $secret, time() );
		return new WP_REST_Response( $body, $status );
	}

	/**
	 * Checks and applies one delivery.
	 *
	 * @param string $raw_body  The body as received.
	 * @param string $signature The Rayo-Signature header.
	 * @param string $secret    The endpoint's secret from the settings.
	 * @param int    $now       The current Unix time.
	 * @return array{0: int, 1: array} The HTTP status and JSON body to answer.
	 */
	public static function handle( $raw_body, $signature, $secret, $now ) {
		if ( ! Rayo_Signature::verify( $secret, $signature, $raw_body, $now ) ) {
			return array(
				401,
				array(
					'code'    => 'BadSignature',
					'message' => 'The Rayo-Signature header does not match this endpoint’s secret, or is too old.',
				),
			);
		}
		try {
			$event = Rayo_Webhook_Event::parse( $raw_body );
		} catch ( InvalidArgumentException $error ) {
			return array(
				400,
				array(
					'code'    => 'InvalidInput',
					'message' => $error->getMessage(),
				),
			);
		}
		return array( 200, array( 'result' => self::apply( $event ) ) );
	}

	/**
	 * What the event does to its order.
	 *
	 * @param Rayo_Webhook_Event $event The verified event.
	 * @return string What happened, for Rayo's delivery log.
	 */
	private static function apply( Rayo_Webhook_Event $event ) {
		if ( ! $event->is_checkout_event() ) {
			return 'ignored';
		}
		$order_id = Rayo_Order_Reference::parse( $event->order_id );
		$order    = null === $order_id ? false : wc_get_order( $order_id );
		if ( ! $order || WC_Gateway_Rayo::ID !== $order->get_payment_method() ) {
			return 'unknown-order';
		}
		$applied = self::applied_events( $order );
		if ( in_array( $event->id, $applied, true ) ) {
			return 'duplicate';
		}
		$result = self::apply_to_order( $order, $event );
		// A refund saves the order through its own copy; this one is read again so as not to write it back stale.
		$order     = wc_get_order( $order->get_id() );
		$applied[] = $event->id;
		$order->update_meta_data( self::META_EVENTS, implode( ' ', array_slice( $applied, -self::EVENTS_KEPT ) ) );
		$order->save();
		return $result;
	}

	/**
	 * The ids of the events already applied to an order.
	 *
	 * @param WC_Order $order The order.
	 * @return string[]
	 */
	private static function applied_events( $order ) {
		$kept = trim( (string) $order->get_meta( self::META_EVENTS ) );
		return '' === $kept ? array() : explode( ' ', $kept );
	}

	/**
	 * What a checkout event not seen before does to its order.
	 *
	 * @param WC_Order           $order The order, paid with Rayo.
	 * @param Rayo_Webhook_Event $event The event.
	 * @return string What happened.
	 */
	private static function apply_to_order( $order, Rayo_Webhook_Event $event ) {
		if ( $order->get_meta( WC_Gateway_Rayo::META_CHECKOUT_ID ) !== $event->checkout_id ) {
			if ( 'checkout.paid' === $event->type ) {
				$order->add_order_note(
					sprintf(
						/* translators: 1: Rayo checkout id, 2: amount, 3: currency. */
						__( 'Rayo checkout %1$s, which this order no longer uses, was paid (%2$s %3$s). Check the payment in Rayo before shipping or refunding.', 'rayo-for-woocommerce' ),
						$event->checkout_id,
						$event->amount,
						$event->currency
					)
				);
			}
			if ( 'checkout.refunded' === $event->type ) {
				$order->add_order_note(
					sprintf(
						/* translators: 1: amount, 2: currency, 3: Rayo checkout id. */
						__( 'Rayo refunded %1$s %2$s of checkout %3$s, which this order no longer uses. Record that refund here by hand if it belongs to this order.', 'rayo-for-woocommerce' ),
						$event->refund_amount,
						$event->refund_currency,
						$event->checkout_id
					)
				);
			}
			return 'replaced-checkout';
		}

		switch ( $event->type ) {
			case 'checkout.paid':
				return self::apply_paid( $order, $event );
			case 'checkout.processing':
				return self::hold(
					$order,
					/* translators: %s: Rayo checkout id. */
					sprintf( __( 'An on-chain payment to Rayo checkout %s was seen; waiting for its confirmations.', 'rayo-for-woocommerce' ), $event->checkout_id )
				);
			case 'checkout.underpaid':
				return self::hold(
					$order,
					/* translators: %s: Rayo checkout id. */
					sprintf( __( 'The on-chain payment to Rayo checkout %s is less than the order’s total. Settle it with the shopper.', 'rayo-for-woocommerce' ), $event->checkout_id )
				);
			case 'checkout.expired':
				return self::note_expiry( $order, $event );
			case 'checkout.refunded':
				return self::apply_refund( $order, $event );
			default:
				return 'ignored';
		}
	}

	/**
	 * Completes the payment once, and only for the amount the checkout was made for.
	 *
	 * @param WC_Order           $order The order.
	 * @param Rayo_Webhook_Event $event The checkout.paid event.
	 * @return string
	 */
	private static function apply_paid( $order, Rayo_Webhook_Event $event ) {
		// A cancelled or refunded order is not is_paid(), and payment_complete() accepts a cancelled
		// one: the date paid, which WooCommerce never clears, is what says it was paid once.
		if ( $order->get_transaction_id() === $event->checkout_id ) {
			return 'already-paid';
		}
		if ( $order->is_paid() || $order->get_date_paid() ) {
			$order->add_order_note(
				sprintf(
					/* translators: 1: Rayo checkout id, 2: amount, 3: currency. */
					__( 'Rayo checkout %1$s was paid (%2$s %3$s), but this order had already been paid otherwise. Check the payment in Rayo before refunding either.', 'rayo-for-woocommerce' ),
					$event->checkout_id,
					$event->amount,
					$event->currency
				)
			);
			return 'already-paid';
		}
		$expected_amount   = (string) $order->get_meta( WC_Gateway_Rayo::META_AMOUNT );
		$expected_currency = (string) $order->get_meta( WC_Gateway_Rayo::META_CURRENCY );
		$total_now         = self::order_total( $order );
		if ( $event->currency !== $expected_currency || $order->get_currency() !== $expected_currency
			|| ! Rayo_Amount::same( $event->amount, $expected_amount ) || ! Rayo_Amount::same( $event->amount, $total_now ) ) {
			$note = sprintf(
				/* translators: 1: Rayo checkout id, 2: paid amount, 3: currency, 4: order total, 5: order currency. */
				__( 'Rayo checkout %1$s was paid for %2$s %3$s, but the order is for %4$s %5$s. Check the order before shipping.', 'rayo-for-woocommerce' ),
				$event->checkout_id,
				$event->amount,
				$event->currency,
				$total_now,
				$order->get_currency()
			);
			if ( $order->has_status( 'on-hold' ) ) {
				$order->add_order_note( $note );
			} else {
				$order->update_status( 'on-hold', $note );
			}
			return 'amount-mismatch';
		}
		$order->payment_complete( $event->checkout_id );
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount, 2: currency, 3: lightning or onchain, 4: Rayo checkout id. */
				__( 'Paid %1$s %2$s with bitcoin (%3$s) on Rayo checkout %4$s.', 'rayo-for-woocommerce' ),
				$event->amount,
				$event->currency,
				null === $event->paid_via ? '?' : $event->paid_via,
				$event->checkout_id
			) . ( $event->late ? ' ' . __( 'The payment arrived after the checkout had expired.', 'rayo-for-woocommerce' ) : '' )
		);
		return 'paid';
	}

	/**
	 * Records a refund made in Rayo as WooCommerce's own refund of the order, once per Rayo refund
	 * (however many endpoints or deliveries bring it), without asking the gateway to pay it again:
	 * Rayo already pays the customer. A refund WooCommerce cannot take (another currency, more than
	 * is left to refund) is written as a note for the merchant instead.
	 *
	 * @param WC_Order           $order The order, paid with Rayo.
	 * @param Rayo_Webhook_Event $event The checkout.refunded event.
	 * @return string
	 */
	private static function apply_refund( $order, Rayo_Webhook_Event $event ) {
		foreach ( $order->get_refunds() as $refund ) {
			if ( $refund->get_meta( self::META_REFUND_ID ) === $event->refund_id ) {
				return 'already-refunded';
			}
		}
		$reason = sprintf(
			/* translators: %s: Rayo refund id. */
			__( 'Refunded with bitcoin in Rayo (refund %s).', 'rayo-for-woocommerce' ),
			$event->refund_id
		);
		if ( $order->get_currency() !== $event->refund_currency ) {
			$order->add_order_note(
				sprintf(
					/* translators: 1: amount, 2: currency, 3: order currency, 4: Rayo refund id. */
					__( 'Rayo refunded %1$s %2$s (refund %4$s), but the order is in %3$s. Record the refund here by hand.', 'rayo-for-woocommerce' ),
					$event->refund_amount,
					$event->refund_currency,
					$order->get_currency(),
					$event->refund_id
				)
			);
			return 'currency-mismatch';
		}
		$rayo_refund_id = $event->refund_id;
		$tag_refund     = static function ( $refund ) use ( $rayo_refund_id ) {
			$refund->update_meta_data( self::META_REFUND_ID, $rayo_refund_id );
		};
		// Tagged before WooCommerce first saves it, so that no refund of ours exists untagged.
		add_action( 'woocommerce_create_refund', $tag_refund );
		try {
			$refund = wc_create_refund(
				array(
					'order_id'       => $order->get_id(),
					'amount'         => $event->refund_amount,
					'reason'         => $reason,
					'refund_payment' => false,
					'restock_items'  => false,
				)
			);
		} finally {
			remove_action( 'woocommerce_create_refund', $tag_refund );
		}
		if ( is_wp_error( $refund ) ) {
			$order->add_order_note(
				sprintf(
					/* translators: 1: amount, 2: currency, 3: Rayo refund id, 4: WooCommerce's reason. */
					__( 'Rayo refunded %1$s %2$s (refund %3$s), but WooCommerce did not take the refund: %4$s', 'rayo-for-woocommerce' ),
					$event->refund_amount,
					$event->refund_currency,
					$event->refund_id,
					$refund->get_error_message()
				)
			);
			return 'refund-refused';
		}
		return 'refunded';
	}

	/**
	 * The order's total as Rayo was sent it, or what WooCommerce holds when that is unreadable
	 * (then it matches no paid amount).
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private static function order_total( $order ) {
		$decimals = wc_get_price_decimals();
		try {
			return Rayo_Amount::shortest_decimal( Rayo_Amount::order_total_to_minor_units( $order->get_total(), $decimals ), $decimals );
		} catch ( InvalidArgumentException $error ) {
			return (string) $order->get_total();
		}
	}

	/**
	 * Puts a pending order on hold, so that WooCommerce's unpaid-order timer does not cancel it
	 * while a payment is on its way; on an order in any other status, only the note is written
	 * (WooCommerce writes no note for a status the order already has).
	 *
	 * @param WC_Order $order The order.
	 * @param string   $note  Why.
	 * @return string
	 */
	private static function hold( $order, $note ) {
		if ( ! $order->has_status( 'pending' ) ) {
			$order->add_order_note( $note );
			return 'noted';
		}
		$order->update_status( 'on-hold', $note );
		return 'on-hold';
	}

	/**
	 * Notes an expiry and leaves the order's status alone: a pending order can still be paid
	 * (WooCommerce takes payment for pending and failed orders, not cancelled ones), and paying it
	 * again makes a new checkout. WooCommerce's own hold-stock timer cancels it if nobody does.
	 *
	 * @param WC_Order           $order The order.
	 * @param Rayo_Webhook_Event $event The checkout.expired event.
	 * @return string
	 */
	private static function note_expiry( $order, Rayo_Webhook_Event $event ) {
		if ( $order->get_date_paid() ) {
			return 'unchanged';
		}
		$note = $order->has_status( 'pending' )
			/* translators: %s: Rayo checkout id. */
			? __( 'Rayo checkout %s expired unpaid. The order can still be paid: paying again makes a new checkout.', 'rayo-for-woocommerce' )
			/* translators: %s: Rayo checkout id. */
			: __( 'Rayo checkout %s expired unpaid.', 'rayo-for-woocommerce' );
		$order->add_order_note( sprintf( $note, $event->checkout_id ) );
		return 'noted';
	}
}
