<?php
/**
 * @package Rayo_For_WooCommerce
 */

use PHPUnit\Framework\TestCase;

/**
 * Signed deliveries applied to an order of the harness's WooCommerce stand-in, which changes
 * status, writes notes and completes payments as WC_Order does.
 */
final class WebhookHandlerTest extends TestCase {

	const SECRET   = 'whsec_9hX2mQ4vT7bK1nL8pR3sW6yZ0cF5gJ2d';
	const CHECKOUT = 'c0ffee00-0000-4000-8000-000000000002';
	const NOW      = 1795000000;

	/** @var int */
	private $order_id;

	protected function setUp(): void {
		Harness_Store::$state = Harness_Store::empty_state();
		$this->order_id       = Harness_Store::create_order(
			array(
				'total'    => '73.00',
				'currency' => 'GTQ',
				'meta'     => array(
					WC_Gateway_Rayo::META_CHECKOUT_ID => self::CHECKOUT,
					WC_Gateway_Rayo::META_AMOUNT      => '73',
					WC_Gateway_Rayo::META_CURRENCY    => 'GTQ',
					WC_Gateway_Rayo::META_ATTEMPT     => '1',
				),
			)
		);
	}

	/**
	 * Delivers one event about the order, signed as docs/api.md says.
	 *
	 * @return array{0: int, 1: array} The answer.
	 */
	private function deliver( $event_id, $type, array $data = array() ) {
		$body = json_encode(
			array(
				'id'        => $event_id,
				'type'      => $type,
				'createdAt' => '2026-11-27T10:00:00.000Z',
				'data'      => array_merge(
					array(
						'checkoutId' => self::CHECKOUT,
						'kind'       => 'store',
						'orderId'    => (string) $this->order_id,
						'status'     => 'checkout.paid' === $type ? 'paid' : 'awaiting_payment',
						'amount'     => array(
							'currency' => 'GTQ',
							'value'    => '73.00',
						),
						'amountSats' => 10000,
						'paidVia'    => 'checkout.paid' === $type ? 'lightning' : null,
						'late'       => false,
						'metadata'   => array(),
					),
					$data
				),
			)
		);
		$signature = 't=' . self::NOW . ',v1=' . hash_hmac( 'sha256', self::NOW . '.' . $body, self::SECRET );
		return Rayo_Webhook_Handler::handle( $body, $signature, self::SECRET, self::NOW );
	}

	private function order() {
		return Harness_Store::$state['orders'][ (string) $this->order_id ];
	}

	private function set_status( $status ) {
		( new WC_Order( $this->order_id ) )->update_status( $status );
	}

	public function test_a_paid_checkout_completes_the_order_once() {
		$this->assertSame( array( 200, array( 'result' => 'paid' ) ), $this->deliver( 'e-1', 'checkout.paid' ) );
		$order = $this->order();
		$this->assertSame( 'processing', $order['status'] );
		$this->assertSame( array( self::CHECKOUT ), $order['payments'] );
		$this->assertSame( self::CHECKOUT, $order['transaction_id'] );
		$this->assertSame(
			array(
				'Order status changed from Pending payment to Processing.',
				'Paid 73.00 GTQ with bitcoin (lightning) on Rayo checkout ' . self::CHECKOUT . '.',
			),
			$order['notes']
		);
		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-1', 'checkout.paid' ) );
		$this->assertSame( $order, $this->order() );
	}

	/** @return array<string, array{string}> */
	public function statuses_after_payment() {
		return array(
			'cancelled' => array( 'cancelled' ),
			'refunded'  => array( 'refunded' ),
			'completed' => array( 'completed' ),
		);
	}

	/**
	 * @dataProvider statuses_after_payment
	 */
	public function test_a_redelivered_payment_leaves_an_order_cancelled_or_refunded_since_alone( $status ) {
		$this->deliver( 'e-1', 'checkout.paid' );
		$this->set_status( $status );
		$before = $this->order();

		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-1', 'checkout.paid' ) );
		$this->assertSame( $before, $this->order() );
	}

	/**
	 * @dataProvider statuses_after_payment
	 */
	public function test_an_order_paid_by_the_checkout_is_never_paid_again_even_without_its_event_ids( $status ) {
		$this->deliver( 'e-1', 'checkout.paid' );
		$this->set_status( $status );
		// As an order paid before the plugin kept event ids: only its transaction id says so.
		unset( Harness_Store::$state['orders'][ (string) $this->order_id ]['meta'][ Rayo_Webhook_Handler::META_EVENTS ] );
		$before = $this->order();

		$this->assertSame( array( 200, array( 'result' => 'already-paid' ) ), $this->deliver( 'e-2', 'checkout.paid' ) );
		$after = $this->order();
		$this->assertSame( array( $status, $before['payments'], $before['notes'] ), array( $after['status'], $after['payments'], $after['notes'] ) );
	}

