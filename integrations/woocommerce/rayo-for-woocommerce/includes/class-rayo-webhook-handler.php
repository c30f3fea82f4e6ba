<?php
/**
 * The endpoint Rayo's webhooks are sent to: POST /wp-json/rayo/v1/webhook.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Moves orders on signed checkout events. Every change is guarded by the order's status, so a
 * delivery that arrives twice (a retry, a redelivery) changes nothing the second time.
 * Deliveries about unknown orders are answered 200 so that Rayo does not retry them for hours.
 */
final class Rayo_Webhook_Handler {

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
				if ( ! $order->has_status( 'pending' ) ) {
					return 'unchanged';
				}
				$order->update_status(
					'cancelled',
					/* translators: %s: Rayo checkout id. */
					sprintf( __( 'Rayo checkout %s expired unpaid.', 'rayo-for-woocommerce' ), $event->checkout_id )
				);
				return 'cancelled';
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
		if ( $order->is_paid() ) {
			return 'already-paid';
		}
		$expected_amount   = (string) $order->get_meta( WC_Gateway_Rayo::META_AMOUNT );
		$expected_currency = (string) $order->get_meta( WC_Gateway_Rayo::META_CURRENCY );
		$total_now         = self::order_total( $order );
		if ( $event->currency !== $expected_currency || $order->get_currency() !== $expected_currency
			|| ! Rayo_Amount::same( $event->amount, $expected_amount ) || ! Rayo_Amount::same( $event->amount, $total_now ) ) {
			if ( ! $order->has_status( 'on-hold' ) ) {
				$order->update_status(
					'on-hold',
					sprintf(
						/* translators: 1: Rayo checkout id, 2: paid amount, 3: currency, 4: order total, 5: order currency. */
						__( 'Rayo checkout %1$s was paid for %2$s %3$s, but the order is for %4$s %5$s. Check the order before shipping.', 'rayo-for-woocommerce' ),
						$event->checkout_id,
						$event->amount,
						$event->currency,
						$total_now,
						$order->get_currency()
					)
				);
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
	 * while a payment is on its way.
	 *
	 * @param WC_Order $order The order.
	 * @param string   $note  Why.
	 * @return string
	 */
	private static function hold( $order, $note ) {
		if ( ! $order->has_status( 'pending' ) ) {
			return 'unchanged';
		}
		$order->update_status( 'on-hold', $note );
		return 'on-hold';
	}
}
