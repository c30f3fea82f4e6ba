<?php
/**
 * @package Rayo_For_WooCommerce
 */

use PHPUnit\Framework\TestCase;

final class AmountTest extends TestCase {

	/** @return array<string, array{0: string, 1: int, 2: int}> */
	public function convertible() {
		return array(
			'whole'              => array( '10', 2, 1000 ),
			'one decimal'        => array( '10.5', 2, 1050 ),
			'one cent'           => array( '0.01', 2, 1 ),
			'large'              => array( '1234567.89', 2, 123456789 ),
			'three decimals'     => array( '12.345', 3, 12345 ),
			'three, short'       => array( '0.5', 3, 500 ),
			'zero decimals'      => array( '1500', 0, 1500 ),
			'zero with .00'      => array( '1500.00', 0, 1500 ),
			'trailing zeros'     => array( '10.500', 2, 1050 ),
			'leading zeros'      => array( '007.10', 2, 710 ),
			'zero'               => array( '0', 2, 0 ),
			'zero point zero'    => array( '0.00', 2, 0 ),
			'surrounding spaces' => array( ' 73.00 ', 2, 7300 ),
			'eighteen digits'    => array( '9999999999999999.99', 2, 999999999999999999 ),
		);
	}

	/**
	 * @dataProvider convertible
	 */
	public function test_reads_decimal_strings_into_minor_units( $value, $decimals, $minor ) {
		$this->assertSame( $minor, Rayo_Amount::to_minor_units( $value, $decimals ) );
	}

	/** @return array<string, array{0: mixed, 1: int}> */
	public function refused() {
		return array(
			'more decimals'      => array( '10.555', 2 ),
			'decimals for JPY'   => array( '1500.5', 0 ),
			'negative'           => array( '-1.00', 2 ),
			'comma'              => array( '10,50', 2 ),
			'thousands'          => array( '1,234.00', 2 ),
			'exponent'           => array( '1e3', 2 ),
			'empty'              => array( '', 2 ),
			'dot only'           => array( '.', 2 ),
			'no whole part'      => array( '.5', 2 ),
			'no fraction digits' => array( '5.', 2 ),
			'words'              => array( 'ten', 2 ),
			'newline inside'     => array( "10\n.00", 2 ),
			'trailing newline'   => array( "10.00\nx", 2 ),
			'too large'          => array( '99999999999999999.99', 2 ),
			'null'               => array( null, 2 ),
			'array'              => array( array( '10' ), 2 ),
			'bad decimals'       => array( '10', -1 ),
			'too many decimals'  => array( '10', 9 ),
		);
	}

	/**
	 * @dataProvider refused
	 */
	public function test_refuses_what_is_not_a_plain_amount( $value, $decimals ) {
		$this->expectException( InvalidArgumentException::class );
		Rayo_Amount::to_minor_units( $value, $decimals );
	}

	public function test_writes_minor_units_with_exactly_the_currency_decimals() {
		$this->assertSame( '10.50', Rayo_Amount::from_minor_units( 1050, 2 ) );
		$this->assertSame( '0.01', Rayo_Amount::from_minor_units( 1, 2 ) );
		$this->assertSame( '0.00', Rayo_Amount::from_minor_units( 0, 2 ) );
		$this->assertSame( '1500', Rayo_Amount::from_minor_units( 1500, 0 ) );
		$this->assertSame( '0.005', Rayo_Amount::from_minor_units( 5, 3 ) );
		$this->assertSame( '1234567.89', Rayo_Amount::from_minor_units( 123456789, 2 ) );
	}

	public function test_refuses_negative_minor_units() {
		$this->expectException( InvalidArgumentException::class );
		Rayo_Amount::from_minor_units( -1, 2 );
	}

	public function test_sends_the_shortest_decimal_rayo_accepts() {
		$this->assertSame( '10.5', Rayo_Amount::shortest_decimal( 1050, 2 ) );
		$this->assertSame( '10', Rayo_Amount::shortest_decimal( 1000, 2 ) );
		$this->assertSame( '10.505', Rayo_Amount::shortest_decimal( 10505, 3 ) );
		$this->assertSame( '1500', Rayo_Amount::shortest_decimal( 1500, 0 ) );
		$this->assertSame( '0.01', Rayo_Amount::shortest_decimal( 1, 2 ) );
		$this->assertSame( '0', Rayo_Amount::shortest_decimal( 0, 2 ) );
	}

	public function test_reads_an_order_total_given_as_a_float_at_the_store_decimals() {
		// 0.1 + 0.2 is 0.30000000000000004 in binary floating point.
		$this->assertSame( 30, Rayo_Amount::order_total_to_minor_units( 0.1 + 0.2, 2 ) );
		$this->assertSame( 1050, Rayo_Amount::order_total_to_minor_units( 10.5, 2 ) );
		$this->assertSame( 1050, Rayo_Amount::order_total_to_minor_units( '10.50', 2 ) );
		$this->assertSame( 1500, Rayo_Amount::order_total_to_minor_units( 1500, 0 ) );
	}

	public function test_refuses_a_float_total_that_is_not_finite_or_negative() {
		foreach ( array( INF, NAN, -1.5 ) as $total ) {
			try {
				Rayo_Amount::order_total_to_minor_units( $total, 2 );
				$this->fail( 'accepted ' . var_export( $total, true ) );
			} catch ( InvalidArgumentException $e ) {
				$this->assertNotSame( '', $e->getMessage() );
			}
		}
	}

	public function test_compares_amounts_at_any_scale() {
		$this->assertTrue( Rayo_Amount::same( '125.5', '125.50' ) );
		$this->assertTrue( Rayo_Amount::same( '73', '73.00' ) );
		$this->assertFalse( Rayo_Amount::same( '73.01', '73.00' ) );
		$this->assertFalse( Rayo_Amount::same( '73', 'junk' ) );
		$this->assertFalse( Rayo_Amount::same( '-73', '-73' ) );
	}
}