	public function test_an_order_paid_otherwise_is_not_paid_again_and_the_payment_is_noted() {
		// The merchant marked it paid by hand, then cancelled it; the shopper pays the checkout.
		$this->set_status( 'processing' );
		$this->set_status( 'cancelled' );

		$this->assertSame( array( 200, array( 'result' => 'already-paid' ) ), $this->deliver( 'e-1', 'checkout.paid' ) );
		$order = $this->order();
		$this->assertSame( array( 'cancelled', array() ), array( $order['status'], $order['payments'] ) );
		$this->assertSame(
			'Rayo checkout ' . self::CHECKOUT . ' was paid (73.00 GTQ), but this order had already been paid otherwise. Check the payment in Rayo before refunding either.',
			end( $order['notes'] )
		);
	}

	public function test_a_first_payment_after_the_shop_cancelled_the_unpaid_order_completes_it() {
		// WooCommerce's hold-stock timer cancelled it before the on-chain payment confirmed.
		$this->set_status( 'cancelled' );
		$this->assertSame( array( 200, array( 'result' => 'paid' ) ), $this->deliver( 'e-1', 'checkout.paid', array( 'late' => true, 'paidVia' => 'onchain' ) ) );
		$order = $this->order();
		$this->assertSame( array( 'processing', array( self::CHECKOUT ) ), array( $order['status'], $order['payments'] ) );
		$this->assertSame(
			'Paid 73.00 GTQ with bitcoin (onchain) on Rayo checkout ' . self::CHECKOUT . '. The payment arrived after the checkout had expired.',
			end( $order['notes'] )
		);
	}

	public function test_each_event_on_an_order_already_on_hold_writes_its_note_once() {
		$this->assertSame( array( 200, array( 'result' => 'on-hold' ) ), $this->deliver( 'e-1', 'checkout.processing' ) );
		$this->assertSame( array( 200, array( 'result' => 'noted' ) ), $this->deliver( 'e-2', 'checkout.underpaid' ) );
		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-2', 'checkout.underpaid' ) );
		$order = $this->order();
		$this->assertSame( 'on-hold', $order['status'] );
		$this->assertSame(
			array(
				'An on-chain payment to Rayo checkout ' . self::CHECKOUT . ' was seen; waiting for its confirmations. Order status changed from Pending payment to On hold.',
				'The on-chain payment to Rayo checkout ' . self::CHECKOUT . ' is less than the order’s total. Settle it with the shopper.',
			),
			$order['notes']
		);
	}

	public function test_a_paid_amount_other_than_the_order_total_is_noted_on_an_order_already_on_hold() {
		$this->deliver( 'e-1', 'checkout.processing' );
		$this->assertSame( array( 200, array( 'result' => 'amount-mismatch' ) ), $this->deliver( 'e-2', 'checkout.paid', array( 'amount' => array( 'currency' => 'GTQ', 'value' => '7.30' ) ) ) );
		$order = $this->order();
		$this->assertSame( array( 'on-hold', array() ), array( $order['status'], $order['payments'] ) );
		$this->assertSame(
			'Rayo checkout ' . self::CHECKOUT . ' was paid for 7.30 GTQ, but the order is for 73 GTQ. Check the order before shipping.',
			end( $order['notes'] )
		);
	}

	public function test_an_expiry_leaves_the_order_payable_and_says_so_once() {
		$this->assertSame( array( 200, array( 'result' => 'noted' ) ), $this->deliver( 'e-1', 'checkout.expired' ) );
		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-1', 'checkout.expired' ) );
		$order = $this->order();
		$this->assertSame( 'pending', $order['status'] );
		$this->assertSame(
			array( 'Rayo checkout ' . self::CHECKOUT . ' expired unpaid. The order can still be paid: paying again makes a new checkout.' ),
			$order['notes']
		);
	}

	public function test_an_expiry_changes_nothing_on_an_order_already_paid() {
		$this->deliver( 'e-1', 'checkout.paid' );
		$before = $this->order();
		$this->assertSame( array( 200, array( 'result' => 'unchanged' ) ), $this->deliver( 'e-2', 'checkout.expired' ) );
		$after = $this->order();
		$this->assertSame( array( $before['status'], $before['notes'] ), array( $after['status'], $after['notes'] ) );
	}

	public function test_a_payment_of_a_checkout_the_order_no_longer_uses_is_noted_not_applied() {
		$other = 'c0ffee00-0000-4000-8000-000000000009';
		$this->assertSame( array( 200, array( 'result' => 'replaced-checkout' ) ), $this->deliver( 'e-1', 'checkout.paid', array( 'checkoutId' => $other ) ) );
		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-1', 'checkout.paid', array( 'checkoutId' => $other ) ) );
		$order = $this->order();
		$this->assertSame( array( 'pending', array() ), array( $order['status'], $order['payments'] ) );
		$this->assertCount( 1, $order['notes'] );
	}

