<?php
/**
 * Decimal amounts as strings and integer minor units, without floating point.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Money goes to Rayo as a decimal string; binary floats would turn 0.1 + 0.2 into 0.30000000000000004,
 * so totals are read digit by digit into an integer count of minor units.
 */
final class Rayo_Amount {

	/** Past 18 digits a minor-unit count no longer fits a signed 64-bit integer on every platform. */
	const MAX_DIGITS = 18;

	/**
	 * Reads a non-negative decimal string ('10', '10.5', '0.01') into minor units for a currency
	 * with $decimals decimals. Extra decimals are accepted only when they are zeros ('10.500' at 2).
	 *
	 * @param string|int $value    The decimal amount.
	 * @param int        $decimals The currency's number of decimals (0 to 8).
	 * @return int The amount in minor units.
	 * @throws InvalidArgumentException When the value is not a plain non-negative decimal or has more significant decimals.
	 */
	public static function to_minor_units( $value, $decimals ) {
		if ( ! is_int( $decimals ) || $decimals < 0 || $decimals > 8 ) {
			throw new InvalidArgumentException( 'Decimals must be an integer from 0 to 8.' );
		}
		if ( is_int( $value ) ) {
			$value = (string) $value;
		}
		if ( ! is_string( $value ) || ! preg_match( '/^(\d+)(?:\.(\d+))?$/D', trim( $value ), $parts ) ) {
			throw new InvalidArgumentException( 'The amount is not a decimal number.' );
		}
		$whole    = $parts[1];
		$fraction = isset( $parts[2] ) ? $parts[2] : '';
		if ( strlen( $fraction ) > $decimals ) {
			if ( trim( substr( $fraction, $decimals ), '0' ) !== '' ) {
				throw new InvalidArgumentException( 'The amount has more decimals than the currency.' );
			}
			$fraction = substr( $fraction, 0, $decimals );
		}
		$digits = ltrim( $whole . str_pad( $fraction, $decimals, '0' ), '0' );
		if ( '' === $digits ) {
			return 0;
		}
		if ( strlen( $digits ) > self::MAX_DIGITS ) {
			throw new InvalidArgumentException( 'The amount is too large.' );
		}
		return (int) $digits;
	}

	/**
	 * Writes minor units back as a decimal string with exactly $decimals decimals (1050, 2 → '10.50').
	 *
	 * @param int $minor    The amount in minor units, not negative.
	 * @param int $decimals The currency's number of decimals.
	 * @return string
	 * @throws InvalidArgumentException When the amount is negative or the decimals out of range.
	 */
	public static function from_minor_units( $minor, $decimals ) {
		if ( ! is_int( $minor ) || $minor < 0 ) {
			throw new InvalidArgumentException( 'Minor units must be a non-negative integer.' );
		}
		if ( ! is_int( $decimals ) || $decimals < 0 || $decimals > 8 ) {
			throw new InvalidArgumentException( 'Decimals must be an integer from 0 to 8.' );
		}
		$digits = str_pad( (string) $minor, $decimals + 1, '0', STR_PAD_LEFT );
		if ( 0 === $decimals ) {
			return $digits;
		}
		return substr( $digits, 0, -$decimals ) . '.' . substr( $digits, -$decimals );
	}

	/**
	 * Minor units as the shortest decimal string ('10.5' for 1050 at 2 decimals, '10' for 1000):
	 * Rayo refuses more decimals than its currency has, even zeros, and a store may be set to show more.
	 *
	 * @param int $minor    The amount in minor units, not negative.
	 * @param int $decimals The store's decimals.
	 * @return string
	 */
	public static function shortest_decimal( $minor, $decimals ) {
		$decimal = self::from_minor_units( $minor, $decimals );
		return false === strpos( $decimal, '.' ) ? $decimal : rtrim( rtrim( $decimal, '0' ), '.' );
	}

	/**
	 * Reads a WooCommerce order total, which WooCommerce keeps as a decimal string but filters may
	 * hand over as a float; a float is first printed at the store's decimals, as WooCommerce does.
	 *
	 * @param string|int|float $total    The order total.
	 * @param int              $decimals The store's price decimals.
	 * @return int The total in minor units.
	 * @throws InvalidArgumentException When the total is not a usable amount.
	 */
	public static function order_total_to_minor_units( $total, $decimals ) {
		if ( is_float( $total ) ) {
			if ( ! is_finite( $total ) ) {
				throw new InvalidArgumentException( 'The amount is not a decimal number.' );
			}
			$total = number_format( $total, $decimals, '.', '' );
		}
		return self::to_minor_units( $total, $decimals );
	}

	/**
	 * Whether two decimal strings are the same amount ('125.5' and '125.50'), at any scale.
	 *
	 * @param string $a A decimal amount.
	 * @param string $b Another decimal amount.
	 * @return bool False as well when either is not a decimal amount.
	 */
	public static function same( $a, $b ) {
		try {
			return self::to_minor_units( $a, 8 ) === self::to_minor_units( $b, 8 );
		} catch ( InvalidArgumentException $e ) {
			return false;
		}
	}
}
