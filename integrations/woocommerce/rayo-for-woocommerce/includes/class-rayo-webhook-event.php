<?php
/**
 * A Rayo webhook delivery, read from its raw JSON body.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * The fields of a delivery the plugin acts on. Only checkout events carry an order; any other
 * event (donations, the endpoint test) parses with just its id and type, to be acknowledged.
 */
final class Rayo_Webhook_Event {

	/** @var string The delivery id (the same on every retry and redelivery). */
	public $id;

	/** @var string The event type, e.g. checkout.paid. */
	public $type;

	/** @var string|null The checkout's id, for checkout events. */
	public $checkout_id;

	/** @var string|null The order id the store gave the checkout, for checkout events. */
	public $order_id;

	/** @var string|null The checkout's amount as a decimal string, for checkout events. */
	public $amount;

	/** @var string|null The amount's currency code, for checkout events. */
	public $currency;

	/** @var bool Whether a payment arrived after the checkout had expired. */
	public $late = false;

	/** @var string|null How it was paid: lightning or onchain. */
	public $paid_via;

	/** @var string|null For checkout.refunded: Rayo's id of the refund. */
	public $refund_id;

	/** @var string|null For checkout.refunded: the refund's amount as a decimal string. */
	public $refund_amount;

	/** @var string|null For checkout.refunded: the refund amount's currency code. */
	public $refund_currency;

	/**
	 * Reads a delivery body.
	 *
	 * @param string $raw_body The body as received.
	 * @return self
	 * @throws InvalidArgumentException When the body is not a Rayo event, or a checkout event lacks its fields.
	 */
	public static function parse( $raw_body ) {
		$body = is_string( $raw_body ) ? json_decode( $raw_body, true, 16 ) : null;
		if ( ! is_array( $body ) || ! self::is_text( $body, 'id' ) || ! self::is_text( $body, 'type' ) ) {
			throw new InvalidArgumentException( 'The body is not a Rayo event.' );
		}
		$event       = new self();
		$event->id   = $body['id'];
		$event->type = $body['type'];
		if ( ! $event->is_checkout_event() ) {
			return $event;
		}
		$data = isset( $body['data'] ) && is_array( $body['data'] ) ? $body['data'] : null;
		if ( null === $data || ! self::is_text( $data, 'checkoutId' ) || ! self::is_text( $data, 'orderId' ) ) {
			throw new InvalidArgumentException( 'A checkout event needs data.checkoutId and data.orderId.' );
		}
		$amount = isset( $data['amount'] ) && is_array( $data['amount'] ) ? $data['amount'] : null;
		if ( null === $amount || ! self::is_text( $amount, 'value' ) || ! self::is_text( $amount, 'currency' ) ) {
			throw new InvalidArgumentException( 'A checkout event needs data.amount.value and data.amount.currency.' );
		}
		$event->checkout_id = $data['checkoutId'];
		$event->order_id    = $data['orderId'];
		$event->amount      = $amount['value'];
		$event->currency    = $amount['currency'];
		$event->late        = isset( $data['late'] ) && true === $data['late'];
		$event->paid_via    = isset( $data['paidVia'] ) && is_string( $data['paidVia'] ) ? $data['paidVia'] : null;
		if ( 'checkout.refunded' === $event->type ) {
			$refund = isset( $data['refund'] ) && is_array( $data['refund'] ) ? $data['refund'] : null;
			if ( null === $refund || ! self::is_text( $refund, 'id' ) || ! self::is_text( $refund, 'value' ) || ! self::is_text( $refund, 'currency' ) ) {
				throw new InvalidArgumentException( 'A checkout.refunded event needs data.refund.id, data.refund.value and data.refund.currency.' );
			}
			$event->refund_id       = $refund['id'];
			$event->refund_amount   = $refund['value'];
			$event->refund_currency = $refund['currency'];
		}
		return $event;
	}

	/**
	 * Whether the event is about a store checkout (checkout.paid, checkout.expired, …).
	 *
	 * @return bool
	 */
	public function is_checkout_event() {
		return 0 === strpos( $this->type, 'checkout.' );
	}

	/**
	 * Whether $values[$key] is a non-empty string.
	 *
	 * @param array  $values The decoded object.
	 * @param string $key    The field.
	 * @return bool
	 */
	private static function is_text( array $values, $key ) {
		return isset( $values[ $key ] ) && is_string( $values[ $key ] ) && '' !== $values[ $key ];
	}
}
