<?php
/**
 * @package Rayo_For_WooCommerce
 */

use PHPUnit\Framework\TestCase;

final class SignatureTest extends TestCase {

	const SECRET = 'whsec_4gq0J5lT1m4yS2jv6xq3e1Zx9b7Kc8Wd';
	const NOW    = 1795000000;

	/** The header as docs/api.md defines it, computed here independently of the plugin. */
	private static function header( $body, $t = self::NOW, $secret = self::SECRET ) {
		return 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $body, $secret );
	}

	private static function body() {
		return '{"id":"d-1","type":"checkout.paid","data":{"checkoutId":"c-1","orderId":"101","amount":{"currency":"GTQ","value":"73.00"}}}';
	}

	public function test_accepts_a_valid_signature() {
		$this->assertTrue( Rayo_Signature::verify( self::SECRET, self::header( self::body() ), self::body(), self::NOW ) );
	}

	public function test_accepts_within_five_minutes_either_way() {
		$this->assertTrue( Rayo_Signature::verify( self::SECRET, self::header( self::body(), self::NOW - 300 ), self::body(), self::NOW ) );
		$this->assertTrue( Rayo_Signature::verify( self::SECRET, self::header( self::body(), self::NOW + 300 ), self::body(), self::NOW ) );
	}

	public function test_refuses_another_secret() {
		$header = self::header( self::body(), self::NOW, 'whsec_other' );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, $header, self::body(), self::NOW ) );
	}

	public function test_refuses_a_tampered_body() {
		$tampered = str_replace( '73.00', '0.01', self::body() );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, self::header( self::body() ), $tampered, self::NOW ) );
		// Re-encoding the same JSON differently is also a different body: the raw bytes are signed.
		$reencoded = json_encode( json_decode( self::body(), true ), JSON_PRETTY_PRINT );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, self::header( self::body() ), $reencoded, self::NOW ) );
	}

	public function test_refuses_an_old_or_future_timestamp() {
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, self::header( self::body(), self::NOW - 301 ), self::body(), self::NOW ) );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, self::header( self::body(), self::NOW + 301 ), self::body(), self::NOW ) );
	}

	public function test_refuses_a_timestamp_changed_after_signing() {
		$header = str_replace( 't=' . self::NOW, 't=' . ( self::NOW + 1 ), self::header( self::body() ) );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, $header, self::body(), self::NOW ) );
	}

	/** @return array<string, array{0: mixed}> */
	public function malformed() {
		$v1 = hash_hmac( 'sha256', self::NOW . '.' . self::body(), self::SECRET );
		return array(
			'empty'             => array( '' ),
			'no timestamp'      => array( 'v1=' . $v1 ),
			'no signature'      => array( 't=' . self::NOW ),
			'upper-case hex'    => array( 't=' . self::NOW . ',v1=' . strtoupper( $v1 ) ),
			'short hex'         => array( 't=' . self::NOW . ',v1=' . substr( $v1, 0, 63 ) ),
			'not a number'      => array( 't=soon,v1=' . $v1 ),
			'negative time'     => array( 't=-' . self::NOW . ',v1=' . $v1 ),
			'two timestamps'    => array( 't=' . self::NOW . ',t=' . self::NOW . ',v1=' . $v1 ),
			'part without ='    => array( 't=' . self::NOW . ',v1' ),
			'sha256= prefix'    => array( 'sha256=' . $v1 ),
			'null'              => array( null ),
			'trailing newline'  => array( 't=' . self::NOW . ',v1=' . $v1 . "\n" ),
			'bad v1 and good'   => array( 't=' . self::NOW . ',v1=zz,v1=' . $v1 ),
		);
	}

	/**
	 * @dataProvider malformed
	 */
	public function test_refuses_a_malformed_header( $header ) {
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, $header, self::body(), self::NOW ) );
	}

	public function test_accepts_when_any_of_several_v1_matches() {
		$good   = hash_hmac( 'sha256', self::NOW . '.' . self::body(), self::SECRET );
		$other  = hash_hmac( 'sha256', self::NOW . '.' . self::body(), 'whsec_old' );
		$header = 't=' . self::NOW . ',v1=' . $other . ',v1=' . $good;
		$this->assertTrue( Rayo_Signature::verify( self::SECRET, $header, self::body(), self::NOW ) );
		$this->assertFalse( Rayo_Signature::verify( self::SECRET, 't=' . self::NOW . ',v1=' . $other . ',v1=' . $other, self::body(), self::NOW ) );
	}

	public function test_skips_unknown_schemes() {
		$header = self::header( self::body() ) . ',v0=abc';
		$this->assertTrue( Rayo_Signature::verify( self::SECRET, $header, self::body(), self::NOW ) );
	}

	public function test_refuses_everything_without_a_secret() {
		$this->assertFalse( Rayo_Signature::verify( '', self::header( self::body(), self::NOW, '' ), self::body(), self::NOW ) );
	}
}
