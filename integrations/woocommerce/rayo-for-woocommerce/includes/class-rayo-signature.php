<?php
/**
 * Verification of the Rayo-Signature header of Rayo's webhooks.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Rayo signs each delivery with `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The timestamp is signed too, so a captured delivery cannot be replayed after the tolerance.
 */
final class Rayo_Signature {

	/** Five minutes either way, as Rayo's documentation asks. */
	const TOLERANCE_SECONDS = 300;

	/**
	 * Whether $header signs $raw_body with $secret at a time close enough to $now.
	 * Several v1 values are accepted (any one matching), so a secret can be rolled over.
	 *
	 * @param string $secret    The endpoint's signing secret (the whole whsec_… string).
	 * @param string $header    The Rayo-Signature header as received.
	 * @param string $raw_body  The request body exactly as received, before any JSON parsing.
	 * @param int    $now       The current Unix time.
	 * @param int    $tolerance Seconds the timestamp may differ from $now.
	 * @return bool
	 */
	public static function verify( $secret, $header, $raw_body, $now, $tolerance = self::TOLERANCE_SECONDS ) {
		if ( ! is_string( $secret ) || '' === $secret || ! is_string( $header ) || ! is_string( $raw_body ) ) {
			return false;
		}
		$timestamp  = null;
		$signatures = array();
		foreach ( explode( ',', $header ) as $part ) {
			$pair = explode( '=', $part, 2 );
			if ( 2 !== count( $pair ) ) {
				return false;
			}
			list( $key, $value ) = $pair;
			if ( 't' === $key ) {
				if ( null !== $timestamp || ! preg_match( '/^\d{1,12}$/D', $value ) ) {
					return false;
				}
				$timestamp = (int) $value;
			} elseif ( 'v1' === $key ) {
				if ( ! preg_match( '/^[0-9a-f]{64}$/D', $value ) ) {
					return false;
				}
				$signatures[] = $value;
			}
			// Other schemes (v0, a future v2) are skipped, as Stripe-style signatures allow.
		}
		if ( null === $timestamp || array() === $signatures || abs( $now - $timestamp ) > $tolerance ) {
			return false;
		}
		$expected = hash_hmac( 'sha256', $timestamp . '.' . $raw_body, $secret );
		foreach ( $signatures as $signature ) {
			if ( hash_equals( $expected, $signature ) ) {
				return true;
			}
		}
		return false;
	}
}
