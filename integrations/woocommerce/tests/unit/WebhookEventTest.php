<?php
/**
 * @package Rayo_For_WooCommerce
 */

use PHPUnit\Framework\TestCase;

final class WebhookEventTest extends TestCase {

	/** The body docs/api.md shows for checkout.paid. */
	private static function paid( array $data_overrides = array() ) {
		return json_encode(
			array(
				'id'        => '5b0f0000-0000-4000-8000-000000000001',
				'type'      => 'checkout.paid',
				'createdAt' => '2026-11-24T01:02:03.000Z',
				'data'      => array_merge(
					array(
						'checkoutId' => 'c0ffee00-0000-4000-8000-000000000002',
						'kind'       => 'store',
						'orderId'    => '1001',
						'status'     => 'paid',
						'amount'     => array(
							'currency' => 'GTQ',
							'value'    => '125.50',
						),
						'amountSats' => 25310,
						'paidVia'    => 'lightning',
						'late'       => false,
						'metadata'   => array( 'orderKey' => 'wc_order_x' ),
					),
					$data_overrides
				),
			)
		);
	}

	public function test_reads_a_checkout_event() {
		$event = Rayo_Webhook_Event::parse( self::paid() );
		$this->assertSame( '5b0f0000-0000-4000-8000-000000000001', $event->id );
		$this->assertSame( 'checkout.paid', $event->type );
		$this->assertTrue( $event->is_checkout_event() );
		$this->assertSame( 'c0ffee00-0000-4000-8000-000000000002', $event->checkout_id );
		$this->assertSame( '1001', $event->order_id );
		$this->assertSame( '125.50', $event->amount );
		$this->assertSame( 'GTQ', $event->currency );
		$this->assertSame( 'lightning', $event->paid_via );
		$this->assertFalse( $event->late );
	}

	public function test_reads_a_late_on_chain_payment_and_an_expiry_without_payment() {
		$late = Rayo_Webhook_Event::parse( self::paid( array( 'late' => true, 'paidVia' => 'onchain' ) ) );
		$this->assertTrue( $late->late );
		$this->assertSame( 'onchain', $late->paid_via );
		$expired = Rayo_Webhook_Event::parse(
			str_replace( 'checkout.paid', 'checkout.expired', self::paid( array( 'paidVia' => null, 'amountSats' => null ) ) )
		);
		$this->assertSame( 'checkout.expired', $expired->type );
		$this->assertNull( $expired->paid_via );
	}

	public function test_reads_other_events_with_just_their_id_and_type() {
		$test = Rayo_Webhook_Event::parse( '{"id":"d-9","type":"webhook.test","createdAt":"2026-11-24T00:00:00Z","data":{"test":true}}' );
		$this->assertSame( 'webhook.test', $test->type );
		$this->assertFalse( $test->is_checkout_event() );
		$this->assertNull( $test->checkout_id );
		$donation = Rayo_Webhook_Event::parse( '{"id":"d-8","type":"donation.received","data":{"donationId":"x"}}' );
		$this->assertFalse( $donation->is_checkout_event() );
	}

	/** @return array<string, array{0: mixed}> */
	public function unreadable() {
		$without = static function ( $key ) {
			$body = json_decode( self::paid(), true );
			unset( $body['data'][ $key ] );
			return json_encode( $body );
		};
		return array(
			'not JSON'               => array( 'checkout.paid' ),
			'empty'                  => array( '' ),
			'JSON string'            => array( '"checkout.paid"' ),
			'JSON list'              => array( '[1,2]' ),
			'no id'                  => array( '{"type":"checkout.paid","data":{}}' ),
			'numeric id'             => array( '{"id":5,"type":"checkout.paid","data":{}}' ),
			'no type'                => array( '{"id":"d-1","data":{}}' ),
			'checkout without data'  => array( '{"id":"d-1","type":"checkout.paid"}' ),
			'no checkoutId'          => array( $without( 'checkoutId' ) ),
			'no orderId'             => array( $without( 'orderId' ) ),
			'no amount'              => array( $without( 'amount' ) ),
			'numeric amount'         => array( self::paid( array( 'amount' => array( 'currency' => 'GTQ', 'value' => 125.5 ) ) ) ),
			'amount without currency' => array( self::paid( array( 'amount' => array( 'value' => '125.50' ) ) ) ),
			'numeric orderId'        => array( self::paid( array( 'orderId' => 1001 ) ) ),
			'too deep'               => array( str_repeat( '[', 40 ) . str_repeat( ']', 40 ) ),
			'null'                   => array( null ),
		);
	}

	/**
	 * @dataProvider unreadable
	 */
	public function test_refuses_what_is_not_a_rayo_event( $body ) {
		$this->expectException( InvalidArgumentException::class );
		Rayo_Webhook_Event::parse( $body );
	}

	public function test_maps_rayo_order_ids_back_to_woocommerce_orders() {
		$this->assertSame( '1001', Rayo_Order_Reference::format( 1001, 1 ) );
		$this->assertSame( '1001-2', Rayo_Order_Reference::format( 1001, 2 ) );
		$this->assertSame( 1001, Rayo_Order_Reference::parse( '1001' ) );
		$this->assertSame( 1001, Rayo_Order_Reference::parse( '1001-2' ) );
		foreach ( array( '', '0', '01', '1001-', '1001-0', 'A-1001', '1001-2-3', ' 1001', "1001\n", '1001.5' ) as $foreign ) {
			$this->assertNull( Rayo_Order_Reference::parse( $foreign ), $foreign );
		}
		$this->assertNull( Rayo_Order_Reference::parse( 1001 ) );
	}

	public function test_refuses_to_format_a_non_positive_order_or_attempt() {
		$this->expectException( InvalidArgumentException::class );
		Rayo_Order_Reference::format( 1001, 0 );
	}
}