	/** The data of a checkout.refunded event: refund `$id` of `$value` GTQ, `$so_far` refunded in all. */
	private function refunded( $id, $value, $so_far ) {
		return array(
			'status' => 'paid',
			'refund' => array(
				'id'          => $id,
				'createdAt'   => '2026-11-27T11:00:00.000Z',
				'amountMsat'  => 1000000,
				'currency'    => 'GTQ',
				'amountMinor' => (int) round( (float) $value * 100 ),
				'value'       => $value,
			),
			'refunded' => array(
				'amountMsat'  => 1000000,
				'currency'    => 'GTQ',
				'amountMinor' => (int) round( (float) $so_far * 100 ),
				'value'       => $so_far,
			),
		);
	}

	public function test_each_rayo_refund_becomes_one_woocommerce_refund_the_gateway_does_not_pay_again() {
		$this->deliver( 'e-1', 'checkout.paid' );
		$this->assertSame( array( 200, array( 'result' => 'refunded' ) ), $this->deliver( 'e-2', 'checkout.refunded', $this->refunded( 'r-1', '23.00', '23.00' ) ) );
		// The same delivery again, and the same refund delivered to a second endpoint (another event id).
		$this->assertSame( array( 200, array( 'result' => 'duplicate' ) ), $this->deliver( 'e-2', 'checkout.refunded', $this->refunded( 'r-1', '23.00', '23.00' ) ) );
		$this->assertSame( array( 200, array( 'result' => 'already-refunded' ) ), $this->deliver( 'e-3', 'checkout.refunded', $this->refunded( 'r-1', '23.00', '23.00' ) ) );
		$order = $this->order();
		$this->assertSame( 'processing', $order['status'] );
		$this->assertSame(
			array(
				array(
					'amount' => 23.0,
					'reason' => 'Refunded with bitcoin in Rayo (refund r-1).',
					'meta'   => array( Rayo_Webhook_Handler::META_REFUND_ID => 'r-1' ),
				),
			),
			$order['refunds']
		);

		$this->assertSame( array( 200, array( 'result' => 'refunded' ) ), $this->deliver( 'e-4', 'checkout.refunded', $this->refunded( 'r-2', '50.00', '73.00' ) ) );
		$order = $this->order();
		$this->assertSame( 'refunded', $order['status'] );
		$this->assertSame( array( 'r-1', 'r-2' ), array_map( static fn( $refund ) => $refund['meta'][ Rayo_Webhook_Handler::META_REFUND_ID ], $order['refunds'] ) );
		$this->assertArrayNotHasKey( 'gateway_refunds', $order );
	}

	public function test_a_refund_woocommerce_cannot_take_is_noted_for_the_merchant() {
		$this->deliver( 'e-1', 'checkout.paid' );
		// Refunded by hand in WooCommerce first: Rayo's refund is then more than is left.
		wc_create_refund(
			array(
				'order_id' => $this->order_id,
				'amount'   => '73.00',
			)
		);
		$this->assertSame( array( 200, array( 'result' => 'refund-refused' ) ), $this->deliver( 'e-2', 'checkout.refunded', $this->refunded( 'r-1', '10.00', '10.00' ) ) );
		$this->assertSame(
			'Rayo refunded 10.00 GTQ (refund r-1), but WooCommerce did not take the refund: Invalid refund amount.',
			end( $this->order()['notes'] )
		);
		$refund = $this->refunded( 'r-2', '10.00', '10.00' );
		$refund['refund']['currency'] = 'USD';
		$this->assertSame( array( 200, array( 'result' => 'currency-mismatch' ) ), $this->deliver( 'e-3', 'checkout.refunded', $refund ) );
		$this->assertCount( 1, $this->order()['refunds'] );
	}

	public function test_a_refunded_event_without_its_refund_is_refused() {
		$this->assertSame( 400, $this->deliver( 'e-1', 'checkout.refunded' )[0] );
	}

	public function test_refuses_a_tampered_body_and_answers_unknown_orders() {
		$body      = '{"id":"e-1","type":"checkout.paid","createdAt":"2026-11-27T10:00:00.000Z","data":{"checkoutId":"' . self::CHECKOUT . '","orderId":"' . $this->order_id . '","amount":{"currency":"GTQ","value":"73.00"}}}';
		$signature = 't=' . self::NOW . ',v1=' . hash_hmac( 'sha256', self::NOW . '.' . $body, self::SECRET );
		$tampered  = str_replace( '"e-1"', '"e-2"', $body );
		$this->assertSame( 401, Rayo_Webhook_Handler::handle( $tampered, $signature, self::SECRET, self::NOW )[0] );
		$this->assertSame( 'pending', $this->order()['status'] );
		$this->assertSame( array( 200, array( 'result' => 'unknown-order' ) ), $this->deliver( 'e-3', 'checkout.paid', array( 'orderId' => '999999' ) ) );
	}
}
